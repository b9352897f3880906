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
#include "timing/stats/confidence.h"

namespace tickbench::timing {

struct TickPrediction {
  double period_ns = 0;
  int64_t n = 0;          // floor(mean d / T): the lower of the two readings
  double f = 0;           // predicted share of readings above n ticks
  double mean_ns = 0;     // = mean d (unbiased)
  double sd_ns = 0;       // sqrt of the mixture's variance; T sqrt(f(1-f)) for fixed d
  double zero_share = 0;  // predicted share of readings of 0 ticks: 1 - d/T for d < T
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
  double sd_ns = 0;  // the population SD (divisor N), as the prediction's
};

// Measured readings (ns, multiples of the period) summarised against `prediction`.
TickObservation ObserveTickReadings(absl::Span<const double> readings_ns,
                                    const TickPrediction& prediction);

// The check of JudgeTickReadings (each figure within 3 standard errors of the prediction,
// assuming independent phases) or of JudgeTickIntervals (the study's: intervals overlap).
struct TickVerdict {
  bool share_agrees = false;
  bool mean_agrees = false;
  bool sd_agrees = false;
  bool agrees() const { return share_agrees && mean_agrees && sd_agrees; }
};

TickVerdict JudgeTickReadings(const TickObservation& observed, const TickPrediction& predicted);

// The predictions with their intervals (timing/theory/tick_intervals.h computes them).
struct TickPredictionIntervals {
  ConfidenceInterval mean_ns;     // of the true durations: the readings are unbiased
  ConfidenceInterval f;           // share of readings above prediction.n ticks
  ConfidenceInterval zero_share;  // share of readings of 0 ticks
  ConfidenceInterval sd_ns;       // SD of one reading
};

// The study's theory check from intervals: each of the share above n, the mean and the SD
// agrees where the observed interval and the predicted one overlap (an invalid interval
// never agrees). Where the theory holds, the two intervals of a check both cover the same
// value unless one of them misses it, so a check says "disagrees" wrongly in at most
// 2 (1 - c) of cases for intervals at confidence c, whatever their dependence (union
// bound). At kTheoryCheckConfidence = 1 - 0.05/6 the three checks together say it in at
// most 5% of cells where the theory holds, provided each interval has its nominal
// coverage; the error rate is usually far lower (two independent normal intervals that
// overlap at 95% test their difference at 0.6% to 5%).
inline constexpr double kTheoryCheckConfidence = 1 - 0.05 / 6;
struct TickIntervals {
  ConfidenceInterval share;  // of readings above n ticks
  ConfidenceInterval mean_ns;
  ConfidenceInterval sd_ns;
};
TickVerdict JudgeTickIntervals(const TickIntervals& observed, const TickIntervals& predicted);

// Uniformity of phases in [0, 1), in time order. Successive round trips' phases are not
// independent (back to back, each starts where the last ended, so a phase drifts or
// wanders), and a test that counts them as independent (Pearson's chi-square over bins)
// fires far above its level. Under uniformity the first `harmonics` trigonometric moments
// E[cos 2πku], E[sin 2πku] are 0; the test is Hotelling's T² of their means over `batches`
// contiguous batches, whose spread carries the dependence inside them: F = (B − p) T² /
// (p (B − 1)) on (p, B − p) degrees of freedom, p = 2 · harmonics (exact for normal batch
// means, which long batches give). A lock puts every batch's means at the same point, far
// from 0, with almost no spread: T² is then enormous. Batch means with no spread beyond
// rounding (phases that cycle evenly through q points, batches a multiple of q long) are
// judged by where they sit: at 0, as uniform as the harmonics can see (p near 1); elsewhere,
// a lock (p near 0). Fewer batches than asked for short
// series (at least 5 phases a batch); no test (p-value 1) with fewer than p + 2 batches.
struct UniformityTest {
  double statistic = 0;        // F
  int degrees_of_freedom = 0;  // p, the numerator's (the denominator's: batches − p)
  int batches = 0;
  double p_value = 1;
  int64_t samples = 0;
};
UniformityTest TestUniformPhases(absl::Span<const double> phases, int harmonics = 2,
                                 int batches = 20);

// Fisher's combination of independent tests' p-values: −2 Σ ln p on 2k degrees of freedom
// (k tests), and its p-value.
struct CombinedTest {
  double chi_square = 0;
  int degrees_of_freedom = 0;
  double p_value = 1;
};
CombinedTest CombinePValues(absl::Span<const double> p_values);

// Regularised upper incomplete gamma Q(a, x) = Gamma(a, x) / Gamma(a): the chi-square
// upper tail is Q(df / 2, x / 2).
double UpperIncompleteGammaRatio(double a, double x);

}  // namespace tickbench::timing

#endif  // TIMING_TICK_THEORY_H_
