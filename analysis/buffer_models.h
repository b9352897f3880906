// Buffer-allocation models of round-trip time against message size n:
//     RTT(n) = a + b·n + Σ_k c_k · buffers_k(n),
// where buffers_k(n) counts the buffers (or packets) of kind k that a send of n bytes takes
// under a discrete layout rule. The fitting and ranking is in analysis/model_fit.h.
//
// Families and their discrete parameters:
//  * kLinear: a + b·n, the baseline; no buffers.
//  * kBsdSocket (cluster_bytes C, threshold_bytes t, small_bytes s): the sosend() rule of the
//    BSD socket layer (THEORY.md C.3): while bytes remain, a remainder r ≥ t takes one cluster
//    of min(C, r) bytes, and a remainder below t is put in ceil(r / s) small buffers. For
//    n = q·C + r (0 ≤ r < C, t ≤ C) that is q clusters plus one more if r ≥ t, else
//    ceil(r / s) small ones. Classic 4.3BSD: C = 1024 (MCLBYTES), t = 512 (CLBYTES/2),
//    s = 112 (MLEN); the older 4.2BSD / SunOS 3.4 rule has t = C = 1024. Clusters and small
//    buffers get separate costs c_cluster and c_small: a small mbuf costs an allocation per
//    112 bytes, a cluster one allocation and a page-sized copy, which 4.3BSD's move to
//    t = 512 shows were far from equal (it paid to copy 512 bytes into a 1024-byte cluster
//    rather than chain 5 small mbufs).
//  * kFixedChunks (chunk_bytes C): ceil(n / C) equal chunks, e.g. a TCP MSS or a page.
//  * kIpv4Fragments (mtu_bytes M): IPv4 packets of one UDP datagram with n payload bytes.
//    The IP payload is n + 8 (UDP header). It fits one packet when n + 8 ≤ M − 20 (IPv4
//    header), i.e. n ≤ M − 28: 1472 B for M = 1500. Otherwise every fragment but the last
//    carries F = (M − 20) rounded down to a multiple of 8 bytes of the IP payload (fragment
//    offsets count 8-byte units), so packets = ceil((n + 8) / F). M = 1500 gives F = 1480:
//    1473..2952 bytes take 2 packets, not the ceil(n / 1472) that a fixed 28-byte header per
//    packet would give (that rule already says 3 at 2945). M = 576 gives F = 552.
//
// Sizes are counted in whole bytes (rounded to nearest).
#ifndef ANALYSIS_BUFFER_MODELS_H_
#define ANALYSIS_BUFFER_MODELS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace tickbench::analysis {

enum class ModelFamily { kLinear, kBsdSocket, kFixedChunks, kIpv4Fragments };

inline constexpr int64_t kUdpHeaderBytes = 8;
inline constexpr int64_t kIpv4HeaderBytes = 20;

struct BsdBuffers {
  int64_t clusters = 0;
  int64_t small_buffers = 0;
};

// The BSD socket-layer layout of an n-byte send. Requires 0 < small_bytes,
// 0 < threshold_bytes ≤ cluster_bytes.
BsdBuffers BsdSocketBuffers(int64_t n, int64_t cluster_bytes, int64_t threshold_bytes,
                            int64_t small_bytes);

// ceil(n / chunk_bytes); 0 for n = 0.
int64_t FixedChunks(int64_t n, int64_t chunk_bytes);

// IPv4 packets carrying a UDP datagram with n payload bytes over a link of mtu_bytes
// (> 28 + 8). Always at least 1.
int64_t Ipv4UdpPackets(int64_t n, int64_t mtu_bytes);

// One member of a family: the family and its discrete parameters (unused ones are 0).
struct BufferModel {
  ModelFamily family = ModelFamily::kLinear;
  int64_t cluster_bytes = 0;    // kBsdSocket: C; kFixedChunks: the chunk size
  int64_t threshold_bytes = 0;  // kBsdSocket: t
  int64_t small_bytes = 0;      // kBsdSocket: s
  int64_t mtu_bytes = 0;        // kIpv4Fragments: M
};

// Number of discrete parameters of the family (0, 3, 1, 1), counted in the BIC.
int DiscreteParameterCount(ModelFamily family);

// The regression columns of the model at the given sizes: 1, n, then one count column per
// buffer kind (clusters and small buffers for kBsdSocket). The costs are in this order.
std::vector<std::vector<double>> DesignColumns(const BufferModel& model,
                                               const std::vector<double>& sizes);

// Names of the costs, in DesignColumns order: "fixed", "per_byte", then "per_cluster" and
// "per_small_buffer", "per_chunk" or "per_packet".
std::vector<std::string> CostNames(ModelFamily family);

// "linear", "bsd_socket", "fixed_chunks", "ipv4_fragments".
const char* FamilyName(ModelFamily family);

// e.g. "bsd_socket(C=1024, t=512, s=112)", "ipv4_fragments(MTU=1500)", "linear".
std::string DescribeModel(const BufferModel& model);

}  // namespace tickbench::analysis

#endif  // ANALYSIS_BUFFER_MODELS_H_
