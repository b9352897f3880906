#include "timing/tick_theory.h"

#include <algorithm>
#include <cmath>
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
  o.sd_ns = readings_ns.size() > 1 ? std::sqrt(squares / (count - 1)) : 0;
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

// The share above n, the zero share and the SD of the readings predicted for the d_i
// shifted by `shift_ns`.
struct Shifted {
  double share = 0, zero = 0, sd_ns = 0;
};
Shifted PredictShifted(absl::Span<const double> true_ns, double period_ns, int64_t n,
                       double shift_ns) {
  Shifted s;
  double first = 0, second = 0;  // moments of the reading in ticks
  for (double d : true_ns) {
    const double ticks = std::max(0.0, (d + shift_ns) / period_ns);
    const double n_i = std::floor(ticks), f_i = ticks - n_i;
    first += n_i + f_i;
    second += (1 - f_i) * n_i * n_i + f_i * (n_i + 1) * (n_i + 1);
    s.share += n_i > n ? 1.0 : n_i == n ? f_i : 0.0;
    s.zero += n_i == 0 ? 1 - f_i : 0.0;
  }
  const double count = static_cast<double>(true_ns.size());
  s.share /= count;
  s.zero /= count;
  const double mean = first / count;
  s.sd_ns = period_ns * std::sqrt(std::max(0.0, second / count - mean * mean));
  return s;
}

ConfidenceInterval Range(double estimate, double low, double high, double level_df) {
  ConfidenceInterval ci;
  ci.estimate = estimate;
  ci.low = std::min(low, estimate);
  ci.high = std::max(high, estimate);
  ci.degrees_of_freedom = level_df;
  ci.valid = true;
  return ci;
}

bool Overlap(const ConfidenceInterval& a, const ConfidenceInterval& b) {
  return a.valid && b.valid && a.low <= b.high && b.low <= a.high;
}

}  // namespace

TickPredictionIntervals PredictTickIntervals(absl::Span<const double> true_ns,
                                             const TickPrediction& prediction,
                                             const ConfidenceInterval& true_mean_ci) {
  TickPredictionIntervals out;
  const double period = prediction.period_ns;
  if (true_ns.empty() || !(period > 0) || !true_mean_ci.valid) return out;
  out.mean_ns = true_mean_ci;
  out.mean_ns.estimate = prediction.mean_ns;
  // Shifts that keep the mean of the d_i within the interval of the true mean.
  const double low = true_mean_ci.low - prediction.mean_ns;
  const double high = true_mean_ci.high - prediction.mean_ns;
  std::vector<double> shifts = {0, low, high};
  constexpr int kSteps = 64;
  for (int i = 1; i < kSteps; ++i) shifts.push_back(low + (high - low) * i / kSteps);
  // The whole and half ticks within the interval (the SD's extremes for a fixed d); an
  // interval wider than a tick holds both, and a few of each are enough.
  const double first_half_tick = std::ceil(2 * true_mean_ci.low / period);
  for (double k = first_half_tick; k * period / 2 <= true_mean_ci.high && k < first_half_tick + 4;
       ++k) {
    shifts.push_back(k * period / 2 - prediction.mean_ns);
  }
  const Shifted center = PredictShifted(true_ns, period, prediction.n, 0);
  Shifted least = center, most = center;
  for (double shift : shifts) {
    if (shift < low || shift > high) continue;
    const Shifted s = PredictShifted(true_ns, period, prediction.n, shift);
    least = {std::min(least.share, s.share), std::min(least.zero, s.zero),
             std::min(least.sd_ns, s.sd_ns)};
    most = {std::max(most.share, s.share), std::max(most.zero, s.zero),
            std::max(most.sd_ns, s.sd_ns)};
  }
  const double df = true_mean_ci.degrees_of_freedom;
  out.f = Range(prediction.f, least.share, most.share, df);
  out.zero_share = Range(prediction.zero_share, least.zero, most.zero, df);
  out.sd_ns = Range(prediction.sd_ns, least.sd_ns, most.sd_ns, df);
  return out;
}

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

UniformityTest TestUniformPhases(absl::Span<const double> phases, int bins) {
  UniformityTest t;
  t.samples = static_cast<int64_t>(phases.size());
  t.degrees_of_freedom = bins - 1;
  if (phases.empty() || bins < 2) return t;
  std::vector<double> observed(bins, 0);
  for (double u : phases) {
    const double wrapped = u - std::floor(u);
    observed[std::min(bins - 1, static_cast<int>(wrapped * bins))] += 1;
  }
  const double expected = static_cast<double>(phases.size()) / bins;
  for (double o : observed) t.chi_square += (o - expected) * (o - expected) / expected;
  t.p_value = UpperIncompleteGammaRatio(t.degrees_of_freedom / 2.0, t.chi_square / 2.0);
  return t;
}

}  // namespace tickbench::timing
