#include "harness/commands/compare_ratio.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

// The plain mean of `values` (0 when empty): a single run's figure is its value even where
// it has no interval (no quantum to floor its spread).
double MeanOf(const std::vector<double>& values) {
  double sum = 0;
  for (const double v : values) sum += v;
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

}  // namespace

Figure FigureOf(const std::vector<double>& values, double quantum) {
  const timing::ConfidenceInterval ci = timing::AcrossRunsInterval(
      values, timing::QuantizedSdFloor(quantum, static_cast<int64_t>(values.size())));
  Figure f;
  f.runs = static_cast<int>(values.size());
  f.mean = ci.valid ? ci.estimate : MeanOf(values);
  f.half = ci.valid ? ci.half_width() : 0;
  f.quantum = quantum;
  return f;
}

Ratio RatioOf(const std::vector<double>& a, double quantum_a, const std::vector<double>& b,
              double quantum_b) {
  Ratio r;
  r.runs_a = static_cast<int>(a.size());
  r.runs_b = static_cast<int>(b.size());
  const timing::ConfidenceInterval ia = timing::AcrossRunsInterval(
      a, timing::QuantizedSdFloor(quantum_a, static_cast<int64_t>(a.size())));
  const timing::ConfidenceInterval ib = timing::AcrossRunsInterval(
      b, timing::QuantizedSdFloor(quantum_b, static_cast<int64_t>(b.size())));
  const double mean_a = ia.valid ? ia.estimate : MeanOf(a);
  const double mean_b = ib.valid ? ib.estimate : MeanOf(b);
  if (a.empty() || b.empty() || !(mean_a > 0) || !(mean_b > 0)) return r;
  r.valid = true;
  r.estimate = mean_b / mean_a;
  r.resolution = r.estimate * (quantum_a / mean_a + quantum_b / mean_b);
  // One run has no spread: a t test needs two a side (a quantum floor is no run spread).
  if (a.size() < 2 || b.size() < 2) return r;
  r.tested = true;
  // Relative standard errors; an invalid interval (one run, no floor) gives none.
  const double ra = ia.valid ? ia.standard_error / ia.estimate : 0;
  const double rb = ib.valid ? ib.standard_error / ib.estimate : 0;
  const double se = std::sqrt(ra * ra + rb * rb);
  if (!(se > 0)) {
    // Nothing varies: the ratio is exact.
    r.low = r.high = r.estimate;
    r.p_value = r.estimate == 1 ? 1 : 0;
    return r;
  }
  // The Welch test on the log scale: log b - log a, each with its relative standard error
  // and its runs' degrees of freedom.
  auto log_scale = [](const timing::ConfidenceInterval& ci, double relative_se) {
    timing::ConfidenceInterval log_ci;
    log_ci.estimate = std::log(ci.estimate);
    log_ci.standard_error = relative_se;
    log_ci.degrees_of_freedom = ci.degrees_of_freedom;
    log_ci.valid = true;
    return log_ci;
  };
  const timing::ConfidenceInterval log_difference =
      timing::DifferenceInterval(log_scale(ib, rb), log_scale(ia, ra), timing::kConfidence95);
  // exp(log(x)) is x only to a rounding: at a ratio of 1e40 with a spread of 1e-23 of it, both
  // ends can round past the ratio, so the interval is widened to hold it.
  r.low = std::min(r.estimate, std::exp(log_difference.low));
  r.high = std::max(r.estimate, std::exp(log_difference.high));
  r.p_value = timing::TwoSidedPValue(log_difference);
  // A spread of many times the mean leaves exp() no finite bound: no interval, no test.
  r.too_wide = !(r.low > 0) || !std::isfinite(r.high);
  r.tested = !r.too_wide;
  return r;
}

std::string Fixed(double x, int decimals) {
  return std::fabs(x) < 1e6 ? timing::FormatDecimals(x, decimals) : absl::StrFormat("%.5g", x);
}

int RatioDecimals(const Ratio& r) {
  return timing::FigureDecimals(r.estimate, r.tested ? (r.high - r.low) / 2 : 0, r.resolution);
}

std::string Verdict(const Ratio& r) {
  if (!r.valid) return "no figure";
  if (r.too_wide) return "no test: the runs spread too widely for an interval";
  if (!r.tested) {
    const bool a_short = r.runs_a < 2;
    return absl::StrFormat("no test: %s has %d run; the t test needs 2 or more on each side",
                           a_short ? "A" : "B", a_short ? r.runs_a : r.runs_b);
  }
  if (r.p_value >= 0.05 || (r.low <= 1 && r.high >= 1)) {
    return absl::StrCat("no difference at 5% (", timing::PValueWords(r.p_value), ")");
  }
  // The change in percent, at the digits its interval (or the ratio's grid) supports: a
  // 0.0026% change is shown as such, never as "0.0% [0.0, 0.0]".
  const bool slower = r.low > 1;
  const double sign = slower ? 1 : -1;
  const double change = sign * (r.estimate - 1) * 100;
  const double near = sign * ((slower ? r.low : r.high) - 1) * 100;
  const double far = sign * ((slower ? r.high : r.low) - 1) * 100;
  const int decimals = timing::FigureDecimals(change, (far - near) / 2, r.resolution * 100);
  return absl::StrFormat("B %s by %s%% [%s, %s], %s", slower ? "slower" : "faster",
                         Fixed(change, decimals), Fixed(near, decimals), Fixed(far, decimals),
                         timing::PValueWords(r.p_value));
}

}  // namespace tickbench::harness
