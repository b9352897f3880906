#include "model/buffer_layout.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "gtest/gtest.h"

namespace tickbench::model {
namespace {

constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();

// The sosend() loop as written: one buffer at a time while bytes remain.
BsdBuffers SosendLoop(int64_t n, int64_t cluster, int64_t threshold, int64_t small) {
  BsdBuffers buffers;
  for (int64_t left = n; left > 0;) {
    if (left >= threshold) {
      ++buffers.clusters;
      left -= std::min(cluster, left);
    } else {
      ++buffers.small_buffers;
      left -= std::min(small, left);
    }
  }
  return buffers;
}

// IPv4 fragmentation as a router does it: the IP payload (UDP header + data) cut into
// pieces of at most MTU − 20 bytes, every piece but the last a multiple of 8.
int64_t FragmentLoop(int64_t n, int64_t mtu) {
  int64_t left = n + kUdpHeaderBytes;
  int64_t packets = 0;
  while (true) {
    ++packets;
    if (left <= mtu - kIpv4HeaderBytes) return packets;
    left -= (mtu - kIpv4HeaderBytes) / 8 * 8;
  }
}

struct Layout {
  int64_t n, clusters, small_buffers;
};

TEST(BsdSocketBuffersTest, FourPointThreeRuleOnTheClassicSizes) {
  // C = 1024, t = 512, s = 112.
  const Layout expected[] = {{32, 0, 1},   {512, 1, 0},  {1024, 1, 0}, {1300, 1, 3},
                             {1400, 1, 4}, {1460, 1, 4}, {1492, 1, 5}, {1536, 2, 0},
                             {2032, 2, 0}, {2984, 3, 0}, {4096, 4, 0}, {511, 0, 5},
                             {1, 0, 1},    {112, 0, 1},  {113, 0, 2},  {0, 0, 0}};
  for (const Layout& e : expected) {
    const BsdBuffers b = BsdSocketBuffers(e.n, 1024, 512, 112);
    EXPECT_EQ(b.clusters, e.clusters) << e.n;
    EXPECT_EQ(b.small_buffers, e.small_buffers) << e.n;
  }
}

TEST(BsdSocketBuffersTest, OlderRuleNeedsAFullCluster) {
  // t = C = 1024: 1000 bytes take nine small buffers, 1024 one cluster, 2032 a cluster and
  // nine small buffers.
  EXPECT_EQ(BsdSocketBuffers(1000, 1024, 1024, 112).small_buffers, 9);
  EXPECT_EQ(BsdSocketBuffers(1000, 1024, 1024, 112).clusters, 0);
  EXPECT_EQ(BsdSocketBuffers(1024, 1024, 1024, 112).clusters, 1);
  EXPECT_EQ(BsdSocketBuffers(1024, 1024, 1024, 112).small_buffers, 0);
  EXPECT_EQ(BsdSocketBuffers(2032, 1024, 1024, 112).clusters, 1);
  EXPECT_EQ(BsdSocketBuffers(2032, 1024, 1024, 112).small_buffers, 9);
}

TEST(BsdSocketBuffersTest, ClosedFormIsTheSosendLoop) {
  struct Rule {
    int64_t cluster, threshold, small;
  };
  // 4.3BSD, 4.2BSD, and rules with s > t, s = t = C and a tiny cluster.
  for (const Rule& r : {Rule{1024, 512, 112}, Rule{1024, 1024, 112}, Rule{2048, 512, 96},
                        Rule{256, 64, 128}, Rule{112, 112, 112}, Rule{8, 3, 2}}) {
    for (int64_t n = -2; n <= 5000; ++n) {
      const BsdBuffers got = BsdSocketBuffers(n, r.cluster, r.threshold, r.small);
      const BsdBuffers want = SosendLoop(n, r.cluster, r.threshold, r.small);
      ASSERT_EQ(got.clusters, want.clusters) << "n=" << n << " C=" << r.cluster;
      ASSERT_EQ(got.small_buffers, want.small_buffers) << "n=" << n << " C=" << r.cluster;
    }
  }
}

TEST(BsdSocketBuffersTest, NoOverflowAtTheLargestSize) {
  // INT64_MAX = 9007199254740991 · 1024 + 1023: the remainder 1023 takes a cluster.
  const BsdBuffers big = BsdSocketBuffers(kMaxInt64, 1024, 512, 112);
  EXPECT_EQ(big.clusters, kMaxInt64 / 1024 + 1);
  EXPECT_EQ(big.small_buffers, 0);
  // With t = C the 1023 bytes go into ceil(1023 / 112) = 10 small buffers.
  EXPECT_EQ(BsdSocketBuffers(kMaxInt64, 1024, 1024, 112).small_buffers, 10);
}

TEST(FixedChunksTest, CeilingDivision) {
  EXPECT_EQ(FixedChunks(-5, 1460), 0);
  EXPECT_EQ(FixedChunks(0, 1460), 0);
  EXPECT_EQ(FixedChunks(1, 1460), 1);
  EXPECT_EQ(FixedChunks(1460, 1460), 1);
  EXPECT_EQ(FixedChunks(1461, 1460), 2);
  EXPECT_EQ(FixedChunks(kMaxInt64, 1), kMaxInt64);
  EXPECT_EQ(FixedChunks(kMaxInt64, 4096), kMaxInt64 / 4096 + 1);  // no overflow in n + C − 1
}

TEST(Ipv4HeadersTest, ClassicConstants) {
  static_assert(kIpv4HeaderBytes + kUdpHeaderBytes == 28, "IPv4 + UDP headers");
  static_assert(MaxUnfragmentedUdpPayload(1500) == 1472, "Ethernet");
  static_assert(MaxUnfragmentedUdpPayload(576) == 548, "IPv4's minimum reassembly size");
  static_assert(Ipv4FragmentPayloadBytes(1500) == 1480, "1480 = 185 · 8");
  static_assert(Ipv4FragmentPayloadBytes(576) == 552, "556 rounded down to 8");
  static_assert(Ipv4FragmentPayloadBytes(kMinIpv4MtuBytes) == 8, "one fragment unit");
  EXPECT_EQ(Ipv4FragmentPayloadBytes(9000), 8976);
}

TEST(Ipv4UdpPacketsTest, EthernetMtu) {
  EXPECT_EQ(Ipv4UdpPackets(-1, 1500), 1);
  EXPECT_EQ(Ipv4UdpPackets(0, 1500), 1);
  EXPECT_EQ(Ipv4UdpPackets(1472, 1500), 1);  // largest unfragmented payload
  EXPECT_EQ(Ipv4UdpPackets(1473, 1500), 2);
  // Fragments carry 1480 bytes of the IP payload (n + 8): two hold up to 2952 bytes of
  // data, where a fixed 1472 per packet would already need three at 2945.
  EXPECT_EQ(Ipv4UdpPackets(2952, 1500), 2);
  EXPECT_EQ(Ipv4UdpPackets(2953, 1500), 3);
  EXPECT_EQ(Ipv4UdpPackets(65507, 1500), 45);  // largest UDP datagram: 65515 / 1480
}

TEST(Ipv4UdpPacketsTest, FragmentPayloadIsAMultipleOfEight) {
  // MTU 576: 556 bytes of room, 552 per fragment.
  EXPECT_EQ(Ipv4UdpPackets(548, 576), 1);
  EXPECT_EQ(Ipv4UdpPackets(549, 576), 2);
  EXPECT_EQ(Ipv4UdpPackets(1096, 576), 2);  // 1104 = 2 × 552
  // The last fragment need not be a multiple of 8: 552 + 556 = 1108 bytes of IP payload
  // (n = 1100) still fit two packets; ceil((n + 8) / 552) would say 3 from n = 1097.
  EXPECT_EQ(Ipv4UdpPackets(1097, 576), 2);
  EXPECT_EQ(Ipv4UdpPackets(1100, 576), 2);
  EXPECT_EQ(Ipv4UdpPackets(1101, 576), 3);
  // MTU 9000: 8980 of room, 8976 per fragment.
  EXPECT_EQ(Ipv4UdpPackets(8972, 9000), 1);
  EXPECT_EQ(Ipv4UdpPackets(8973, 9000), 2);
  EXPECT_EQ(Ipv4UdpPackets(17944, 9000), 2);  // 17952 = 2 × 8976
  EXPECT_EQ(Ipv4UdpPackets(17948, 9000), 2);  // 17956 = 8976 + 8980
  EXPECT_EQ(Ipv4UdpPackets(17949, 9000), 3);
}

TEST(Ipv4UdpPacketsTest, ClosedFormIsTheFragmentLoop) {
  // Every MTU from the smallest accepted (one 8-byte unit per fragment) to past Ethernet's.
  for (int64_t mtu = kMinIpv4MtuBytes; mtu <= 1600; ++mtu) {
    for (int64_t n = 0; n <= 3100; n += 3) {
      ASSERT_EQ(Ipv4UdpPackets(n, mtu), FragmentLoop(n, mtu)) << "n=" << n << " mtu=" << mtu;
    }
  }
}

TEST(Ipv4UdpPacketsTest, NoOverflowAtTheLargestSize) {
  // ceil((INT64_MAX + 8) / 8) at the smallest MTU: one more than INT64_MAX / 8 + 1.
  EXPECT_EQ(Ipv4UdpPackets(kMaxInt64, kMinIpv4MtuBytes), kMaxInt64 / 8 + 2);
  EXPECT_GT(Ipv4UdpPackets(kMaxInt64, 1500), kMaxInt64 / 1480);
}

}  // namespace
}  // namespace tickbench::model
