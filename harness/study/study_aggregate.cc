// Over 400 lines because the figures and the words that must agree with them are kept together.
#include "harness/study/study_aggregate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/study/study_theory.h"
#include "platform/stop_signal.h"
#include "timing/stats/confidence.h"
#include "timing/theory/tick_intervals.h"

namespace tickbench::harness {
namespace {

using StudyRun = StudyRunData;

double Percent(double part, double whole) { return whole != 0 ? 100 * part / whole : 0; }

double Mid(double before, double after) { return (before + after) / 2; }

// The sum of the half widths of a run's two averaged-pass brackets (StudyCell::pair_skew_ns).
double PairSkew(const StudyRun& run) {
  return (run.start_after_ns - run.start_before_ns) / 2 +
         (run.stop_after_ns - run.stop_before_ns) / 2;
}

// The most an undisturbed pair of readings of one interval of a run can differ, apart from
// a rate difference (StudyCell::disturbed_intervals): T and the timestamp offset, the
// reference's resolution, and twice the run's pair skew (the sum of its two bracket widths,
// at least the widest: a clock read and the next reference read fall no further apart
// than a bracket when nothing comes between them).
double DisturbedThreshold(const StudyRun& run, double reference_resolution_ns,
                          const StudyCell& cell) {
  return cell.resolution_ns + cell.timestamp_offset_ns + reference_resolution_ns +
         2 * PairSkew(run);
}

// The largest rate difference of the clock against the reference over the run that its
// end reads allow (measured rate plus its bound; 0 without a span): a d-long interval may
// then differ by that times d as well.
double RunRateAllowance(const StudyRun& run, double reference_resolution_ns, double period) {
  const double span =
      Mid(run.end_before_ns, run.end_after_ns) - Mid(run.start_before_ns, run.start_after_ns);
  if (!(span > 0)) return 0;
  const double slack = period + (run.start_after_ns - run.start_before_ns) / 2 +
                       (run.end_after_ns - run.end_before_ns) / 2 + reference_resolution_ns;
  return std::abs((run.end_clock_ns - run.start_clock_ns) / span - 1) + slack / span;
}

// The mean of m readings on a grid of T moves in steps of T/m: widened by half a step
// (a continuity correction), so that a t interval over few two-valued readings does not
// reject more often than its level.
timing::ConfidenceInterval WithContinuity(timing::ConfidenceInterval ci, double period,
                                          size_t readings) {
  if (!ci.valid || readings == 0) return ci;
  const double half_step = period / (2.0 * static_cast<double>(readings));
  ci.low -= half_step;
  ci.high += half_step;
  return ci;
}

// What AggregateStudyRuns gathers over the runs of a cell before it sets the cell's figures.
struct RunTotals {
  timing::RunningStats loop_period;
  std::vector<double> truths, estimates, errors, run_bounds;
  std::vector<double> readings, true_ns, differences, probe_differences;
  std::vector<double> clean_readings, clean_true;   // undisturbed intervals
  std::vector<int64_t> run_sizes, clean_run_sizes;  // readings of each run, all and undisturbed
  double rate_clock_ns = 0, rate_reference_ns = 0, rate_slack_ns = 0;
  std::vector<double> phase_p_values;  // each run's phase test
  int64_t phase_samples = 0;
};

// Adds one run's averaged pass and rate to `t` and to the cell's worst-run figures.
void AddRunAveraged(const StudyRun& run, double reference_resolution_ns, StudyCell& cell,
                    RunTotals& t) {
  const double period = cell.resolution_ns;
  const double n = static_cast<double>(run.iterations > 0 ? run.iterations : cell.iterations);
  const double truth =
      (Mid(run.stop_before_ns, run.stop_after_ns) - Mid(run.start_before_ns, run.start_after_ns)) /
      n;
  const double estimate = (run.stop_clock_ns - run.start_clock_ns) / n;
  const double start_half = (run.start_after_ns - run.start_before_ns) / 2;
  const double skew = PairSkew(run);
  t.truths.push_back(truth);
  t.estimates.push_back(estimate);
  t.errors.push_back(estimate - truth);
  t.run_bounds.push_back((period + skew + reference_resolution_ns) / n);
  cell.pair_skew_ns = std::max(cell.pair_skew_ns, skew);
  cell.worst_run_error_ns = std::max(cell.worst_run_error_ns, std::abs(estimate - truth));
  // The rate over the run: the clock's advance against the reference's, from the pair
  // before the averaged pass to the pair after the per-iteration pass.
  const double span =
      Mid(run.end_before_ns, run.end_after_ns) - Mid(run.start_before_ns, run.start_after_ns);
  if (span > 0) {
    t.rate_clock_ns += run.end_clock_ns - run.start_clock_ns;
    t.rate_reference_ns += span;
    t.rate_slack_ns +=
        period + start_half + (run.end_after_ns - run.end_before_ns) / 2 + reference_resolution_ns;
  }
}

// Adds one run's per-iteration and probe readings and its phase test to `t`; counts the run
// as biased when its own test at `run_confidence` shows a bias.
void AddRunReadings(const StudyRun& run, double reference_resolution_ns, double run_confidence,
                    StudyCell& cell, RunTotals& t) {
  const double period = cell.resolution_ns;
  const double threshold = DisturbedThreshold(run, reference_resolution_ns, cell);
  const double rate = RunRateAllowance(run, reference_resolution_ns, period);
  cell.disturbed_threshold_ns = std::max(cell.disturbed_threshold_ns, threshold);
  std::vector<double> run_differences;
  double reading_sum = 0, truth_sum = 0;
  const size_t clean_before = t.clean_readings.size();
  for (size_t i = 0; i < run.readings_ns.size(); ++i) {
    reading_sum += run.readings_ns[i];
    truth_sum += run.true_ns[i];
    // The mean test takes every interval: leaving out those beyond the threshold would hide
    // a real bias larger than it. The theory's check (same instants assumed) takes the rest.
    const double difference = run.readings_ns[i] - run.true_ns[i];
    run_differences.push_back(difference);
    if (std::abs(difference) > threshold + rate * std::abs(run.true_ns[i])) {
      ++cell.disturbed_intervals;
      continue;
    }
    t.clean_readings.push_back(run.readings_ns[i]);
    t.clean_true.push_back(run.true_ns[i]);
  }
  t.run_sizes.push_back(static_cast<int64_t>(run.readings_ns.size()));
  t.clean_run_sizes.push_back(static_cast<int64_t>(t.clean_readings.size() - clean_before));
  if (!run.readings_ns.empty()) {
    cell.worst_run_bias_ns = std::max(cell.worst_run_bias_ns,
                                      std::abs(reading_sum - truth_sum) / run.readings_ns.size());
  }
  const timing::ConfidenceInterval run_bias =
      WithContinuity(timing::BatchMeansInterval(
                         run_differences, timing::QuantizedSdFloor(period, run_differences.size()),
                         timing::kDefaultBatches, run_confidence),
                     period, run_differences.size());
  cell.run_bias_cis.push_back(run_bias);
  if (run_bias.Excludes(0)) ++cell.runs_biased;
  t.differences.insert(t.differences.end(), run_differences.begin(), run_differences.end());
  for (size_t b = 0; b < std::min(run.plain_block_ns.size(), run.probed_block_ns.size()); ++b) {
    t.probe_differences.push_back(run.probed_block_ns[b] - run.plain_block_ns[b]);
  }
  t.loop_period.Add(run.loop_period_ns);
  t.readings.insert(t.readings.end(), run.readings_ns.begin(), run.readings_ns.end());
  t.true_ns.insert(t.true_ns.end(), run.true_ns.begin(), run.true_ns.end());
  // Each run has its own tick phase: test each run's phases and add the statistics.
  const timing::UniformityTest test = timing::TestUniformPhases(run.phases);
  t.phase_p_values.push_back(test.p_value);
  t.phase_samples += test.samples;
}

// The averaged figure, the rate and the averaged figure's bound, term by term.
void SetAveragedFigures(const RunTotals& t, double reference_resolution_ns, bool any_run,
                        StudyCell& cell) {
  const double period = cell.resolution_ns;
  const double iterations = static_cast<double>(cell.iterations);
  // Averaged figure: t across runs, the SD floored at what identical quantized runs allow.
  const double quantum = period / iterations;
  const double runs_floor = timing::QuantizedSdFloor(quantum, cell.runs);
  cell.truth_ci = timing::AcrossRunsInterval(
      t.truths, timing::QuantizedSdFloor(reference_resolution_ns / iterations, cell.runs));
  cell.averaged_ci = timing::AcrossRunsInterval(t.estimates, runs_floor);
  cell.averaged_error_ci = timing::AcrossRunsInterval(t.errors, runs_floor);
  timing::RunningStats truth_stats;
  for (double truth : t.truths) truth_stats.Add(truth);
  cell.truth_ns = truth_stats.mean();
  cell.truth_spread_ns = truth_stats.sd();
  cell.averaged_ns = cell.averaged_ci.estimate;
  cell.averaged_error_ns = cell.averaged_ns - cell.truth_ns;

  // Rate, then the bound term by term.
  if (t.rate_reference_ns > 0) {
    cell.rate_ppm = 1e6 * (t.rate_clock_ns / t.rate_reference_ns - 1);
    cell.rate_bound_ppm = 1e6 * t.rate_slack_ns / t.rate_reference_ns;
    cell.rate_shown_ppm = std::max(0.0, std::abs(cell.rate_ppm) - cell.rate_bound_ppm);
  }
  cell.averaged_bound_ns = quantum;
  cell.pairing_bound_ns = cell.pair_skew_ns / iterations;
  cell.reference_bound_ns = reference_resolution_ns / iterations;
  cell.rate_bound_ns = 1e-6 * cell.rate_shown_ppm * cell.truth_ns;
  cell.averaged_within_bound = any_run;
  for (size_t r = 0; r < t.errors.size(); ++r) {
    const double bound = t.run_bounds[r] + 1e-6 * cell.rate_shown_ppm * t.truths[r];
    // 1e-9 of the bound: floating-point rounding of the ns conversions, nothing more.
    if (std::abs(t.errors[r]) > bound * (1 + 1e-9)) cell.averaged_within_bound = false;
    if (bound > 0) {
      cell.worst_run_bound_ratio =
          std::max(cell.worst_run_bound_ratio, std::abs(t.errors[r]) / bound);
    }
  }
  SetPredictedBound(cell);
  if (cell.truth_ns > 0) {
    cell.averaged_unresolved = quantum > 0.1 * cell.truth_ns;
    cell.round_trips_to_resolve = static_cast<int64_t>(std::ceil(100 * period / cell.truth_ns));
  }
}

// The per-iteration statistics and their intervals, and the bias test.
void SetPerIterationFigures(const RunTotals& t, double reference_resolution_ns, StudyCell& cell) {
  const double period = cell.resolution_ns;
  // Per-iteration statistics and their intervals.
  cell.per_iteration = timing::Summarize(t.readings);
  cell.reference_per_iteration = timing::Summarize(t.true_ns);
  cell.per_iteration_truth_ns = cell.reference_per_iteration.mean;
  cell.single_reading_unresolved =
      cell.per_iteration_truth_ns > 0 && period > 0.1 * cell.per_iteration_truth_ns;
  const int64_t count = static_cast<int64_t>(t.readings.size());
  cell.per_iteration_mean_ci =
      timing::BatchMeansInterval(t.readings, timing::QuantizedSdFloor(period, count));
  cell.reference_mean_ci = timing::BatchMeansInterval(
      t.true_ns, timing::QuantizedSdFloor(reference_resolution_ns, count));
  // The zero share and the SD as the theory's check has them (timing/theory/tick_intervals.h),
  // over every reading: the same intervals wherever no interval was disturbed.
  const timing::TickFigureIntervals figures = timing::ObservedTickIntervals(
      t.readings, timing::TickGroupSizes(t.run_sizes), period, 0, timing::kConfidence95, t.true_ns);
  cell.zero_share_ci = figures.zero_share;
  cell.sd_ci = figures.sd_ns;
  cell.median_ci = timing::QuantileInterval(t.readings, 0.5);
  cell.p99_ci = timing::QuantileInterval(t.readings, 0.99);
  cell.reference_median_ci = timing::QuantileInterval(t.true_ns, 0.5);
  const double difference_floor = timing::QuantizedSdFloor(period, t.differences.size());
  cell.bias_ci = WithContinuity(timing::BatchMeansInterval(t.differences, difference_floor), period,
                                t.differences.size());
  cell.bias_test_confidence = 1 - kBiasTestLevel / 2;
  cell.bias_test_ci =
      WithContinuity(timing::BatchMeansInterval(t.differences, difference_floor,
                                                timing::kDefaultBatches, cell.bias_test_confidence),
                     period, t.differences.size());
  cell.biased = cell.bias_test_ci.Excludes(0) || cell.runs_biased > 0;
}

// The tick histogram, the tick-reading theory's check, the phase test and the probe effect.
void SetTickFigures(const RunTotals& t, double reference_resolution_ns, StudyCell& cell) {
  const double period = cell.resolution_ns;
  cell.histogram.assign(16, 0);
  for (double r : t.readings) {
    const int64_t ticks = std::llround(std::max(0.0, r / period));
    ++cell.histogram[std::min<int64_t>(ticks, cell.histogram.size() - 1)];
  }
  SetTheoryFigures(t.clean_readings, t.clean_true, timing::TickGroupSizes(t.clean_run_sizes),
                   reference_resolution_ns, cell);
  cell.prediction_applies = period >= 1000;
  cell.phase_test = timing::CombinePValues(t.phase_p_values);
  cell.loop_period_ns = t.loop_period.mean();
  // 20 bins, each at least 4 reference ticks wide.
  cell.phase_tested = cell.prediction_applies && t.phase_samples > 0 &&
                      reference_resolution_ns * 20 * 4 <= period &&
                      cell.loop_period_ns >= period / 4;
  cell.phase_locked = cell.phase_tested && cell.phase_test.p_value < 1e-3;
  cell.probe_effect_ci = timing::QuantileInterval(t.probe_differences, 0.5);
  // No blocks (virtual time, study_runner.cc): no figure (NaN, harness/engine/no_figure.h).
  cell.probe_effect_ns_per_read = cell.probe_effect_ci.valid
                                      ? cell.probe_effect_ci.estimate
                                      : std::numeric_limits<double>::quiet_NaN();
}

// "12000 ± 4400 ns" from an interval; the bare value when it is invalid.
std::string WithInterval(const timing::ConfidenceInterval& ci) {
  if (!ci.valid) return timing::FormatRounded(ci.estimate, 0);
  return timing::FormatWithHalfWidth(ci.estimate, ci.half_width());
}

std::string Range(const timing::ConfidenceInterval& ci) {
  const double h = ci.half_width();
  return absl::StrFormat("[%s, %s]", timing::FormatRounded(ci.low, h),
                         timing::FormatRounded(ci.high, h));
}

// Two significant digits, without an exponent, for a figure beside its bound.
std::string Two(double value) { return timing::FormatRounded(value, std::abs(value)); }

// A confidence level as a percentage, to the digits that name it: "97.5", "99.375".
std::string Level(double confidence) { return absl::StrFormat("%.6g", 100 * confidence); }

// "pooled 97.5% CI [0.03, 4.1] excludes 0": the interval at two significant digits of its
// half-width, with more digits where rounding would put an end on or across 0, so that the
// printed ends always lie on the side of 0 that the interval does.
std::string TestInterval(const timing::ConfidenceInterval& ci, double confidence,
                         const std::string& name) {
  double h = ci.half_width();
  const bool excludes = ci.Excludes(0);
  for (int more = 0; more < 15 && h > 0; ++more, h /= 10) {
    const double low = timing::RoundToInterval(ci.low, h);
    const double high = timing::RoundToInterval(ci.high, h);
    if (!excludes || low > 0 || high < 0) break;
  }
  return absl::StrFormat("%s%s%% CI [%s, %s] %s 0", name, Level(confidence),
                         timing::FormatRounded(ci.low, h), timing::FormatRounded(ci.high, h),
                         excludes ? "excludes" : "covers");
}

// "-5000000 ns, -100%": the estimate and its share of the truth, each rounded to the
// interval, the share to two significant digits at most.
std::string BiasFigure(const timing::ConfidenceInterval& ci, double truth_ns) {
  const double h = ci.half_width();
  const double raw_percent = Percent(ci.estimate, truth_ns);
  const double percent_half = std::max(Percent(h, truth_ns), std::abs(raw_percent));
  const double percent = timing::RoundToInterval(raw_percent, percent_half);
  return absl::StrFormat("%s ns, %s%s%%", timing::FormatRounded(ci.estimate, h),
                         percent > 0 ? "+" : "", timing::FormatRounded(percent, percent_half));
}

// The biased run to name: the one whose interval lies furthest from 0 in half-widths.
int StrongestBiasedRun(const StudyCell& c) {
  int best = -1;
  double best_distance = -1;
  for (size_t r = 0; r < c.run_bias_cis.size(); ++r) {
    const timing::ConfidenceInterval& ci = c.run_bias_cis[r];
    if (!ci.Excludes(0)) continue;
    const double h = ci.half_width() > 0 ? ci.half_width() : 1;
    const double distance = std::min(std::abs(ci.low), std::abs(ci.high)) / h;
    if (distance > best_distance) best = static_cast<int>(r), best_distance = distance;
  }
  return best;
}

// The disturbed intervals left out of the theory's check, and the rule.
void AppendDisturbedWords(const StudyCell& c, std::string& text) {
  if (c.disturbed_intervals == 0 || !c.prediction_applies) return;
  absl::StrAppendFormat(
      &text,
      ", %d disturbed intervals left out of the theory's check (clock and reference readings "
      "apart "
      "by over T%s + reference resolution + twice the run's pair skew, at "
      "most %s ns, + the rate bound x d)",
      c.disturbed_intervals, c.timestamp_offset_ns > 0 ? " + uniqtime's T - 1 us" : "",
      absl::StrFormat("%.0f", std::ceil(c.disturbed_threshold_ns)));
}

// The mean test's words (StudyCell::biased): the interval that decided, at its level, and
// the intervals that did not, each with its relation to 0; the test's false-"biased" rate.
// Returns the interval that decided "biased", or nullptr.
const timing::ConfidenceInterval* AppendBiasWords(const StudyCell& c, std::string& text) {
  const timing::ConfidenceInterval& pooled = c.bias_test_ci;
  const double truth = c.per_iteration_truth_ns;
  const std::string pooled_words = TestInterval(pooled, c.bias_test_confidence, "pooled ");
  const int run = StrongestBiasedRun(c);
  const timing::ConfidenceInterval* decided = nullptr;
  if (pooled.Excludes(0)) {
    decided = &pooled;
    absl::StrAppendFormat(&text, ", mean biased by %s (%s", BiasFigure(pooled, truth),
                          pooled_words);
    if (c.runs_biased > 0) {
      absl::StrAppendFormat(&text, "; %d of %d runs' own %s%% CIs exclude 0 too", c.runs_biased,
                            c.runs, Level(c.run_bias_confidence));
    }
  } else if (run >= 0) {
    decided = &c.run_bias_cis[run];
    absl::StrAppendFormat(&text, ", mean biased in %d of %d runs on their own (run %d by %s; %s",
                          c.runs_biased, c.runs, run + 1, BiasFigure(*decided, truth),
                          TestInterval(*decided, c.run_bias_confidence, "its own "));
    absl::StrAppendFormat(&text, "; but not pooled: mean %s ns, %s",
                          timing::FormatRounded(pooled.estimate, pooled.half_width()),
                          pooled_words);
  } else {
    absl::StrAppendFormat(&text, ", no bias shown (mean - reference %s ns; %s",
                          timing::FormatRounded(pooled.estimate, pooled.half_width()),
                          pooled_words);
    if (c.runs > 1) {
      absl::StrAppendFormat(&text, ", as does each run's own %s%% CI",
                            Level(c.run_bias_confidence));
    }
  }
  absl::StrAppendFormat(&text, "; at most %s%% of unbiased cells are called biased)",
                        Level(kBiasTestLevel));
  return decided;
}

// The mean test's words, the disturbed intervals, and the read-order caveat.
void AppendMeanTestWords(const StudyCell& c, std::string& text) {
  if (!c.bias_test_ci.valid) return;
  const timing::ConfidenceInterval* decided = AppendBiasWords(c, text);
  AppendDisturbedWords(c, text);
  // Each pair is read clock first, reference second: a difference no larger than one read of
  // the clock can come from that order, not from the clock.
  if (decided != nullptr && c.read_cost_ns > 0 &&
      std::max(std::abs(decided->low), std::abs(decided->high)) <= c.read_cost_ns) {
    absl::StrAppendFormat(&text,
                          ", within one read of the clock (%s ns): the order of the paired reads "
                          "can make it",
                          Two(c.read_cost_ns));
  }
}

// The per-iteration words of SummarizeCell: spread, zero readings, mean and bias.
void AppendPerIterationWords(const StudyCell& c, std::string& text) {
  const timing::Summary& p = c.per_iteration;
  const double truth_d = c.per_iteration_truth_ns;
  if (p.count > 0 && p.max == 0) {
    absl::StrAppend(&text, "per-iteration: every reading is 0");
  } else if (c.single_reading_unresolved) {
    absl::StrAppendFormat(&text,
                          "per-iteration: single readings unresolved (T = %s ns is %.0f%% of the "
                          "RTT)",
                          Two(c.resolution_ns), Percent(c.resolution_ns, truth_d));
    if (p.mean > 0 && p.sd > p.mean) {
      absl::StrAppendFormat(&text, ", SD %sx the mean", Two(p.sd / p.mean));
    }
  } else if (p.mean > 0 && p.sd > p.mean) {
    absl::StrAppendFormat(&text,
                          "per-iteration: SD is %sx the mean, as the reference's %sx: "
                          "the spread is the system's (preemption, interrupts), not the clock's",
                          Two(p.sd / p.mean),
                          Two(c.reference_per_iteration.mean > 0
                                  ? c.reference_per_iteration.sd / c.reference_per_iteration.mean
                                  : 0));
  } else {
    absl::StrAppendFormat(&text, "per-iteration: SD is %.0f%% of the mean", Percent(p.sd, p.mean));
  }
  if (p.zero_fraction >= 0.05 && p.max > 0) {
    absl::StrAppendFormat(&text, ", %.0f%% read 0", 100 * p.zero_fraction);
  }
  if (c.per_iteration_mean_ci.valid) {
    absl::StrAppendFormat(&text, ", mean %s ns", WithInterval(c.per_iteration_mean_ci));
  }
  AppendMeanTestWords(c, text);
}

// The rest of SummarizeCell's words: the median, the averaged figure and its bound, the theory's
// check, the phases and the rate.
void AppendAveragedWords(const StudyCell& c, std::string& text) {
  // The median against the reference's: claimed off only where its interval excludes the
  // reference's median.
  if (c.median_ci.valid && c.reference_median_ci.valid &&
      c.median_ci.Excludes(c.reference_median_ci.estimate) && c.reference_median_ci.estimate > 0) {
    absl::StrAppendFormat(
        &text, ", median off by %+.0f%% (95%% CI %s ns excludes the reference's %s)",
        Percent(c.median_ci.estimate - c.reference_median_ci.estimate,
                c.reference_median_ci.estimate),
        Range(c.median_ci),
        timing::FormatRounded(c.reference_median_ci.estimate, c.reference_median_ci.half_width()));
  }
  // Averaged: the figure, whether it resolves the RTT, and its bound with every term.
  absl::StrAppendFormat(&text, "; averaged %s ns", WithInterval(c.averaged_ci));
  if (c.averaged_unresolved) {
    absl::StrAppendFormat(&text,
                          ", UNRESOLVED: T/N = %s ns is %.0f%% of the RTT; N >= 100 T/d = %d round "
                          "trips would resolve it to 1%%",
                          Two(c.averaged_bound_ns), Percent(c.averaged_bound_ns, c.truth_ns),
                          c.round_trips_to_resolve);
  }
  absl::StrAppendFormat(
      &text,
      ", worst run's error %s ns %s its bound (bound %s ns = T/N %s + pairing %s + reference "
      "%s + rate %s)",
      Two(c.worst_run_error_ns), c.averaged_within_bound ? "within" : "BEYOND",
      Two(c.total_bound_ns()), Two(c.averaged_bound_ns), Two(c.pairing_bound_ns),
      Two(c.reference_bound_ns), Two(c.rate_bound_ns));
  if (c.prediction_applies) absl::StrAppend(&text, TheoryWords(c));
  if (c.phase_locked) {
    absl::StrAppendFormat(&text, "; start phases not uniform (phase test p = %.2g)",
                          c.phase_test.p_value);
    absl::StrAppend(&text, c.biased ? " and the per-iteration mean is biased: try --dither"
                                    : " but no bias shown in the mean");
  }
  if (c.rate_bound_ppm > 0 || c.rate_ppm != 0) {
    // The rate to the digits of its bound: a hard bound, not an interval, but what the end
    // reads allow; "0.0 ± 1.5 ppm", not "-0.0098 ppm".
    const double rate = timing::RoundToInterval(c.rate_ppm, c.rate_bound_ppm);
    absl::StrAppendFormat(&text,
                          "; rate vs reference %s%s ± %s ppm (± the most the end reads' "
                          "quantization and pairing allow)",
                          rate > 0 ? "+" : "", timing::FormatRounded(rate, c.rate_bound_ppm),
                          timing::FormatRounded(c.rate_bound_ppm, c.rate_bound_ppm));
  }
}

}  // namespace

void AggregateStudyRuns(const std::vector<StudyRun>& runs, double reference_resolution_ns,
                        StudyCell& cell) {
  RunTotals totals;
  cell.reference_resolution_ns = reference_resolution_ns;
  // What the runs accumulate starts afresh (a cell may be aggregated again).
  cell.pair_skew_ns = cell.worst_run_error_ns = cell.worst_run_bias_ns = 0;
  cell.worst_run_bound_ratio = cell.disturbed_threshold_ns = 0;
  cell.runs_biased = 0;
  cell.disturbed_intervals = 0;
  cell.run_bias_cis.clear();
  // Each run at a Bonferroni share of half the test's level; the pooled test takes the
  // other half.
  cell.run_bias_confidence = 1 - kBiasTestLevel / 2 / std::max<size_t>(1, runs.size());
  // A stop request cuts a long aggregation short between its steps (the caller then
  // leaves the cell without figures; study_runner.h).
  size_t readings = 0;
  for (const StudyRun& run : runs) readings += run.readings_ns.size();
  const auto stopped = [readings] {
    return readings > kReadingsAggregatedAfterAStop && platform::StopRequested();
  };
  for (const StudyRun& run : runs) {
    if (stopped()) return;
    AddRunAveraged(run, reference_resolution_ns, cell, totals);
    AddRunReadings(run, reference_resolution_ns, cell.run_bias_confidence, cell, totals);
  }
  cell.runs = static_cast<int>(runs.size());
  if (stopped()) return;
  SetAveragedFigures(totals, reference_resolution_ns, !runs.empty(), cell);
  if (stopped()) return;
  SetPerIterationFigures(totals, reference_resolution_ns, cell);
  if (stopped()) return;
  SetTickFigures(totals, reference_resolution_ns, cell);
}

std::string SummarizeCell(const StudyCell& c) {
  std::string text = absl::StrFormat("%s at %d B: ", c.clock, c.size_bytes);
  AppendPerIterationWords(c, text);
  AppendAveragedWords(c, text);
  return text;
}

}  // namespace tickbench::harness
