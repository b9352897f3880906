#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analysis/fits/model_fit.h"
#include "analysis/fits/model_screen.h"
#include "analysis/models/buffer_models.h"
#include "analysis/sweep.h"

// DescribeRanges, ImpliedSteps and RttFromThroughput (declared in analysis/fits/model_fit.h): what
// a fit says beyond its figures, and the sweep a throughput sweep implies.

namespace tickbench::analysis {

namespace {

// The model's value of the range's parameter (0 for none).
int64_t ReportedValue(const BufferModel& model, const std::string& name) {
  if (name == "C" || name == "chunk") return model.cluster_bytes;
  if (name == "t") return model.threshold_bytes;
  if (name == "s") return model.small_bytes;
  if (name == "MTU") return model.mtu_bytes;
  return 0;
}

// A fine profile's range: its spans, or "not determined by the data".
std::string DescribeProfiled(const ParameterRange& range, int64_t reported) {
  constexpr size_t kMaxSpans = 6;
  if (!range.determined) {
    return absl::StrFormat("%s not determined by the data (%.0f%% of %d–%d fits)", range.name,
                           100 * range.share, range.grid_low, range.grid_high);
  }
  if (range.spans.empty()) return absl::StrFormat("%s: none fits", range.name);
  if (range.spans.size() == 1 && range.low == range.high) {
    return absl::StrFormat("%s=%d", range.name, range.low);
  }
  std::vector<std::string> spans;
  bool holds_reported = false;
  for (const ParameterSpan& span : range.spans) {
    holds_reported = holds_reported || (span.low <= reported && reported <= span.high);
    if (spans.size() == kMaxSpans) continue;
    spans.push_back(span.low == span.high ? absl::StrCat(span.low)
                                          : absl::StrFormat("%d–%d", span.low, span.high));
  }
  std::string text = absl::StrFormat("%s in %s", range.name, absl::StrJoin(spans, ", "));
  if (range.spans.size() > kMaxSpans) {
    absl::StrAppendFormat(&text, " and %d more spans", range.spans.size() - kMaxSpans);
  }
  if (!holds_reported) absl::StrAppendFormat(&text, ", not the reported %d", reported);
  return text;
}

}  // namespace

std::string DescribeRanges(const FamilyFit& fit) {
  std::vector<std::string> parts;
  for (const ParameterRange& range : fit.ranges) {
    if (range.profiled) {
      parts.push_back(DescribeProfiled(range, ReportedValue(fit.model, range.name)));
    } else if (range.low == range.high) {
      parts.push_back(absl::StrFormat("%s=%d", range.name, range.low));
    } else if (range.values.size() <= 4) {
      parts.push_back(absl::StrFormat("%s in {%s}", range.name, absl::StrJoin(range.values, ", ")));
    } else {
      parts.push_back(absl::StrFormat("%s in [%d, %d]", range.name, range.low, range.high));
    }
  }
  return absl::StrJoin(parts, ", ");
}

std::vector<ImpliedStep> ImpliedSteps(const Sweep& sweep, const FamilyFit& fit,
                                      double z_threshold) {
  std::vector<ImpliedStep> steps;
  if (!fit.fitted || fit.model.family == ModelFamily::kLinear) return steps;
  const std::vector<double> sizes = Sizes(sweep);
  const std::vector<std::vector<double>> columns = DesignColumns(fit.model, sizes);
  const std::vector<bool> step_columns = StepColumns(fit.model);
  const size_t q = fit.costs.size();
  if (columns.size() != q || fit.cost_covariance.size() != q * q) return steps;
  for (size_t i = 0; i + 1 < sizes.size(); ++i) {
    std::vector<double> d(q, 0);
    double jump = 0;
    for (size_t k = 2; k < q; ++k) {
      if (!step_columns[k - 2]) continue;
      d[k] = columns[k][i + 1] - columns[k][i];
      jump += fit.costs[k] * d[k];
    }
    if (jump == 0) continue;
    double variance = 0;
    for (size_t a = 0; a < q; ++a) {
      for (size_t b = 0; b < q; ++b) variance += d[a] * fit.cost_covariance[a * q + b] * d[b];
    }
    const double stderr_ = std::sqrt(std::max(variance, 0.0));
    if (!(std::fabs(jump) >= z_threshold * stderr_)) continue;
    steps.push_back({sizes[i], sizes[i + 1], static_cast<int>(i + 1), jump, stderr_});
  }
  return steps;
}

absl::StatusOr<Sweep> RttFromThroughput(const Sweep& throughput) {
  if (absl::Status valid = ValidateSweep(throughput); !valid.ok()) return valid;
  Sweep rtt;
  rtt.value_name = "implied_rtt_ns";
  rtt.unit = "ns";
  for (const SweepPoint& point : throughput.points) {
    if (point.size_bytes <= 0) {
      return absl::InvalidArgumentError("a throughput at size 0 implies no round-trip time");
    }
    SweepPoint converted;
    converted.size_bytes = point.size_bytes;
    for (double bytes_per_second : point.values) {
      if (!(bytes_per_second > 0)) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "throughput %g at size %g: must be positive", bytes_per_second, point.size_bytes));
      }
      // 2n bytes (the message and its echo) per round trip.
      converted.values.push_back(2 * point.size_bytes / bytes_per_second * 1e9);
      // A throughput x written to ±r is a time 2n/x written to +2n·r/(x·(x − r)) and
      // −2n·r/(x·(x + r)): the larger side (first order RTT·r/x), at most where x is
      // within r of 0 (not for a printed positive x, which is at least 2r).
      const double r = point.resolution;
      if (r > 0 && std::isfinite(r)) {
        const double below = std::max(bytes_per_second - r, bytes_per_second / 2);
        converted.resolution = std::max(
            converted.resolution, 2 * point.size_bytes * r / (bytes_per_second * below) * 1e9);
      }
    }
    rtt.points.push_back(std::move(converted));
  }
  if (absl::Status valid = ValidateSweep(rtt); !valid.ok()) {  // a time past the range
    return absl::InvalidArgumentError(
        absl::StrCat("the round-trip times the throughputs imply: ", valid.message()));
  }
  return rtt;
}

// FamilyFit::cost_rounding_bounds: each cost's most movement when every mean moves by up to
// its resolution, from the rows of (XᵀWX)⁻¹XᵀW (`covariance` is (XᵀWX)⁻¹).
namespace model_fit_internal {

std::vector<double> RoundingBounds(const BufferModel& model, const std::vector<double>& covariance,
                                   const Inputs& in) {
  const size_t costs = static_cast<size_t>(std::sqrt(static_cast<double>(covariance.size())));
  if (std::none_of(in.resolutions.begin(), in.resolutions.end(), [](double r) { return r > 0; })) {
    return {};
  }
  const std::vector<std::vector<double>> columns = DesignColumns(model, in.sizes);
  std::vector<double> bounds(costs, 0);
  for (size_t j = 0; j < costs; ++j) {
    for (size_t i = 0; i < in.sizes.size() && i < in.resolutions.size(); ++i) {
      double weight = 0;  // row j of (XᵀWX)⁻¹XᵀW at mean i
      for (size_t k = 0; k < costs && k < columns.size(); ++k) {
        if (i < columns[k].size()) weight += covariance[j * costs + k] * columns[k][i];
      }
      bounds[j] += std::abs(weight * in.weights[i]) * in.resolutions[i];
    }
  }
  return bounds;
}

}  // namespace model_fit_internal

}  // namespace tickbench::analysis
