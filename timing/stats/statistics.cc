#include "timing/stats/statistics.h"

#include <algorithm>
#include <cmath>

namespace tickbench::timing {

double QuantileOfSorted(absl::Span<const double> sorted, double q) {
  if (sorted.empty()) return 0;
  const double position = q * static_cast<double>(sorted.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  const double weight = position - static_cast<double>(below);
  return sorted[below] + weight * (sorted[above] - sorted[below]);
}

Summary Summarize(absl::Span<const double> values) {
  Summary summary;
  if (values.empty()) return summary;
  RunningStats stats;
  int64_t zeros = 0;
  for (double value : values) {
    stats.Add(value);
    if (value == 0) ++zeros;
  }
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  summary.count = stats.count();
  summary.mean = stats.mean();
  summary.sd = stats.sd();
  summary.min = sorted.front();
  summary.max = sorted.back();
  summary.p1 = QuantileOfSorted(sorted, 0.01);
  summary.p50 = QuantileOfSorted(sorted, 0.5);
  summary.p90 = QuantileOfSorted(sorted, 0.9);
  summary.p99 = QuantileOfSorted(sorted, 0.99);
  summary.zero_fraction = static_cast<double>(zeros) / static_cast<double>(stats.count());
  return summary;
}

void StreamingSummary::Clear() {
  stats_ = RunningStats();
  histogram_.Clear();
  zeros_ = 0;
}

Summary StreamingSummary::ToSummary() const {
  Summary summary;
  if (stats_.count() == 0) return summary;
  summary.count = stats_.count();
  summary.mean = stats_.mean();
  summary.sd = stats_.sd();
  summary.min = stats_.min();
  summary.max = stats_.max();
  summary.p1 = histogram_.Percentile(0.01);
  summary.p50 = histogram_.Percentile(0.5);
  summary.p90 = histogram_.Percentile(0.9);
  summary.p99 = histogram_.Percentile(0.99);
  summary.zero_fraction = static_cast<double>(zeros_) / static_cast<double>(stats_.count());
  return summary;
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return QuantileOfSorted(values, 0.5);
}

}  // namespace tickbench::timing
