// A histogram of doubles with log-linear buckets (HdrHistogram's layout): every power of
// two is cut into 2^7 = 128 equal sub-buckets, so memory is fixed (128 KiB) however many
// values are added, and any percentile is known to a fixed relative precision.
//
// Precision. A value v with 2^kMinExponent <= |v| < 2^(kMaxExponent + 1) falls in a
// bucket [lo, lo + lo_pow2 / 128) whose midpoint is within 1/256 of v (|mid - v| <=
// 2^-8 |v|, 0.39%). Exactly 0 has a bucket of its own (a coarse clock's empty reads must
// stay exactly 0). Magnitudes outside the range go to the outermost bucket of their sign
// and lose that bound; in nanoseconds the range is about 1e-6 ns to 4.9 hours. count(),
// min() and max() are exact.
//
// Percentile(q) interpolates between the two ranked values around q * (count - 1), as
// Hyndman & Fan type 7 (QuantileOfSorted) does, with each ranked value replaced by its
// bucket's midpoint clamped to [min, max] (the first and last ranks are min and max
// themselves). So it differs from the exact type-7 quantile of the same values by at most
// 2^-8 times the larger magnitude of those two values.
#ifndef TIMING_LOG_HISTOGRAM_H_
#define TIMING_LOG_HISTOGRAM_H_

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace tickbench::timing {

class LogHistogram {
 public:
  static constexpr int kSubBucketBits = 7;
  static constexpr int kSubBuckets = 1 << kSubBucketBits;
  // Smallest and largest binary exponent kept at full precision: 2^-20 ns ~ 1e-6 ns,
  // 2^44 ns ~ 4.9 hours.
  static constexpr int kMinExponent = -20;
  static constexpr int kMaxExponent = 43;
  // Largest |bucket midpoint - value| / |value| inside the range.
  static constexpr double kRelativePrecision = 1.0 / (2 * kSubBuckets);

  LogHistogram();

  void Add(double value) {
    ++count_;
    if (value < min_) min_ = value;
    if (value > max_) max_ = value;
    ++counts_[IndexOf(value)];
  }
  // Forgets every value; keeps the buckets' memory.
  void Clear();

  int64_t count() const { return count_; }
  double min() const { return count_ > 0 ? min_ : 0; }
  double max() const { return count_ > 0 ? max_ : 0; }
  // The q-quantile (0 <= q <= 1), within the precision above; 0 when empty.
  double Percentile(double q) const;

 private:
  static constexpr int kMagnitudeBuckets = (kMaxExponent - kMinExponent + 1) * kSubBuckets;
  // counts_: negative values (largest magnitude first), then 0, then positive values, so
  // that the buckets run in increasing order of value.
  static constexpr int kZeroIndex = kMagnitudeBuckets;

  // The bucket of a magnitude > 0. For a normal double, bits 52..62 hold the biased
  // exponent and bits 45..51 the top 7 bits of the mantissa: shifted right by 45 they are
  // exponent * 128 + sub-bucket, the log-linear index, read in one shift.
  static int MagnitudeIndex(double magnitude) {
    if (magnitude < kLowest) return 0;
    if (!(magnitude < kHighest)) return kMagnitudeBuckets - 1;
    uint64_t bits;
    std::memcpy(&bits, &magnitude, sizeof bits);
    return static_cast<int>((bits >> (52 - kSubBucketBits)) - kFirstIndexBits);
  }
  static int IndexOf(double value) {
    if (value > 0) return kZeroIndex + 1 + MagnitudeIndex(value);
    if (value == 0) return kZeroIndex;
    return kZeroIndex - 1 - MagnitudeIndex(-value);
  }
  // The midpoint of bucket `index` of counts_.
  static double Midpoint(int index);
  double ValueAtRank(int64_t rank) const;

  static constexpr double kLowest = 1.0 / (uint64_t{1} << -kMinExponent);
  static constexpr double kHighest = static_cast<double>(uint64_t{1} << (kMaxExponent + 1));
  static constexpr uint64_t kFirstIndexBits = static_cast<uint64_t>(1023 + kMinExponent)
                                              << kSubBucketBits;

  std::vector<int64_t> counts_;
  int64_t count_ = 0;
  double min_ = std::numeric_limits<double>::infinity();
  double max_ = -std::numeric_limits<double>::infinity();
};

}  // namespace tickbench::timing

#endif  // TIMING_LOG_HISTOGRAM_H_
