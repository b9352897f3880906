#include "transport/sim/sim_rtt_model.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "model/buffer_layout.h"

namespace tickbench::transport {

absl::Status ParseJitterKind(absl::string_view text, JitterKind* kind) {
  if (text == "none") {
    *kind = JitterKind::kNone;
  } else if (text == "uniform") {
    *kind = JitterKind::kUniform;
  } else if (text == "normal") {
    *kind = JitterKind::kNormal;
  } else if (text == "exponential") {
    *kind = JitterKind::kExponential;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown jitter '", text, "'; allowed: none, uniform, normal, exponential"));
  }
  return absl::OkStatus();
}

absl::Status ValidateSimRttModel(const SimRttModel& m) {
  auto duration = [](absl::string_view name, absl::Duration value,
                     absl::Duration max) -> absl::Status {
    if (value < absl::ZeroDuration() || value > max) {
      return absl::InvalidArgumentError(absl::StrCat(name, " must be in [0, ",
                                                     absl::FormatDuration(max), "]; got ",
                                                     absl::FormatDuration(value)));
    }
    return absl::OkStatus();
  };
  for (const absl::Status& s : {duration("fixed", m.fixed, kMaxSimFixed),
                                duration("per_cluster", m.per_cluster, kMaxSimPerBuffer),
                                duration("per_small", m.per_small, kMaxSimPerBuffer),
                                duration("per_packet", m.per_packet, kMaxSimPerBuffer),
                                duration("jitter_scale", m.jitter_scale, kMaxSimJitterScale)}) {
    if (!s.ok()) return s;
  }
  if (!(m.per_byte_ns >= 0 && m.per_byte_ns <= kMaxSimPerByteNs)) {  // NaN fails both
    return absl::InvalidArgumentError(absl::StrCat("per_byte_ns must be a finite number in [0, ",
                                                   kMaxSimPerByteNs, "]; got ", m.per_byte_ns));
  }
  for (const auto& [name, bytes] :
       {std::pair<absl::string_view, int64_t>{"cluster_bytes", m.cluster_bytes},
        {"small_bytes", m.small_bytes},
        {"threshold_bytes", m.threshold_bytes}}) {
    if (bytes < 1 || bytes > kMaxSimBufferBytes) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, " must be in [1, ", kMaxSimBufferBytes, "]; got ", bytes));
    }
  }
  if (m.mtu_bytes != 0 && (m.mtu_bytes < kMinSimMtuBytes || m.mtu_bytes > kMaxSimBufferBytes)) {
    return absl::InvalidArgumentError(absl::StrCat("mtu_bytes must be 0 (no link) or in [",
                                                   kMinSimMtuBytes, ", ", kMaxSimBufferBytes,
                                                   "]; got ", m.mtu_bytes));
  }
  if (m.link_rate_bps != 0 &&
      !(m.link_rate_bps >= kMinSimLinkRateBps && m.link_rate_bps <= kMaxSimLinkRateBps)) {
    return absl::InvalidArgumentError(absl::StrCat("link_rate_bps must be 0 (no wire time) or in [",
                                                   kMinSimLinkRateBps, ", ", kMaxSimLinkRateBps,
                                                   "]; got ", m.link_rate_bps));
  }
  if (m.mtu_bytes == 0 && (m.link_rate_bps != 0 || m.per_packet != absl::ZeroDuration())) {
    return absl::InvalidArgumentError("link_rate_bps and per_packet need an mtu_bytes");
  }
  if (m.threshold_bytes > m.cluster_bytes) {
    return absl::InvalidArgumentError(absl::StrCat("threshold_bytes (", m.threshold_bytes,
                                                   ") must be at most cluster_bytes (",
                                                   m.cluster_bytes, ")"));
  }
  return absl::OkStatus();
}

double MaxRttNanos(const SimRttModel& m, int64_t size_bytes) {
  const double scale = absl::ToDoubleNanoseconds(m.jitter_scale);
  double jitter = 0;
  switch (m.jitter) {
    case JitterKind::kNone:
      break;
    case JitterKind::kUniform:
      jitter = 2 * scale;
      break;
    case JitterKind::kNormal:
    case JitterKind::kExponential:
      jitter = 50 * scale;
      break;
  }
  return static_cast<double>(ModelRttNanos(m, size_bytes)) + jitter;
}

int64_t ModelRttNanos(const SimRttModel& m, int64_t size_bytes) {
  double rtt = absl::ToDoubleNanoseconds(m.fixed) + m.per_byte_ns * static_cast<double>(size_bytes);
  if (m.bsd_buffers) {
    const model::BsdBuffers layout =
        model::BsdSocketBuffers(size_bytes, m.cluster_bytes, m.threshold_bytes, m.small_bytes);
    rtt += 2 * (absl::ToDoubleNanoseconds(m.per_cluster) * layout.clusters +
                absl::ToDoubleNanoseconds(m.per_small) * layout.small_buffers);
  }
  if (m.mtu_bytes > 0) {
    const int64_t packets = model::Ipv4UdpPackets(size_bytes, m.mtu_bytes);
    rtt += 2 * absl::ToDoubleNanoseconds(m.per_packet) * static_cast<double>(packets);
    if (m.link_rate_bps > 0) {
      const double wire_bytes = static_cast<double>(std::max<int64_t>(size_bytes, 0)) +
                                model::kUdpHeaderBytes +
                                static_cast<double>(model::kIpv4HeaderBytes * packets);
      rtt += 2 * 8 * wire_bytes / m.link_rate_bps * 1e9;
    }
  }
  return std::max<int64_t>(1, std::llround(rtt));
}

SimRttSampler::SimRttSampler(const SimRttModel& model) : model_(model), random_(model.seed) {}

int64_t SimRttSampler::NextRttNanos(int64_t size_bytes) {
  const int64_t base = ModelRttNanos(model_, size_bytes);
  const double scale = absl::ToDoubleNanoseconds(model_.jitter_scale);
  double jitter = 0;
  switch (model_.jitter) {
    case JitterKind::kNone:
      break;
    case JitterKind::kUniform:
      jitter = std::uniform_real_distribution<double>(0, 2 * scale)(random_);
      break;
    case JitterKind::kNormal:
      jitter = std::normal_distribution<double>(0, scale)(random_);
      break;
    case JitterKind::kExponential:
      jitter = std::exponential_distribution<double>(1 / std::max(scale, 1e-9))(random_);
      break;
  }
  return std::max<int64_t>(1, base + std::llround(jitter));
}

}  // namespace tickbench::transport
