// The round-trip time of the simulated transport, as a model with known parameters, so
// that a sweep's steps and a study's statistics have an exact truth to be held against.
//
//   RTT(n) = fixed + per_byte * n + 2 * (per_cluster * clusters(n) + per_small * smalls(n))
//            + 2 * (per_packet * packets(n) + 8 * wire_bytes(n) / link_rate) + jitter
//
// The link (mtu_bytes > 0) carries the message as one UDP datagram over IPv4: packets(n) =
// model::Ipv4UdpPackets(n, mtu) (fragments past MTU − 28 bytes, RFC 791), and every packet
// pays its 20-byte IP header on the wire, the first also the 8-byte UDP header:
// wire_bytes(n) = n + 8 + 20 * packets(n), sent at link_rate_bps bits per second (0: an
// infinitely fast link, no wire time). Each direction pays once, hence the 2. Without an MTU
// there is no link term.
//
// The buffer term is the classic BSD socket layer's (4.3BSD sosend(), SunOS): while data
// remains, a remainder of at least `threshold_bytes` takes one cluster of
// min(cluster_bytes, remainder) bytes, otherwise small buffers of `small_bytes` take the
// rest. 4.3BSD: cluster 1024, threshold 512, small 112 (MLEN); the older rule used
// threshold = cluster. A round trip lays the message out twice (the send and the echo).
// The layout is model::BsdSocketBuffers (model/buffer_layout.h), the same rule the fitter
// searches, so that a simulated sweep can be fitted back to its own parameters.
#ifndef TRANSPORT_SIM_RTT_MODEL_H_
#define TRANSPORT_SIM_RTT_MODEL_H_

#include <cstdint>
#include <random>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace tickbench::transport {

enum class JitterKind { kNone, kUniform, kNormal, kExponential };

// "none", "uniform", "normal", "exponential"; InvalidArgument names them.
absl::Status ParseJitterKind(absl::string_view text, JitterKind* kind);

struct SimRttModel {
  absl::Duration fixed = absl::Microseconds(20);
  double per_byte_ns = 0.05;  // per byte of the message, for the whole round trip
  bool bsd_buffers = false;
  int64_t cluster_bytes = 1024;
  int64_t threshold_bytes = 512;
  int64_t small_bytes = 112;
  absl::Duration per_cluster = absl::Microseconds(2);
  absl::Duration per_small = absl::Microseconds(1);
  int64_t mtu_bytes = 0;      // 0: no link; else kMinSimMtuBytes..kMaxSimBufferBytes
  double link_rate_bps = 0;   // bits per second; 0: no wire time
  absl::Duration per_packet;  // per IPv4 packet, each direction
  // kUniform: U[0, 2 * scale); kNormal: N(0, scale) clipped so the RTT stays >= 1 ns;
  // kExponential: Exp(mean = scale). Uniform and exponential add scale on average.
  JitterKind jitter = JitterKind::kNone;
  absl::Duration jitter_scale = absl::Microseconds(1);
  uint64_t seed = 1;
};

// The model's ranges, which keep one round trip (and its sum over a run) exact in int64
// nanoseconds: durations and per_byte_ns finite and not negative, at most these; buffer
// sizes 1..kMaxSimBufferBytes, the threshold at most the cluster.
inline constexpr absl::Duration kMaxSimFixed = absl::Hours(1);
inline constexpr double kMaxSimPerByteNs = 1e6;  // 1 ms per byte
inline constexpr absl::Duration kMaxSimPerBuffer = absl::Seconds(1);
inline constexpr absl::Duration kMaxSimJitterScale = absl::Seconds(1);
inline constexpr int64_t kMaxSimBufferBytes = int64_t{1} << 20;
inline constexpr int64_t kMinSimMtuBytes = 68;  // the least every IPv4 link carries (RFC 791)
inline constexpr double kMinSimLinkRateBps = 1e3;
inline constexpr double kMaxSimLinkRateBps = 1e13;

// InvalidArgument for a value outside the ranges above (NaN and infinities included),
// naming the model's field; also for link_rate_bps or per_packet without an MTU.
absl::Status ValidateSimRttModel(const SimRttModel& model);

// An upper bound on one round trip of `size_bytes` drawn from a valid model, jitter
// included (normal and exponential jitter are bounded at 50 scales, a draw beyond which
// has probability below 1e-20), in ns.
double MaxRttNanos(const SimRttModel& model, int64_t size_bytes);

// The model's RTT for n bytes without jitter, in ns.
int64_t ModelRttNanos(const SimRttModel& model, int64_t size_bytes);

// Draws jittered RTTs from the model; the same seed gives the same sequence.
class SimRttSampler {
 public:
  explicit SimRttSampler(const SimRttModel& model);
  int64_t NextRttNanos(int64_t size_bytes);

 private:
  SimRttModel model_;
  std::mt19937_64 random_;
};

}  // namespace tickbench::transport

#endif  // TRANSPORT_SIM_RTT_MODEL_H_
