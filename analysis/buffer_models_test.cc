#include "analysis/buffer_models.h"

#include "gtest/gtest.h"

namespace tickbench::analysis {
namespace {

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

TEST(FixedChunksTest, CeilingDivision) {
  EXPECT_EQ(FixedChunks(0, 1460), 0);
  EXPECT_EQ(FixedChunks(1, 1460), 1);
  EXPECT_EQ(FixedChunks(1460, 1460), 1);
  EXPECT_EQ(FixedChunks(1461, 1460), 2);
}

TEST(Ipv4UdpPacketsTest, EthernetMtu) {
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
  EXPECT_EQ(Ipv4UdpPackets(1097, 576), 3);
  // MTU 9000: 8980 of room, 8976 per fragment.
  EXPECT_EQ(Ipv4UdpPackets(8972, 9000), 1);
  EXPECT_EQ(Ipv4UdpPackets(8973, 9000), 2);
  EXPECT_EQ(Ipv4UdpPackets(17944, 9000), 2);
  EXPECT_EQ(Ipv4UdpPackets(17945, 9000), 3);
}

TEST(DesignColumnsTest, OneCountColumnPerBufferKind) {
  const std::vector<double> sizes = {100, 1500, 3000};
  BufferModel model;
  EXPECT_EQ(DesignColumns(model, sizes).size(), 2u);
  model = {ModelFamily::kBsdSocket, 1024, 512, 112, 0};
  const auto bsd = DesignColumns(model, sizes);
  ASSERT_EQ(bsd.size(), 4u);
  EXPECT_EQ(bsd[0], (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(bsd[1], sizes);
  EXPECT_EQ(bsd[2], (std::vector<double>{0, 1, 3}));
  EXPECT_EQ(bsd[3], (std::vector<double>{1, 5, 0}));
  model = {ModelFamily::kIpv4Fragments, 0, 0, 0, 1500};
  EXPECT_EQ(DesignColumns(model, sizes)[2], (std::vector<double>{1, 2, 3}));
  model = {ModelFamily::kFixedChunks, 1460, 0, 0, 0};
  EXPECT_EQ(DesignColumns(model, sizes)[2], (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(CostNames(ModelFamily::kBsdSocket).size(), 4u);
  EXPECT_EQ(CostNames(ModelFamily::kIpv4Fragments).back(), "per_packet");
}

TEST(DescribeModelTest, NamesAndParameters) {
  EXPECT_EQ(DescribeModel({ModelFamily::kBsdSocket, 1024, 512, 112, 0}),
            "bsd_socket(C=1024, t=512, s=112)");
  EXPECT_EQ(DescribeModel({ModelFamily::kFixedChunks, 4096, 0, 0, 0}), "fixed_chunks(C=4096)");
  EXPECT_EQ(DescribeModel({ModelFamily::kIpv4Fragments, 0, 0, 0, 1500}),
            "ipv4_fragments(MTU=1500)");
  EXPECT_EQ(DescribeModel({}), "linear");
  EXPECT_EQ(DiscreteParameterCount(ModelFamily::kBsdSocket), 3);
  EXPECT_STREQ(FamilyName(ModelFamily::kIpv4Fragments), "ipv4_fragments");
}

}  // namespace
}  // namespace tickbench::analysis
