// Welford's one-pass mean and variance, with min and max: the moments every figure of a
// run is made of, on the host and on the board.
//
// Freestanding (core/README.md): plain C++17, no Abseil, no OS, no exceptions, no heap.
//
// What is promised:
//   * Add() is O(1), allocates nothing and has no cancellation of sum-of-squares
//     formulas (Welford 1962): adding the same values in the same order gives bit-identical
//     results on every platform with IEEE doubles.
//   * variance() is the sample variance (n - 1 in the denominator), 0 for fewer than two
//     values; mean(), min() and max() are 0 for no value.
// What is NOT promised:
//   * Values are not kept: no percentiles (core/tick_study.h sorts the readings it keeps).
#ifndef CORE_RUNNING_STATS_H_
#define CORE_RUNNING_STATS_H_

#include <cstdint>
#include <limits>

namespace tickbench::core {

class RunningStats {
 public:
  void Add(double value) {
    ++count_;
    const double delta = value - mean_;
    mean_ += delta / static_cast<double>(count_);
    m2_ += delta * (value - mean_);
    if (value < min_) min_ = value;
    if (value > max_) max_ = value;
  }
  int64_t count() const { return count_; }
  double mean() const { return count_ > 0 ? mean_ : 0; }
  double variance() const { return count_ > 1 ? m2_ / static_cast<double>(count_ - 1) : 0; }
  double sd() const;
  double min() const { return count_ > 0 ? min_ : 0; }
  double max() const { return count_ > 0 ? max_ : 0; }

 private:
  int64_t count_ = 0;
  double mean_ = 0;
  double m2_ = 0;
  double min_ = std::numeric_limits<double>::infinity();
  double max_ = -std::numeric_limits<double>::infinity();
};

}  // namespace tickbench::core

#endif  // CORE_RUNNING_STATS_H_
