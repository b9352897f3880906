// A study cell's N chosen from its round trip (study_runner.h: ChooseCellIterations), and a
// cell without figures (MarkUnmeasured).
#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"
#include "harness/engine/no_figure.h"
#include "harness/study/study_runner.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

// No interval, and no estimate to show in its place.
void MarkUnmeasured(timing::ConfidenceInterval& ci) {
  ci = timing::ConfidenceInterval();
  ci.estimate = ci.low = ci.high = kNoFigure;
}

// The cell's figures that are single numbers.
void MarkNumbersUnmeasured(StudyCell& c) {
  double* const figures[] = {&c.truth_ns,
                             &c.truth_spread_ns,
                             &c.averaged_ns,
                             &c.averaged_error_ns,
                             &c.worst_run_error_ns,
                             &c.averaged_bound_ns,
                             &c.pairing_bound_ns,
                             &c.reference_bound_ns,
                             &c.rate_bound_ns,
                             &c.worst_run_bound_ratio,
                             &c.pair_skew_ns,
                             &c.rate_ppm,
                             &c.rate_bound_ppm,
                             &c.rate_shown_ppm,
                             &c.per_iteration_truth_ns,
                             &c.worst_run_bias_ns,
                             &c.disturbed_threshold_ns,
                             &c.prediction.f,
                             &c.prediction.mean_ns,
                             &c.prediction.sd_ns,
                             &c.prediction.zero_share,
                             &c.prediction.share_standard_error,
                             &c.prediction.mean_standard_error_ns,
                             &c.prediction.sd_standard_error_ns,
                             &c.observed.share_above_n,
                             &c.observed.mean_ns,
                             &c.observed.sd_ns,
                             &c.predicted_bound_percent,
                             &c.phase_test.chi_square,
                             &c.phase_test.p_value,
                             &c.loop_period_ns,
                             &c.probe_effect_ns_per_read};
  for (double* figure : figures) *figure = kNoFigure;
}

}  // namespace

void MarkUnmeasured(StudyCell& c) {
  MarkNumbersUnmeasured(c);
  MarkUnmeasured(c.per_iteration);
  MarkUnmeasured(c.reference_per_iteration);
  timing::ConfidenceInterval* const intervals[] = {&c.truth_ci,
                                                   &c.averaged_ci,
                                                   &c.averaged_error_ci,
                                                   &c.per_iteration_mean_ci,
                                                   &c.sd_ci,
                                                   &c.reference_mean_ci,
                                                   &c.zero_share_ci,
                                                   &c.median_ci,
                                                   &c.p99_ci,
                                                   &c.reference_median_ci,
                                                   &c.bias_ci,
                                                   &c.bias_test_ci,
                                                   &c.observed_intervals.share,
                                                   &c.observed_intervals.mean_ns,
                                                   &c.observed_intervals.sd_ns,
                                                   &c.observed_zero_share_ci,
                                                   &c.predicted.mean_ns,
                                                   &c.predicted.f,
                                                   &c.predicted.zero_share,
                                                   &c.predicted.sd_ns,
                                                   &c.predicted_bound_percent_ci,
                                                   &c.probe_effect_ci};
  for (timing::ConfidenceInterval* ci : intervals) MarkUnmeasured(*ci);
  c.observed.share_ci95 = c.observed_intervals.share;
}

CellCount ChooseCellIterations(const StudyOptions& options, double resolution_ns, double rtt_ns,
                               size_t cells) {
  CellCount count;
  count.iterations = options.iterations;
  if (!(rtt_ns > 0) || !(resolution_ns > 0)) {
    count.note = "the pilot timed no round trip: N kept";
    return count;
  }
  // T/N within 1% of the round trip: N >= 100 T / d.
  const double resolving = std::ceil(100 * resolution_ns / rtt_ns);
  // Each run makes 4 N round trips (averaged, probe twice, per-iteration) plus the
  // per-iteration pass's gaps; with the clock reads, pilots and warm-ups a study took 1.37x
  // that on a 2-vCPU VM (82 s for a 60 s budget), so 5.5 round trips are counted per N.
  // The budget is shared evenly by the cells.
  const double per_trip = 5.5 * rtt_ns + absl::ToDoubleNanoseconds(options.gap);
  const double in_budget = std::floor(absl::ToDoubleNanoseconds(options.choose.budget) /
                                      static_cast<double>(std::max<size_t>(1, cells)) /
                                      std::max(1, options.runs) / per_trip);
  const double most = static_cast<double>(options.choose.max_iterations);
  double n = std::max(static_cast<double>(options.iterations), resolving);
  if (n > in_budget || n > most) {
    n = std::max(static_cast<double>(options.iterations), std::min(in_budget, most));
    count.note = absl::StrFormat(
        "N = %.0f resolves T/N to 1%% of the %.3g us round trip; %s allows %.0f", resolving,
        rtt_ns / 1e3, in_budget < most ? "the time budget (--max_time)" : "the array limit",
        std::min(in_budget, most));
  }
  count.iterations = static_cast<int64_t>(n);
  return count;
}

}  // namespace tickbench::harness
