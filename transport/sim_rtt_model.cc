#include "transport/sim_rtt_model.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "analysis/buffer_models.h"

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
  if (m.fixed < absl::ZeroDuration() || m.per_byte_ns < 0 || m.per_cluster < absl::ZeroDuration() ||
      m.per_small < absl::ZeroDuration() || m.jitter_scale < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("simulated costs must not be negative");
  }
  if (m.cluster_bytes < 1 || m.small_bytes < 1 || m.threshold_bytes < 1 ||
      m.threshold_bytes > m.cluster_bytes) {
    return absl::InvalidArgumentError(
        "simulated buffer sizes must be at least 1 byte, and the threshold at most the cluster");
  }
  return absl::OkStatus();
}

int64_t ModelRttNanos(const SimRttModel& m, int64_t size_bytes) {
  double rtt = absl::ToDoubleNanoseconds(m.fixed) + m.per_byte_ns * static_cast<double>(size_bytes);
  if (m.bsd_buffers) {
    const analysis::BsdBuffers layout =
        analysis::BsdSocketBuffers(size_bytes, m.cluster_bytes, m.threshold_bytes, m.small_bytes);
    rtt += 2 * (absl::ToDoubleNanoseconds(m.per_cluster) * layout.clusters +
                absl::ToDoubleNanoseconds(m.per_small) * layout.small_buffers);
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
