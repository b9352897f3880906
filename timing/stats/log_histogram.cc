#include "timing/stats/log_histogram.h"

#include <algorithm>
#include <cmath>

namespace tickbench::timing {

LogHistogram::LogHistogram() : counts_(2 * kMagnitudeBuckets + 1, 0) {}

void LogHistogram::Clear() {
  std::fill(counts_.begin(), counts_.end(), 0);
  count_ = 0;
  min_ = std::numeric_limits<double>::infinity();
  max_ = -std::numeric_limits<double>::infinity();
}

double LogHistogram::Midpoint(int index) {
  if (index == kZeroIndex) return 0;
  const bool negative = index < kZeroIndex;
  const int magnitude_index = negative ? kZeroIndex - 1 - index : index - kZeroIndex - 1;
  const int exponent = magnitude_index / kSubBuckets + kMinExponent;
  const int sub_bucket = magnitude_index % kSubBuckets;
  const double midpoint = std::ldexp(1.0 + (sub_bucket + 0.5) / kSubBuckets, exponent);
  return negative ? -midpoint : midpoint;
}

double LogHistogram::ValueAtRank(int64_t rank) const {
  // The extremes are known exactly; any other rank is its bucket's midpoint.
  if (rank <= 0) return min_;
  if (rank >= count_ - 1) return max_;
  int64_t seen = 0;
  for (int index = 0; index < static_cast<int>(counts_.size()); ++index) {
    seen += counts_[index];
    if (seen > rank) return std::clamp(Midpoint(index), min_, max_);
  }
  return max_;
}

double LogHistogram::Percentile(double q) const {
  if (count_ == 0) return 0;
  const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(count_ - 1);
  const int64_t below = static_cast<int64_t>(std::floor(position));
  const int64_t above = std::min(below + 1, count_ - 1);
  const double weight = position - static_cast<double>(below);
  const double low = ValueAtRank(below);
  return weight == 0 ? low : low + weight * (ValueAtRank(above) - low);
}

}  // namespace tickbench::timing
