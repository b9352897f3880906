#include "timing/stats/run_groups.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <vector>

namespace tickbench::timing {

int SmallestGroup(int runs) { return std::max(2, (runs + 4) / 5); }

namespace {

// The best split of sorted `x` (RunGroups above): the statistic and the lower group's size.
std::pair<double, int> BestSplit(const std::vector<double>& x, double sd_floor) {
  const int k = static_cast<int>(x.size());
  double centre = 0;
  for (double v : x) centre += v;
  centre /= k;
  std::vector<double> sum(k + 1, 0), sum_sq(k + 1, 0);  // prefix sums of x - centre
  for (int i = 0; i < k; ++i) {
    const double d = x[i] - centre;
    sum[i + 1] = sum[i] + d;
    sum_sq[i + 1] = sum_sq[i] + d * d;
  }
  double best = -std::numeric_limits<double>::infinity();
  const int smallest = SmallestGroup(k);
  int best_j = smallest;
  for (int j = smallest; j <= k - smallest; ++j) {
    const double n_low = j, n_high = k - j;
    const double s_low = sum[j], s_high = sum[k] - sum[j];
    const double ss = std::max(0.0, (sum_sq[j] - s_low * s_low / n_low) +
                                        (sum_sq[k] - sum_sq[j] - s_high * s_high / n_high));
    const double sd = std::max(std::sqrt(ss / (k - 2)), sd_floor);
    const double gap = s_high / n_high - s_low / n_low;
    const double g = sd > 0 ? gap / (sd * std::sqrt(1 / n_low + 1 / n_high))
                            : (gap > 0 ? std::numeric_limits<double>::infinity() : 0);
    if (g > best) {
      best = g;
      best_j = j;
    }
  }
  return {best, best_j};
}

// kGroupNullSamples values of G for k independent standard normal values, sorted; from a
// fixed seed, computed once per k.
const std::vector<double>& NullStatistics(int k) {
  static std::mutex mutex;
  static auto* cache = new std::map<int, std::vector<double>>;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = cache->try_emplace(k);
  if (!inserted) return it->second;
  std::mt19937_64 bits(0x9e3779b97f4a7c15ull + static_cast<uint64_t>(k));
  auto uniform = [&bits] { return (static_cast<double>(bits() >> 11) + 0.5) * 0x1.0p-53; };
  std::vector<double> x(k);
  it->second.reserve(kGroupNullSamples);
  for (int s = 0; s < kGroupNullSamples; ++s) {
    for (double& v : x) v = NormalQuantile(uniform());
    std::sort(x.begin(), x.end());
    it->second.push_back(BestSplit(x, 0).first);
  }
  std::sort(it->second.begin(), it->second.end());
  return it->second;
}

RunGroups::Group GroupOf(const std::vector<double>& x, int from, int to) {
  RunGroups::Group g;
  g.runs = to - from;
  g.min = x[from];
  g.max = x[to - 1];
  for (int i = from; i < to; ++i) g.mean += x[i];
  g.mean /= g.runs;
  return g;
}

}  // namespace

RunGroups TestRunGroups(absl::Span<const double> values, double quantum, double level) {
  RunGroups groups;
  std::vector<double> x;
  for (double v : values)
    if (std::isfinite(v)) x.push_back(v);
  const int k = static_cast<int>(x.size());
  if (k < kMinRunsForGroups) return groups;
  std::sort(x.begin(), x.end());
  const auto [statistic, split] = BestSplit(x, QuantizedSdFloor(quantum, k));
  const std::vector<double>& null = NullStatistics(k);
  const auto at_least = null.end() - std::lower_bound(null.begin(), null.end(), statistic);
  groups.tested = true;
  groups.statistic = statistic;
  groups.p_value = (1.0 + static_cast<double>(at_least)) / (1.0 + null.size());
  groups.grouped = groups.p_value < level;
  groups.low = GroupOf(x, 0, split);
  groups.high = GroupOf(x, split, k);
  return groups;
}

ConfidenceInterval LogScaleInterval(double estimate, double standard_error,
                                    double degrees_of_freedom, double confidence) {
  ConfidenceInterval ci;
  ci.estimate = estimate;
  ci.standard_error = standard_error;
  ci.degrees_of_freedom = degrees_of_freedom;
  if (!(estimate > 0) || !std::isfinite(estimate) || !(standard_error >= 0) ||
      !std::isfinite(standard_error) || !(degrees_of_freedom > 0)) {
    ci.low = ci.high = estimate;
    return ci;
  }
  const double t = StudentTQuantile((1 + confidence) / 2, degrees_of_freedom);
  const double factor = std::exp(t * standard_error / estimate);
  ci.low = estimate / factor;
  ci.high = estimate * factor;
  ci.valid = true;
  return ci;
}

ConfidenceInterval RateInterval(const ConfidenceInterval& interval, double numerator) {
  ConfidenceInterval ci;
  const bool ok = interval.estimate > 0 && numerator > 0;
  ci.estimate = ok ? numerator / interval.estimate : std::numeric_limits<double>::quiet_NaN();
  ci.low = ci.high = ci.estimate;
  if (!ok || !interval.valid || !(interval.low > 0)) return ci;
  ci.low = numerator / interval.high;
  ci.high = numerator / interval.low;
  ci.standard_error = ci.estimate * interval.standard_error / interval.estimate;
  ci.degrees_of_freedom = interval.degrees_of_freedom;
  ci.floored = interval.floored;
  ci.valid = true;
  return ci;
}

double IntervalFactor(const ConfidenceInterval& interval) {
  return interval.valid && interval.estimate > 0 ? interval.high / interval.estimate : 1;
}

}  // namespace tickbench::timing
