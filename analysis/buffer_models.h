// Buffer-allocation models of round-trip time against message size n:
//     RTT(n) = a + b·n + Σ_k c_k · buffers_k(n),
// where buffers_k(n) counts the buffers (or packets) of kind k that a send of n bytes takes
// under a discrete layout rule. The fitting and ranking is in analysis/model_fit.h.
//
// Families and their discrete parameters; the counts are the layout rules of
// model/buffer_layout.h, derived in docs/theory.md ("Buffer layouts"):
//  * kLinear: a + b·n, the baseline; no buffers.
//  * kBsdSocket (cluster_bytes C, threshold_bytes t, small_bytes s): the sosend() rule of the
//    BSD socket layer, model::BsdSocketBuffers: q clusters for n = q·C + r, plus one more if
//    r ≥ t, else ceil(r / s) small buffers. Classic 4.3BSD: C = 1024, t = 512, s = 112; the
//    older 4.2BSD / SunOS 3.4 rule has t = C = 1024. Clusters and small buffers get separate
//    costs c_cluster and c_small: a small mbuf costs an allocation per 112 bytes, a cluster
//    one allocation and a page-sized copy, which 4.3BSD's move to t = 512 shows were far
//    from equal (it paid to copy 512 bytes into a 1024-byte cluster rather than chain 5
//    small mbufs).
//  * kFixedChunks (chunk_bytes C): model::FixedChunks, ceil(n / C) equal chunks, e.g. a TCP
//    MSS or a page.
//  * kIpv4Fragments (mtu_bytes M): model::Ipv4UdpPackets, the IPv4 packets of one UDP
//    datagram with n payload bytes: 1 up to n = M − 28 (1472 B for M = 1500), else
//    1 + ceil((n − (M − 28)) / F) with F = (M − 20) rounded down to a multiple of 8, the
//    last fragment holding up to M − 20. For M = 1500, F = 1480 and that is ceil((n + 8) /
//    1480): 1473..2952 bytes take 2 packets, not the ceil(n / 1472) that a fixed 28-byte
//    header per packet would give, which already says 3 at 2945.
//
// Sizes are counted in whole bytes (rounded to nearest).
#ifndef ANALYSIS_BUFFER_MODELS_H_
#define ANALYSIS_BUFFER_MODELS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "model/buffer_layout.h"

namespace tickbench::analysis {

enum class ModelFamily { kLinear, kBsdSocket, kFixedChunks, kIpv4Fragments };

// The IPv4 and UDP header sizes, for the fits' MTU grids.
using model::kIpv4HeaderBytes;
using model::kUdpHeaderBytes;

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
