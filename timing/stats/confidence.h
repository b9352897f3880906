// Confidence intervals for the figures of a measurement, and the digits they support.
//
// Every interval here is two-sided at a stated confidence (95% unless told otherwise) and
// names its method:
//   * across runs: Student t over independent repetitions (each run has its own tick
//     phase, so the run-to-run spread already holds the clock's quantization);
//   * batch means: for a series of back-to-back readings, the t interval over the means
//     of B contiguous batches. Contiguous batches keep the correlation of neighbouring
//     readings inside a batch: readings that tile time have anti-correlated errors (one
//     reading's lost tick is the next one's gained tick), which makes a naive SD/sqrt(N)
//     wrong, and batch means over such readings are conservative, never too narrow;
//   * order statistics: a distribution-free interval for a quantile (median, p99) from
//     the binomial distribution of the number of values below it; it assumes independent
//     values and, on a coarse clock, lands on the tick grid like the quantile itself.
// A quantized figure whose repetitions all read the same quantum has a sample SD of 0;
// QuantizedSdFloor gives the SD such readings are still compatible with, so that an
// interval never collapses to a point because a clock is coarse.
#ifndef TIMING_CONFIDENCE_H_
#define TIMING_CONFIDENCE_H_

#include <cstdint>
#include <string>

#include "absl/types/span.h"

