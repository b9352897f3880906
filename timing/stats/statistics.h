// Descriptive statistics for measurements: Welford moments and sort-based percentiles, and
// a streaming summary in fixed memory for more values than are worth keeping.
#ifndef TIMING_STATISTICS_H_
#define TIMING_STATISTICS_H_

#include <cstdint>
#include <limits>
#include <vector>

#include "absl/types/span.h"
#include "core/running_stats.h"
#include "timing/stats/log_histogram.h"

namespace tickbench::timing {

// Mean and variance in one pass without the cancellation of sum-of-squares formulas
// (Welford 1962): the freestanding core's, the same code the board runs.
using RunningStats = core::RunningStats;

struct Summary {
  int64_t count = 0;
  double mean = 0;
  double sd = 0;  // sample standard deviation
  double min = 0;
  double p1 = 0;
  double p50 = 0;
  double p90 = 0;
  double p99 = 0;
  double max = 0;
  double zero_fraction = 0;  // share of values exactly 0 (a coarse clock's empty reads)
};

// Summarises `values`; an empty span gives an all-zero Summary.
Summary Summarize(absl::Span<const double> values);

// The q-quantile (0 <= q <= 1) of sorted values, interpolating linearly between the two
// closest ranks (Hyndman & Fan type 7, as R's and NumPy's default).
double QuantileOfSorted(absl::Span<const double> sorted, double q);

// The Summary of values seen one at a time, in fixed memory (the histogram's 128 KiB).
// Given the same values in the same order as Summarize, count, mean, sd, min, max and
// zero_fraction are identical (the same RunningStats sees the same sequence); p1, p50,
// p90 and p99 come from a LogHistogram, within its precision (0.39%) of Summarize's.
class StreamingSummary {
 public:
  void Add(double value) {
    stats_.Add(value);
    histogram_.Add(value);
    if (value == 0) ++zeros_;
  }
  void Clear();
  Summary ToSummary() const;

 private:
  RunningStats stats_;
  LogHistogram histogram_;
  int64_t zeros_ = 0;
};

// Median of values (copied and partially sorted).
double Median(std::vector<double> values);

}  // namespace tickbench::timing

#endif  // TIMING_STATISTICS_H_
