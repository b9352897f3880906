// What the theory of reading an interval with a coarse tick predicts (docs/theory.md,
// "Reading an interval with a tick"), as pure arithmetic that runs on the host and on the
// board alike.
//
// An interval of true length d = (n + f) T read with a tick of period T at a uniformly
// random phase reads n ticks with probability 1 - f and n + 1 with probability f: mean d,
// SD T sqrt(f (1 - f)); for d < T it reads 0 with probability 1 - d/T. A loop of N round
// trips read once before and once after is within T of its true length, so the averaged
// figure is within T/N of the true mean round trip.
//
// Freestanding (core/README.md): plain C++17, no Abseil, no OS, no exceptions, no heap.
//
// What is promised:
//   * Each function is exact arithmetic on its arguments (IEEE doubles), with the edge
//     cases stated at each one; none allocates.
// What is NOT promised:
//   * The law needs random phases; a loop locked to the tick breaks it (docs/theory.md,
//     "Phase locking and dithering"). These functions predict, they do not test phases.
#ifndef CORE_TICK_STATISTICS_H_
#define CORE_TICK_STATISTICS_H_

#include <cstdint>

namespace tickbench::core {

// One interval of true length d_ns read with a tick of period_ns (> 0).
struct TickReading {
  int64_t n = 0;       // floor(d / T): the lower of the two possible readings, in ticks
  double f = 0;        // d / T - n: the probability of reading n + 1 ticks
  double mean_ns = 0;  // = d (the reading is unbiased)
  double sd_ns = 0;    // T sqrt(f (1 - f)), at most T/2
};
// d_ns < 0 counts as 0.
TickReading PredictTickReading(double d_ns, double period_ns);

// The probability of reading 0 ticks: 1 - d/T for d < T, else 0 (and 1 for d <= 0).
double TickZeroShare(double d_ns, double period_ns);

// T sqrt(f (1 - f)) with f the fractional part of d/T.
double TickReadingSd(double d_ns, double period_ns);

// The averaged figure's bound: a loop of `round_trips` (> 0) read once before and once
// after by a tick of period_ns is within period_ns / round_trips of the true mean.
double AveragedBound(double period_ns, int64_t round_trips);

// The prediction for `count` intervals whose true lengths are d_ns[0..count) (what a fine
// reference clock read at the same instants), each with its own n_i and f_i: the mixture.
struct TickMixture {
  int64_t count = 0;
  double period_ns = 0;
  int64_t n = 0;                    // floor(mean d / T)
  double f = 0;                     // predicted share of readings above n ticks
  double zero_share = 0;            // predicted share of readings of 0 ticks
  double mean_ns = 0;               // = mean d
  double sd_ns = 0;                 // SD of the mixture of readings
  double share_standard_error = 0;  // of the measured share above n, for independent phases
  double zero_share_standard_error = 0;
  double mean_standard_error_ns = 0;
};
// count 0 gives an all-zero prediction (with period_ns).
TickMixture PredictTickMixture(const double* d_ns, int64_t count, double period_ns);

}  // namespace tickbench::core

#endif  // CORE_TICK_STATISTICS_H_
