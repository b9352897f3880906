// Buffer-allocation models of round-trip time against message size n:
//     RTT(n) = a + b·n + Σ_k c_k · buffers_k(n),
// where buffers_k(n) counts the buffers (or packets) of kind k that a send of n bytes takes
// under a discrete layout rule. The fitting and ranking is in analysis/fits/model_fit.h.
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
//  * kBsdFragments (C, t, s, M): both mechanisms at once, as a UDP datagram meets them: the
//    socket layer's clusters and small buffers, then IPv4 fragments; three count columns.
//  * kChunksFragments (chunk C, M): fixed chunks and IPv4 fragments; two count columns.
//  * kSegmented (cut_sizes x_1 < ... < x_m): the step detector's segmented fit as a model:
//    a separate line on each segment, written as a + b·n + Σ_j (d_j·[n ≥ x_j] +
//    e_j·(n − x_j)·[n ≥ x_j]): d_j is the jump at x_j, e_j the change of slope. Its costs
//    may take either sign. The cut positions are its discrete parameters.
//  * kExcursion (excursion_sizes: one size, or two neighbouring ones): the line, and one
//    offset g at those sizes only, a + b·n + g·[n is one of them]: a dip or a bump too
//    short for the step detector's segments of at least 3 sizes (a 15 % throughput dip at
//    one size of 11). g takes either sign. It counts 3 discrete parameters: the position, the
//    width (1 or 2 sizes), and one for the search over 2(n − 2) candidates (at 2, a straight
//    11-size table of 4 runs at 1 % noise was called an excursion in 1 of 50 seeds, and
//    tests/closed_loop/one_size_dip_test holds the rate under 7 % at 400 seeds of 11 single
//    values). The fits try every position but the first and last size.
//
// Sizes are counted in whole bytes (rounded to nearest).
#ifndef ANALYSIS_BUFFER_MODELS_H_
#define ANALYSIS_BUFFER_MODELS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "model/buffer_layout.h"

namespace tickbench::analysis {

enum class ModelFamily {
  kLinear,
  kBsdSocket,
  kFixedChunks,
  kIpv4Fragments,
  kBsdFragments,
  kChunksFragments,
  kSegmented,
  kExcursion,
};

// Every family, in enum order.
inline constexpr ModelFamily kAllModelFamilies[] = {
    ModelFamily::kLinear,        ModelFamily::kBsdSocket,    ModelFamily::kFixedChunks,
    ModelFamily::kIpv4Fragments, ModelFamily::kBsdFragments, ModelFamily::kChunksFragments,
    ModelFamily::kSegmented,     ModelFamily::kExcursion};

// True when every count column of `part` is also one of `whole` (a BSD layout is part of
// BSD + fragments): a whole that fits no better than its part only adds parameters.
bool FamilyContains(ModelFamily whole, ModelFamily part);

// The IPv4 and UDP header sizes, for the fits' MTU grids.
using model::kIpv4HeaderBytes;
using model::kUdpHeaderBytes;

// One member of a family: the family and its discrete parameters (unused ones are 0).
struct BufferModel {
  ModelFamily family = ModelFamily::kLinear;
  int64_t cluster_bytes = 0;            // kBsdSocket, kBsdFragments: C; k*Chunks*: the chunk size
  int64_t threshold_bytes = 0;          // kBsdSocket, kBsdFragments: t
  int64_t small_bytes = 0;              // kBsdSocket, kBsdFragments: s
  int64_t mtu_bytes = 0;                // kIpv4Fragments, kBsdFragments, kChunksFragments: M
  std::vector<double> cut_sizes;        // kSegmented: the first size of every segment but the first
  std::vector<double> excursion_sizes;  // kExcursion: the sizes off the line, increasing
};

// Number of discrete parameters of the family (0, 3, 1, 1, 4, 2, -, 3), counted in the BIC; for
// kSegmented, DiscreteParameterCount(model) counts its cuts.
int DiscreteParameterCount(ModelFamily family);
int DiscreteParameterCount(const BufferModel& model);

// True for the columns of DesignColumns(model) from index 2 on that are buffer or packet
// counts (their costs are not negative) or, for kSegmented, jumps; false for kSegmented's
// slope changes. A step of the fitted curve between two sizes is the change of these
// columns times their costs.
std::vector<bool> StepColumns(const BufferModel& model);

// The regression columns of the model at the given sizes: 1, n, then one count column per
// buffer kind (clusters and small buffers for kBsdSocket; clusters, small buffers and
// packets for kBsdFragments; chunks and packets for kChunksFragments), or for kSegmented a
// jump and a slope-change column per cut, or for kExcursion the indicator of its sizes. The
// costs are in this order.
std::vector<std::vector<double>> DesignColumns(const BufferModel& model,
                                               const std::vector<double>& sizes);

// Names of the costs, in DesignColumns order: "fixed", "per_byte", then "per_cluster" and
// "per_small_buffer", "per_chunk" or "per_packet" (both kinds' names for the combined
// families). kSegmented's per-cut names need the model: CostNames(model), "jump_at_1536",
// "slope_change_at_1536"; kExcursion's "excursion_at_1536" ("excursion_at_1536_2048").
std::vector<std::string> CostNames(ModelFamily family);
std::vector<std::string> CostNames(const BufferModel& model);

// "linear", "bsd_socket", "fixed_chunks", "ipv4_fragments", "bsd_socket+ipv4_fragments",
// "fixed_chunks+ipv4_fragments", "segmented", "excursion".
const char* FamilyName(ModelFamily family);

// e.g. "bsd_socket(C=1024, t=512, s=112)", "ipv4_fragments(MTU=1500)", "linear",
// "bsd_socket+ipv4_fragments(C=1024, t=512, s=112, MTU=1500)", "segmented(cuts at 1536)",
// "excursion(at 1536)", "excursion(at 1536, 2048)".
std::string DescribeModel(const BufferModel& model);

// How many of the model's sizes (C, s, MTU, cuts excepted) lie off the physically plausible
// grid: powers of two, the classic mbuf sizes 112, 128, 256, 512, 1024, 2048, 4096, the
// common MTUs 576, 1280, 1500, 9000 and, for a chunk, an MTU less 28 (a UDP payload) or
// less 40 (a TCP MSS). t counts as plausible when it is C, C/2 or C/4. Among fits that tie
// (within ΔBIC 2) the most plausible is reported.
int ImplausibleSizes(const BufferModel& model);
bool PlausibleBufferSize(int64_t bytes);
bool PlausibleMtu(int64_t bytes);

}  // namespace tickbench::analysis

#endif  // ANALYSIS_BUFFER_MODELS_H_
