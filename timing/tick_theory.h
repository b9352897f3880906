// What the theory of reading an interval with a coarse tick predicts, and the tests that
// hold a measurement against it.
//
// An interval of true length d = (n + f) T read with a tick of period T at a uniformly
// random phase reads n ticks with probability 1 - f and n + 1 with probability f: the
// reading is unbiased (mean d) with SD T sqrt(f (1 - f)), at most T/2. When the true
// lengths d_i vary (jitter), each interval has its own n_i and f_i; the prediction is the
// mixture over the intervals, which this file computes from the d_i a fine reference
// clock saw at the same instants. See docs/theory.md ("Reading an interval with a tick").
#ifndef TIMING_TICK_THEORY_H_
#define TIMING_TICK_THEORY_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "timing/confidence.h"

namespace tickbench::timing {

struct TickPrediction {
  double period_ns = 0;
  int64_t n = 0;       // floor(mean d / T): the lower of the two readings
  double f = 0;        // predicted share of readings above n ticks
  double mean_ns = 0;  // = mean d (unbiased)
  double sd_ns = 0;    // sqrt of the mixture's variance; T sqrt(f(1-f)) for fixed d
  // Standard errors of the measured share, mean and SD over the intervals, assuming
  // independent random phases.
  double share_standard_error = 0;
  double mean_standard_error_ns = 0;
  double sd_standard_error_ns = 0;
  std::vector<double> histogram;  // predicted count of readings of 0, 1, 2, ... ticks
};

// The prediction for intervals whose true lengths are `true_ns` (from the reference).
TickPrediction PredictTickReadings(absl::Span<const double> true_ns, double period_ns);

struct TickObservation {
  double share_above_n = 0;  // share of readings above n ticks (n from the prediction)
  // The share's exact 95% binomial interval (ProportionInterval; assumes independent
  // phases), to hold against the predicted f; invalid without readings.
  ConfidenceInterval share_ci95;
  double mean_ns = 0;
  double sd_ns = 0;
};

// Measured readings (ns, multiples of the period) summarised against `prediction`.
TickObservation ObserveTickReadings(absl::Span<const double> readings_ns,
                                    const TickPrediction& prediction);

struct TickVerdict {
  bool share_agrees = false;  // within 3 standard errors
  bool mean_agrees = false;
  bool sd_agrees = false;
  bool agrees() const { return share_agrees && mean_agrees && sd_agrees; }
};

TickVerdict JudgeTickReadings(const TickObservation& observed, const TickPrediction& predicted);

// Uniformity of phases in [0, 1) by Pearson's chi-square over `bins` equal bins:
// the statistic, its degrees of freedom, and the p-value (upper tail).
struct UniformityTest {
  double chi_square = 0;
  int degrees_of_freedom = 0;
  double p_value = 1;
  int64_t samples = 0;
};
UniformityTest TestUniformPhases(absl::Span<const double> phases, int bins = 20);

// Regularised upper incomplete gamma Q(a, x) = Gamma(a, x) / Gamma(a): the chi-square
// upper tail is Q(df / 2, x / 2).
double UpperIncompleteGammaRatio(double a, double x);

}  // namespace tickbench::timing

#endif  // TIMING_TICK_THEORY_H_
