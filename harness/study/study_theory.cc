#include "harness/study/study_theory.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "timing/stats/confidence.h"
#include "timing/stats/statistics.h"
#include "timing/theory/tick_intervals.h"
#include "timing/theory/tick_theory.h"

namespace tickbench::harness {
namespace {

struct Intervals {
  timing::TickIntervals observed;
  timing::ConfidenceInterval observed_zero_share;
  timing::TickPredictionIntervals predicted;
};

// Both sides of the theory's check at `confidence`: the shares and the SD from independent
// groups of intervals (timing/theory/tick_intervals.h), the means by batch means.
Intervals TheoryIntervals(const std::vector<double>& readings, const std::vector<double>& true_ns,
                          const std::vector<int64_t>& groups, double reference_resolution_ns,
                          const StudyCell& cell, double confidence) {
  const double period = cell.resolution_ns;
  const int64_t count = static_cast<int64_t>(readings.size());
  const int64_t n = cell.prediction.n;
  Intervals out;
  const timing::TickFigureIntervals observed =
      timing::ObservedTickIntervals(readings, groups, period, n, confidence, true_ns);
  out.observed.share = observed.share;
  out.observed_zero_share = observed.zero_share;
  out.observed.sd_ns = observed.sd_ns;
  out.observed.mean_ns = timing::BatchMeansInterval(
      readings, timing::QuantizedSdFloor(period, count), timing::kDefaultBatches, confidence);
  const timing::TickFigureIntervals predicted = timing::PredictedTickIntervals(
      true_ns, groups, period, n, reference_resolution_ns, confidence);
  out.predicted.f = predicted.share;
  out.predicted.zero_share = predicted.zero_share;
  out.predicted.sd_ns = predicted.sd_ns;
  out.predicted.mean_ns =
      timing::BatchMeansInterval(true_ns, timing::QuantizedSdFloor(reference_resolution_ns, count),
                                 timing::kDefaultBatches, confidence);
  out.predicted.mean_ns.estimate = cell.prediction.mean_ns;
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
      c.theory_verdict() == StudyCell::TheoryVerdict::kNotJudged
          ? "not judged: it assumes uniform start phases, which these are not"
          : StudyCell::TheoryVerdictName(c.theory_verdict()),
      100 * timing::kTheoryCheckConfidence, c.prediction.n,
      WithRange(c.observed_intervals.share, c.observed.share_above_n, kShare),
      WithRange(c.predicted.f, c.prediction.f, kShare),
      WithRange(c.observed_zero_share_ci, c.observed_zero_share_ci.estimate, kShare),
      WithRange(c.predicted.zero_share, c.prediction.zero_share, kShare),
      WithRange(c.observed_intervals.sd_ns, c.observed.sd_ns, ns),
      WithRange(c.predicted.sd_ns, c.prediction.sd_ns, ns));
}

void SetTheoryFigures(const std::vector<double>& readings, const std::vector<double>& true_ns,
                      const std::vector<int64_t>& groups, double reference_resolution_ns,
                      StudyCell& cell) {
  cell.prediction = timing::PredictTickReadings(true_ns, cell.resolution_ns);
  cell.observed = timing::ObserveTickReadings(readings, cell.prediction);
  // What the report shows: 95% on both sides.
  const Intervals shown = TheoryIntervals(readings, true_ns, groups, reference_resolution_ns, cell,
                                          timing::kConfidence95);
  cell.observed_intervals = shown.observed;
  cell.observed_zero_share_ci = shown.observed_zero_share;
  cell.predicted = shown.predicted;
  // The verdict: the same intervals at the level that keeps three checks' false
  // disagreement within 5% (timing/theory/tick_theory.h, JudgeTickIntervals).
  const Intervals check = TheoryIntervals(readings, true_ns, groups, reference_resolution_ns, cell,
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
