#include "timing/theory/tick_theory.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/tick_statistics.h"

namespace tickbench::timing {

TickPrediction PredictTickReadings(absl::Span<const double> true_ns, double period_ns) {
  TickPrediction p;
  p.period_ns = period_ns;
  if (true_ns.empty() || period_ns <= 0) return p;
  const double count = static_cast<double>(true_ns.size());
  // The mixture's share, zero share, mean and SD with their standard errors are the
  // freestanding core's arithmetic, the code the board runs (core/tick_statistics.h).
  const core::TickMixture mixture =
      core::PredictTickMixture(true_ns.data(), static_cast<int64_t>(true_ns.size()), period_ns);
  p.mean_ns = mixture.mean_ns;
  p.n = mixture.n;
  p.f = mixture.f;
  p.zero_share = mixture.zero_share;
  p.sd_ns = mixture.sd_ns;
  p.share_standard_error = mixture.share_standard_error;
  p.mean_standard_error_ns = mixture.mean_standard_error_ns;
  // What the host adds: the predicted histogram of readings in ticks, and the SD's
  // standard error from the mixture's fourth moment.
  for (double d : true_ns) {
    const double ticks = std::max(0.0, d / period_ns);
    const double n_i = std::floor(ticks);
    const double f_i = ticks - n_i;
    const size_t bucket = static_cast<size_t>(n_i);
    if (p.histogram.size() < bucket + 2) p.histogram.resize(bucket + 2, 0);
    p.histogram[bucket] += 1 - f_i;
    p.histogram[bucket + 1] += f_i;
  }
  const double mean_ticks = p.mean_ns / period_ns;
  const double variance_ticks = (p.sd_ns / period_ns) * (p.sd_ns / period_ns);
  // SE of a sample SD: sqrt((mu4 - sigma^4) / N) / (2 sigma), with the mixture's fourth
  // central moment (delta method). For a fixed d it is the Bernoulli's.
  double fourth = 0;
  for (double d : true_ns) {
    const double ticks = std::max(0.0, d / period_ns);
    const double n_i = std::floor(ticks);
    const double f_i = ticks - n_i;
    fourth += (1 - f_i) * std::pow(n_i - mean_ticks, 4) + f_i * std::pow(n_i + 1 - mean_ticks, 4);
  }
  fourth /= count;
  if (variance_ticks > 0) {
    const double var_of_variance = std::max(0.0, fourth - variance_ticks * variance_ticks) / count;
    p.sd_standard_error_ns =
        period_ns * std::sqrt(var_of_variance) / (2 * std::sqrt(variance_ticks));
  }
  // At f = 1/2 the delta method's first-order term vanishes (a Bernoulli's variance is
  // flat there) and the sample SD still moves with the share; T times the share's SE
  // bounds that movement.
  p.sd_standard_error_ns = std::max(p.sd_standard_error_ns, period_ns * p.share_standard_error);
  return p;
}

TickObservation ObserveTickReadings(absl::Span<const double> readings_ns,
                                    const TickPrediction& prediction) {
  TickObservation o;
  if (readings_ns.empty() || prediction.period_ns <= 0) return o;
  double sum = 0, above = 0;
  for (double r : readings_ns) {
    sum += r;
    if (std::llround(r / prediction.period_ns) > prediction.n) above += 1;
  }
  const double count = static_cast<double>(readings_ns.size());
  o.mean_ns = sum / count;
  double squares = 0;
  for (double r : readings_ns) squares += (r - o.mean_ns) * (r - o.mean_ns);
  // The population SD (divisor N), as the prediction's: with n - 1 the figure sits above
  // T/2 where half the readings are n + 1 ticks, beyond any SD a tick can give.
  o.sd_ns = std::sqrt(squares / count);
  o.share_above_n = above / count;
  o.share_ci95 =
      ProportionInterval(static_cast<int64_t>(above), static_cast<int64_t>(readings_ns.size()));
  return o;
}

namespace {
// Within 3 standard errors; an SE of 0 (no randomness predicted) asks for agreement to
// rounding, 1e-9 of the period.
bool Within3(double observed, double predicted, double standard_error, double period) {
  return std::abs(observed - predicted) <= std::max(3 * standard_error, 1e-9 * period);
}
}  // namespace

TickVerdict JudgeTickReadings(const TickObservation& observed, const TickPrediction& predicted) {
  TickVerdict v;
  v.share_agrees = Within3(observed.share_above_n, predicted.f, predicted.share_standard_error, 1);
  v.mean_agrees = Within3(observed.mean_ns, predicted.mean_ns, predicted.mean_standard_error_ns,
                          predicted.period_ns);
  v.sd_agrees =
      Within3(observed.sd_ns, predicted.sd_ns, predicted.sd_standard_error_ns, predicted.period_ns);
  return v;
}

namespace {

bool Overlap(const ConfidenceInterval& a, const ConfidenceInterval& b) {
  return a.valid && b.valid && a.low <= b.high && b.low <= a.high;
}

}  // namespace

TickVerdict JudgeTickIntervals(const TickIntervals& observed, const TickIntervals& predicted) {
  TickVerdict v;
  v.share_agrees = Overlap(observed.share, predicted.share);
  v.mean_agrees = Overlap(observed.mean_ns, predicted.mean_ns);
  v.sd_agrees = Overlap(observed.sd_ns, predicted.sd_ns);
  return v;
}

double UpperIncompleteGammaRatio(double a, double x) {
  if (x <= 0) return 1;
  const double log_prefactor = -x + a * std::log(x) - std::lgamma(a);
  if (x < a + 1) {
    // Series for the lower ratio P(a, x); Q = 1 - P.
    double term = 1 / a, sum = term;
    for (int k = 1; k < 10000; ++k) {
      term *= x / (a + k);
      sum += term;
      if (term < sum * 1e-15) break;
    }
    return std::max(0.0, 1 - sum * std::exp(log_prefactor));
  }
  // Continued fraction for Q(a, x) (modified Lentz).
  const double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < 1e-15) break;
  }
  return std::min(1.0, std::exp(log_prefactor) * h);
}