namespace tickbench::timing {

inline constexpr double kConfidence95 = 0.95;

struct ConfidenceInterval {
  double estimate = 0;
  double low = 0;
  double high = 0;
  double standard_error = 0;      // 0 for intervals not built from one (order statistics)
  double degrees_of_freedom = 0;  // of the t quantile; infinity for a normal one
  bool floored = false;           // the SD floor, not the sample SD, set the width
  bool valid = false;             // false when there was nothing to estimate from
  double half_width() const { return (high - low) / 2; }
  bool Contains(double value) const { return valid && low <= value && value <= high; }
  // True when the interval is valid and lies entirely on one side of `value`.
  bool Excludes(double value) const { return valid && (value < low || value > high); }
};

// Regularized incomplete beta I_x(a, b) for a, b > 0 and x in [0, 1] (continued fraction,
// modified Lentz; relative error about 1e-14).
double RegularizedIncompleteBeta(double a, double b, double x);

// The standard normal quantile Phi^-1(p) for p in (0, 1), to about 1e-15 relative error;
// -inf/+inf at 0/1, NaN outside.
double NormalQuantile(double p);

// P(T <= t) for Student's t with df > 0 degrees of freedom; df = infinity is the normal.
double StudentTCdf(double t, double df);

// The p-quantile of Student's t with df > 0 degrees of freedom (p in (0, 1)), to about
// 1e-10 relative error; the normal quantile for infinite df. NaN for p outside (0, 1) or
// df <= 0.
double StudentTQuantile(double p, double df);

// The interval mean +- t_{(1+c)/2, count-1} * max(sd, sd_floor) / sqrt(count). Needs
// count >= 2 (otherwise invalid unless sd_floor > 0, in which case a normal quantile is
// used: one value and a known SD).
ConfidenceInterval TInterval(double mean, double sd, int64_t count, double sd_floor = 0,
                             double confidence = kConfidence95);

// Student t across independent repetitions (one value per run).
ConfidenceInterval AcrossRunsInterval(absl::Span<const double> values, double sd_floor = 0,
                                      double confidence = kConfidence95);

// Batch means over a series in time order: `batches` contiguous batches of (nearly) equal
// size, at most one batch per value; the estimate is the plain mean of all values, its
// standard error the SD of the batch means over sqrt(batches), with batches - 1 degrees of
// freedom. `sd_floor` is a floor on the SD of one value (the standard error is at least
// sd_floor / sqrt(values)). Invalid for fewer than 2 values.
inline constexpr int kDefaultBatches = 20;
ConfidenceInterval BatchMeansInterval(absl::Span<const double> series, double sd_floor = 0,
                                      int batches = kDefaultBatches,
                                      double confidence = kConfidence95);

// The smallest SD of a reading on a grid of `quantum` that is compatible, at `confidence`
// (one-sided), with `count` independent readings all landing on the same grid point:
// quantum * sqrt(f (1 - f)) with f = 1 - (1 - confidence)^(1 / count), the largest share
// of readings on a neighbouring grid point that could go unseen that often (the exact
// Clopper-Pearson bound for 0 of count), capped at f = 1/2. 0 for quantum <= 0 or
// count <= 0.
double QuantizedSdFloor(double quantum, int64_t count, double confidence = kConfidence95);

// The q-quantile (type 7, as timing::QuantileOfSorted) of `values` with a distribution-free
// interval from order statistics: the ranks l, u such that P(l <= B < u) >= confidence for
// B ~ Binomial(n, q), as even on both tails as the integers allow. For n too small to
// reach the confidence the interval runs to the smallest/largest value. Assumes
// independent values.
ConfidenceInterval QuantileInterval(absl::Span<const double> values, double q,
                                    double confidence = kConfidence95);

// The chi-square interval of a standard deviation: sd * sqrt(df / chi2_{(1+c)/2, df}) to
// sd * sqrt(df / chi2_{(1-c)/2, df}), the chi-square quantiles by the Wilson-Hilferty
// cube (relative error under 1% of the bounds for df >= 3, under 3% for df >= 1). For a
// series of correlated readings pass the effective degrees of freedom (e.g. batches - 1
// of batch means, each batch's SD standing for the reading's), not count - 1; with
// independent readings it assumes them normal, which a coarse clock's two-valued readings
// are not. Invalid for df <= 0 or a negative or non-finite sd.
ConfidenceInterval SdInterval(double sd, double degrees_of_freedom,
                              double confidence = kConfidence95);

// SdInterval with the clock's quantization folded in: the chi-square interval of `sd` on
// `degrees_of_freedom`, its upper end raised to at least `sd_floor` (QuantizedSdFloor:
// the SD that readings all landing on one grid point are still compatible with, so that
// identical quantized readings do not make a point of the interval), its lower end
// clipped at 0. `floored` when the floor set the upper end. Invalid as SdInterval is.
ConfidenceInterval SdIntervalWithFloor(double sd, double degrees_of_freedom, double sd_floor,
                                       double confidence = kConfidence95);

// The SD of one value of a series in time order, with its interval: SdIntervalWithFloor
// on effective degrees of freedom 2 s^4 / SE(s^2)^2 (between 1 and count - 1), where
// SE(s^2) is the batch-means standard error of the squared deviations (`batches`
// contiguous batches). The batches keep the correlation of neighbouring values, and the
// squared deviations the shape of their distribution: a coarse clock's two-valued
// readings are far from normal, and the chi-square interval on count - 1 (or on
// batches - 1) degrees of freedom is then too narrow for a rare value (f = 0.05) and far
// too wide for many readings. For independent normal values the degrees of freedom come
// out near count - 1. Invalid for fewer than 2 values.
ConfidenceInterval BatchSdInterval(absl::Span<const double> series, double sd_floor = 0,
                                   int batches = kDefaultBatches,
                                   double confidence = kConfidence95);

// The SD of one reading of a clock of resolution `quantum`, from readings in time order:
// BatchSdInterval floored at QuantizedSdFloor(quantum, count); and where every reading
// lies on one of two neighbouring grid points (SD = quantum sqrt(p (1 - p)) exactly, p
// the share on the upper one), widened to hold the ProportionInterval of p carried
// through that formula (quantum / 2 where it holds p = 1/2), so that a handful of rare
// readings is not left to a normal approximation. Its coverage in simulation (dithered
// tick readings, f in {0.05, 0.5, 0.95}, 80 to 4000 readings, with and without jitter):
// 95% +- 3 binomial SE, and 100% at f = 1/2, where the sample SD cannot exceed its
// maximum (harness/study/study_coverage_test).
ConfidenceInterval QuantizedSdInterval(absl::Span<const double> readings, double quantum,
                                       double confidence = kConfidence95);

// The exact (Clopper-Pearson) interval of a binomial proportion: `successes` of `trials`
// independent trials. The bounds are the beta quantiles B((1-c)/2; k, n-k+1) and
// B((1+c)/2; k+1, n-k) (0 for k = 0, 1 for k = n), found by bisection on
// RegularizedIncompleteBeta to 1e-12; conservative (coverage at least `confidence`).
// Invalid for trials <= 0 or successes outside [0, trials].
ConfidenceInterval ProportionInterval(int64_t successes, int64_t trials,
                                      double confidence = kConfidence95);

// The interval of a - b for independent estimates with standard errors and degrees of
// freedom (Welch-Satterthwaite). Invalid if either is.
ConfidenceInterval DifferenceInterval(const ConfidenceInterval& a, const ConfidenceInterval& b,
                                      double confidence = kConfidence95);

// The two-sided p-value of "the quantity `difference` estimates is 0" (a Welch t-test when
// `difference` is DifferenceInterval's): 2 P(T > |estimate| / SE) on its degrees of
// freedom. With a standard error of 0, 1 for an estimate of 0 and 0 for any other. NaN for
// an invalid interval.
double TwoSidedPValue(const ConfidenceInterval& difference);

// "0.012", "<0.0001": a p-value in two significant digits, never an exponent.
std::string FormatPValue(double p);
// "p = 0.012", "p < 0.0001".
std::string PValueWords(double p);

// Number of decimals that show two significant digits of `half_width` (negative: round to
// tens, hundreds, ...). 6 significant digits' worth when the half-width is 0 or not finite.
int DecimalsForHalfWidth(double half_width, double value = 0);

// `value` rounded to what an interval of `half_width` supports: two significant digits of
// the half-width.
double RoundToInterval(double value, double half_width);

// "1234.5" style text of `value` at DecimalsForHalfWidth; "12000" for a half-width of
// 1234 (no exponent below 1e15).
std::string FormatRounded(double value, double half_width);

// "value ± half-width", both at the half-width's two significant digits: "20000 ± 4400".
std::string FormatWithHalfWidth(double value, double half_width);

// ---- The one rule for a figure's digits, in every output (tables, words, compare). ----
//
// A figure is printed to two significant digits of the half-width of its 95% interval,
// but never finer than the leading digit of its resolution (the grid it was read on, or
// the quantum T/N of an average): a mean of readings on a 4 us grid with no wider
// interval is "28", not "28.00"; a simulated 1300 us known to 1 ns is "1300.000", not
// "1300.00000000". Without either, 6 significant digits. A column of figures prints all
// of them with the most decimals any of them supports (ColumnDecimals), so that a column
// reads "15.579" over "17.300", never "15.5790" over "17.30".
//
// The decimals of `value` by that rule (negative: rounded to tens, hundreds, ...).
int FigureDecimals(double value, double half_width, double resolution = 0);
// `value` at `decimals` ("%.*f", no "-0"; rounded to tens, ... for negative decimals);
// "inf"/"nan" as %g writes them.
std::string FormatDecimals(double value, int decimals);
// `value` as the shortest %g text (6 to 17 significant digits) that reads back as exactly
// `value`: 16777217, not %g's 1.67772e+07; for echoing a number a user gave.
std::string FormatExact(double value);
// `value` at FigureDecimals.
std::string FormatFigure(double value, double half_width, double resolution = 0);
// The decimals a column of figures shares: the most of `decimals` (0 when empty).
int ColumnDecimals(absl::Span<const int> decimals);
// The interval of a quantity that cannot be negative (a time, a rate, a share): its lower
// end raised to 0 where the arithmetic took it below, the same in every output.
ConfidenceInterval ClippedAtZero(ConfidenceInterval ci);
// The interval of a positive quantity (a time, a rate) from a symmetric one around its
// estimate, on the log scale: estimate ×/÷ exp(half-width / estimate) (the delta method:
// the standard error of log x is that of x over x). The same to first order where the
// half-width is small against the estimate; never reaches 0 where the arithmetic one
// crosses it (three runs of 300, 4000 and 4200 ns: [-2600, 8300] becomes [410, 19000]).
// Unchanged when invalid or the estimate is not positive.
ConfidenceInterval OnLogScale(ConfidenceInterval ci);

}  // namespace tickbench::timing

#endif  // TIMING_CONFIDENCE_H_
