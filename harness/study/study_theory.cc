#include "harness/study/study_theory.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "timing/confidence.h"
#include "timing/statistics.h"
#include "timing/tick_theory.h"

namespace tickbench::harness {
namespace {

struct Intervals {
  timing::TickIntervals observed;
  timing::ConfidenceInterval observed_zero_share;
  timing::TickPredictionIntervals predicted;
};

// Both sides of the theory's check at `confidence`.
Intervals TheoryIntervals(const std::vector<double>& readings, const std::vector<double>& true_ns,
                          double reference_resolution_ns, const StudyCell& cell,
                          double confidence) {
  const double period = cell.resolution_ns;
  const int64_t count = static_cast<int64_t>(readings.size());
  Intervals out;
  int64_t above = 0, zeros = 0;
  for (double r : readings) {
    const int64_t ticks = std::llround(r / period);
    above += ticks > cell.prediction.n;
    zeros += ticks == 0;
  }
  out.observed.share = timing::ProportionInterval(above, count, confidence);
  out.observed_zero_share = timing::ProportionInterval(zeros, count, confidence);
  out.observed.mean_ns = timing::BatchMeansInterval(
      readings, timing::QuantizedSdFloor(period, count), timing::kDefaultBatches, confidence);
  out.observed.sd_ns = ReadingSdInterval(readings, period, confidence);
  const timing::ConfidenceInterval truth =
      timing::BatchMeansInterval(true_ns, timing::QuantizedSdFloor(reference_resolution_ns, count),
                                 timing::kDefaultBatches, confidence);
  out.predicted = timing::PredictTickIntervals(true_ns, cell.prediction, truth);
  return out;
}

// "0.13 [0.11, 0.15]": a figure and its interval at two significant digits of the
// half-width (shares: at least 0.0005, four decimals at most); the bare figure without one.
std::string WithRange(const timing::ConfidenceInterval& ci, double value, double least_half) {
  if (!ci.valid) return timing::FormatRounded(value, least_half);
  const double h = std::max(ci.half_width(), least_half);
  return absl::StrFormat("%s [%s, %s]", timing::FormatRounded(value, h),
                         timing::FormatRounded(ci.low, h), timing::FormatRounded(ci.high, h));
}

}  // namespace

std::string TheoryWords(const StudyCell& c) {
  constexpr double kShare = 0.0005;
  const double ns = c.resolution_ns * 1e-6;  // SDs to two digits of a millionth of T at most
  return absl::StrFormat(
      "; theory %s (each check's observed and predicted intervals overlap at %.1f%%; "
      "95%% CIs: share of >%d-tick readings %s vs predicted %s, zero share %s vs %s, "
      "SD %s vs %s ns)",
      c.verdict.agrees() ? "agrees" : "DISAGREES", 100 * timing::kTheoryCheckConfidence,
      c.prediction.n, WithRange(c.observed_intervals.share, c.observed.share_above_n, kShare),
      WithRange(c.predicted.f, c.prediction.f, kShare),
      WithRange(c.observed_zero_share_ci, c.observed_zero_share_ci.estimate, kShare),
      WithRange(c.predicted.zero_share, c.prediction.zero_share, kShare),
      WithRange(c.observed_intervals.sd_ns, c.observed.sd_ns, ns),
      WithRange(c.predicted.sd_ns, c.prediction.sd_ns, ns));
}

timing::ConfidenceInterval ReadingSdInterval(const std::vector<double>& readings, double quantum,
                                             double confidence) {
  return timing::QuantizedSdInterval(readings, quantum, confidence);
}

void SetTheoryFigures(const std::vector<double>& readings, const std::vector<double>& true_ns,
                      double reference_resolution_ns, StudyCell& cell) {
  cell.prediction = timing::PredictTickReadings(true_ns, cell.resolution_ns);
  cell.observed = timing::ObserveTickReadings(readings, cell.prediction);
  // What the report shows: 95% on both sides.
  const Intervals shown =
      TheoryIntervals(readings, true_ns, reference_resolution_ns, cell, timing::kConfidence95);
  cell.observed_intervals = shown.observed;
  cell.observed_zero_share_ci = shown.observed_zero_share;
  cell.predicted = shown.predicted;
  // The verdict: the same intervals at the level that keeps three checks' false
  // disagreement within 5% (timing/tick_theory.h, JudgeTickIntervals).
  const Intervals check = TheoryIntervals(readings, true_ns, reference_resolution_ns, cell,
                                          timing::kTheoryCheckConfidence);
  cell.verdict = timing::JudgeTickIntervals(
      check.observed, {check.predicted.f, check.predicted.mean_ns, check.predicted.sd_ns});
}

void SetPredictedBound(StudyCell& cell) {
  const double bound = cell.averaged_bound_ns;  // T / N
  auto percent = [bound](double d) {
    return d > 0 ? 100 * bound / d : std::numeric_limits<double>::infinity();
  };
  cell.predicted_bound_percent = cell.truth_ns > 0 ? percent(cell.truth_ns) : 0;
  cell.predicted_bound_percent_ci = timing::ConfidenceInterval();
  if (!cell.truth_ci.valid || !(cell.truth_ns > 0)) return;
  timing::ConfidenceInterval& ci = cell.predicted_bound_percent_ci;
  ci.estimate = cell.predicted_bound_percent;
  ci.low = percent(cell.truth_ci.high);  // decreasing in d
  ci.high = percent(cell.truth_ci.low);
  ci.degrees_of_freedom = cell.truth_ci.degrees_of_freedom;
  ci.valid = std::isfinite(ci.low);
}

}  // namespace tickbench::harness
