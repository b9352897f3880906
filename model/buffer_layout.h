// How many buffers or packets an n-byte message takes under three layout rules: the BSD
// socket layer's clusters and small buffers, fixed-size chunks, and IPv4 fragments of a UDP
// datagram. The derivations, with the classic parameters, are in docs/theory.md
// ("Buffer layouts").
//
// What is promised:
//   * Pure functions of their arguments: no state, no allocation, no I/O, thread-safe.
//   * Exact integer counts for every n >= 0 within the stated preconditions, without
//     overflow (n up to INT64_MAX); n <= 0 is an empty message.
//   * The same counts the simulated transport charges for (transport/sim/sim_rtt_model.h) and
//     the model fits search (analysis/models/buffer_models.h), so that a simulated sweep can be
//     fitted back to its own parameters.
// What is NOT promised:
//   * Preconditions are not checked: a zero or negative buffer size divides by zero.
//     Callers validate their parameters first (transport::ValidateSimRttModel does).
//   * These are the classic rules, not what today's kernels do: Linux allocates socket
//     buffers differently, and IPv4 options (a header longer than 20 bytes), IPv6 and
//     path-MTU discovery are not modelled.
#ifndef MODEL_BUFFER_LAYOUT_H_
#define MODEL_BUFFER_LAYOUT_H_

#include <cstdint>

namespace tickbench::model {

// The BSD socket layer's sosend() rule: while bytes remain, a remainder r >= threshold_bytes
// takes one cluster of min(cluster_bytes, r) bytes; a remainder below the threshold goes
// into ceil(r / small_bytes) small buffers. For n = q·C + r (0 <= r < C) that is q
// clusters, plus one more if r >= t, else ceil(r / s) small buffers.
// 4.3BSD: C = 1024 (MCLBYTES), t = 512, s = 112 (MLEN); 4.2BSD and SunOS 3.4: t = C = 1024.
struct BsdBuffers {
  int64_t clusters = 0;
  int64_t small_buffers = 0;
};

// Requires 0 < small_bytes and 0 < threshold_bytes <= cluster_bytes.
BsdBuffers BsdSocketBuffers(int64_t n, int64_t cluster_bytes, int64_t threshold_bytes,
                            int64_t small_bytes);

// ceil(n / chunk_bytes) equal chunks (a TCP segment of one MSS, a page); 0 for n <= 0.
// Requires chunk_bytes > 0.
int64_t FixedChunks(int64_t n, int64_t chunk_bytes);

// Header sizes of a UDP datagram over IPv4 (without IP options).
inline constexpr int64_t kIpv4HeaderBytes = 20;
inline constexpr int64_t kUdpHeaderBytes = 8;
// Fragment offsets count 8-byte units: every fragment but the last carries a multiple of 8.
inline constexpr int64_t kIpv4FragmentUnitBytes = 8;
// The smallest MTU Ipv4UdpPackets accepts: a header and one fragment unit.
inline constexpr int64_t kMinIpv4MtuBytes = kIpv4HeaderBytes + kIpv4FragmentUnitBytes;  // 28

// The largest UDP payload that travels in one IPv4 packet: mtu_bytes − 28 (1472 for an
// Ethernet MTU of 1500). Requires mtu_bytes >= kMinIpv4MtuBytes.
constexpr int64_t MaxUnfragmentedUdpPayload(int64_t mtu_bytes) {
  return mtu_bytes - kIpv4HeaderBytes - kUdpHeaderBytes;
}

// The bytes of IP payload each fragment but the last carries: mtu_bytes − 20 rounded down to
// a multiple of 8 (1480 for MTU 1500, 552 for 576). Requires mtu_bytes >= kMinIpv4MtuBytes.
constexpr int64_t Ipv4FragmentPayloadBytes(int64_t mtu_bytes) {
  return (mtu_bytes - kIpv4HeaderBytes) / kIpv4FragmentUnitBytes * kIpv4FragmentUnitBytes;
}

// IPv4 packets carrying one UDP datagram of n payload bytes over a link of mtu_bytes M, as
// RFC 791 fragments it: the IP payload n + 8 (the UDP header travels in the first fragment)
// is cut into fragments of F = Ipv4FragmentPayloadBytes(M) bytes, the last of which may hold
// up to M − 20. So 1 packet when n <= M − 28, else 1 + ceil((n − (M − 28)) / F); where
// M − 20 is a multiple of 8 (M = 1500: F = 1480) that is ceil((n + 8) / F). At least 1, also
// for n <= 0. Requires M >= kMinIpv4MtuBytes. Not capped at UDP's 65507-byte limit.
int64_t Ipv4UdpPackets(int64_t n, int64_t mtu_bytes);

}  // namespace tickbench::model

#endif  // MODEL_BUFFER_LAYOUT_H_