namespace {

// Solves a·x = b in place (a: k×k symmetric positive semi-definite, row-major) by Gaussian
// elimination with partial pivoting; false when a is singular to rounding.
bool SolveInPlace(std::vector<double>& a, std::vector<double>& b, int k) {
  for (int col = 0; col < k; ++col) {
    int pivot = col;
    for (int row = col + 1; row < k; ++row) {
      if (std::abs(a[row * k + col]) > std::abs(a[pivot * k + col])) pivot = row;
    }
    if (!(std::abs(a[pivot * k + col]) > 1e-300)) return false;
    for (int j = 0; j < k; ++j) std::swap(a[col * k + j], a[pivot * k + j]);
    std::swap(b[col], b[pivot]);
    for (int row = col + 1; row < k; ++row) {
      const double f = a[row * k + col] / a[col * k + col];
      for (int j = col; j < k; ++j) a[row * k + j] -= f * a[col * k + j];
      b[row] -= f * b[col];
    }
  }
  for (int row = k - 1; row >= 0; --row) {
    for (int j = row + 1; j < k; ++j) b[row] -= a[row * k + j] * b[j];
    b[row] /= a[row * k + row];
  }
  return true;
}

// The upper tail of F(d1, d2) at x.
double FUpperTail(double x, double d1, double d2) {
  if (!(x > 0)) return 1;
  return RegularizedIncompleteBeta(d2 / 2, d1 / 2, d2 / (d2 + d1 * x));
}

}  // namespace

// What a batch mean of cos 2πku or sin 2πku (values in [-1, 1]) is known to: the rounding
// of a sum of up to millions of them, well above an ulp and far below any real spread.
constexpr double kBatchMeanRounding = 1e-12;

UniformityTest TestUniformPhases(absl::Span<const double> phases, int harmonics, int batches) {
  UniformityTest t;
  t.samples = static_cast<int64_t>(phases.size());
  const int p = 2 * std::max(harmonics, 1);
  t.degrees_of_freedom = p;
  const int64_t n = t.samples;
  const int b = static_cast<int>(std::min<int64_t>(batches, n / 5));
  t.batches = b;
  if (b < p + 2) return t;
  // Each batch's means of cos 2πku and sin 2πku.
  std::vector<std::vector<double>> means(b, std::vector<double>(p, 0));
  for (int j = 0; j < b; ++j) {
    const int64_t begin = j * n / b, end = (j + 1) * n / b;
    for (int64_t i = begin; i < end; ++i) {
      for (int k = 0; k < p / 2; ++k) {
        const double angle = 2 * M_PI * (k + 1) * phases[i];
        means[j][2 * k] += std::cos(angle);
        means[j][2 * k + 1] += std::sin(angle);
      }
    }
    for (double& m : means[j]) m /= static_cast<double>(end - begin);
  }
  std::vector<double> grand(p, 0), covariance(p * p, 0);
  for (const std::vector<double>& m : means) {
    for (int a = 0; a < p; ++a) grand[a] += m[a] / b;
  }
  for (const std::vector<double>& m : means) {
    for (int a = 0; a < p; ++a) {
      for (int c = 0; c < p; ++c) covariance[a * p + c] += (m[a] - grand[a]) * (m[c] - grand[c]);
    }
  }
  for (double& v : covariance) v /= b - 1;
  // The batch means are known to rounding only: a spread below it is none. Phases that
  // cycle evenly through q points (a round trip of 1.3 T: q = 10) give batches of a
  // multiple of q the same means, 0 to rounding, and no spread; a lock gives them all
  // one point far from 0. The floor tells the two apart (T² about 0, or enormous) where
  // the bare covariance is singular and said "lock" for both.
  for (int a = 0; a < p; ++a) covariance[a * p + a] += kBatchMeanRounding * kBatchMeanRounding;
  std::vector<double> solved = grand;
  double t2 = 0;
  if (SolveInPlace(covariance, solved, p)) {
    for (int a = 0; a < p; ++a) t2 += b * grand[a] * solved[a];
  } else {
    t2 = std::numeric_limits<double>::infinity();
  }
  t.statistic = (b - p) * t2 / (p * (b - 1.0));
  t.p_value = std::isfinite(t.statistic) ? FUpperTail(t.statistic, p, b - p) : 0;
  return t;
}

CombinedTest CombinePValues(absl::Span<const double> p_values) {
  CombinedTest c;
  for (double p : p_values) {
    c.chi_square += -2 * std::log(std::max(p, 1e-300));
    c.degrees_of_freedom += 2;
  }
  if (c.degrees_of_freedom > 0) {
    c.p_value = UpperIncompleteGammaRatio(c.degrees_of_freedom / 2.0, c.chi_square / 2.0);
  }
  return c;
}

}  // namespace tickbench::timing
