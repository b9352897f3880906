#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/study_runner.h"
#include "harness/study_theory.h"
#include "timing/confidence.h"

// AggregateStudyRuns and SummarizeCell (declared in harness/study_runner.h): a study cell's
// figures from its runs, and their plain words.

namespace tickbench::harness {
namespace {

using StudyRun = StudyRunData;

double Percent(double part, double whole) { return whole != 0 ? 100 * part / whole : 0; }

double Mid(double before, double after) { return (before + after) / 2; }

// Readings whose clock and reference differ by more than T + 1 us: something (a
// preemption, an interrupt) fell between the two clocks' reads.
bool Disturbed(double reading, double truth, double resolution_ns) {
  return std::abs(reading - truth) > resolution_ns + 1000;
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
  double rate_clock_ns = 0, rate_reference_ns = 0, rate_slack_ns = 0;
  double chi_square = 0;
  int degrees = 0;
  int64_t samples = 0;
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
  const double skew = start_half + (run.stop_after_ns - run.stop_before_ns) / 2;
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
void AddRunReadings(const StudyRun& run, double run_confidence, StudyCell& cell, RunTotals& t) {
  const double period = cell.resolution_ns;
  std::vector<double> run_differences;
  double reading_sum = 0, truth_sum = 0;
  for (size_t i = 0; i < run.readings_ns.size(); ++i) {
    reading_sum += run.readings_ns[i];
    truth_sum += run.true_ns[i];
    if (!Disturbed(run.readings_ns[i], run.true_ns[i], period)) {
      run_differences.push_back(run.readings_ns[i] - run.true_ns[i]);
    }
  }
  if (!run.readings_ns.empty()) {
    cell.worst_run_bias_ns = std::max(cell.worst_run_bias_ns,
                                      std::abs(reading_sum - truth_sum) / run.readings_ns.size());
  }
  const timing::ConfidenceInterval run_bias =
      WithContinuity(timing::BatchMeansInterval(
                         run_differences, timing::QuantizedSdFloor(period, run_differences.size()),
                         timing::kDefaultBatches, run_confidence),
                     period, run_differences.size());
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
  t.chi_square += test.chi_square;
  t.degrees += test.degrees_of_freedom;
  t.samples += test.samples;
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
  std::vector<double> zeros(t.readings.size());
  for (size_t i = 0; i < t.readings.size(); ++i) zeros[i] = t.readings[i] == 0 ? 1 : 0;
  cell.zero_share_ci = timing::BatchMeansInterval(zeros, timing::QuantizedSdFloor(1, count));
  cell.zero_share_ci.low = std::max(0.0, cell.zero_share_ci.low);  // a share: within [0, 1]
  cell.zero_share_ci.high = std::min(1.0, cell.zero_share_ci.high);
  cell.sd_ci = ReadingSdInterval(t.readings, period);
  cell.median_ci = timing::QuantileInterval(t.readings, 0.5);
  cell.p99_ci = timing::QuantileInterval(t.readings, 0.99);
  cell.reference_median_ci = timing::QuantileInterval(t.true_ns, 0.5);
  const double difference_floor = timing::QuantizedSdFloor(period, t.differences.size());
  cell.bias_ci = WithContinuity(timing::BatchMeansInterval(t.differences, difference_floor), period,
                                t.differences.size());
  const timing::ConfidenceInterval pooled_test = WithContinuity(
      timing::BatchMeansInterval(t.differences, difference_floor, timing::kDefaultBatches, 0.975),
      period, t.differences.size());
  cell.biased = pooled_test.Excludes(0) || cell.runs_biased > 0;
}

// The tick histogram, the tick-reading theory's check, the phase test and the probe effect.
void SetTickFigures(const RunTotals& t, double reference_resolution_ns, StudyCell& cell) {
  const double period = cell.resolution_ns;
  cell.histogram.assign(16, 0);
  for (double r : t.readings) {
    const int64_t ticks = std::llround(std::max(0.0, r / period));
    ++cell.histogram[std::min<int64_t>(ticks, cell.histogram.size() - 1)];
  }
  std::vector<double> clean_readings, clean_true;
  for (size_t i = 0; i < t.readings.size(); ++i) {
    if (Disturbed(t.readings[i], t.true_ns[i], period)) {
      ++cell.disturbed_intervals;
      continue;
    }
    clean_readings.push_back(t.readings[i]);
    clean_true.push_back(t.true_ns[i]);
  }
  SetTheoryFigures(clean_readings, clean_true, reference_resolution_ns, cell);
  cell.prediction_applies = period >= 1000;
  cell.phase_test.chi_square = t.chi_square;
  cell.phase_test.degrees_of_freedom = t.degrees;
  cell.phase_test.samples = t.samples;
  cell.phase_test.p_value = timing::UpperIncompleteGammaRatio(t.degrees / 2.0, t.chi_square / 2.0);
  cell.loop_period_ns = t.loop_period.mean();
  // 20 bins, each at least 4 reference ticks wide.
  cell.phase_tested = cell.prediction_applies && t.samples > 0 &&
                      reference_resolution_ns * 20 * 4 <= period &&
                      cell.loop_period_ns >= period / 4;
  cell.phase_locked = cell.phase_tested && cell.phase_test.p_value < 1e-3;
  cell.probe_effect_ci = timing::QuantileInterval(t.probe_differences, 0.5);
  cell.probe_effect_ns_per_read = cell.probe_effect_ci.estimate;
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

// A percentage at two significant digits, signed.
std::string SignedPercent(double percent) {
  const std::string digits = Two(percent);
  return percent > 0 ? absl::StrCat("+", digits) : digits;
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
      absl::StrAppendFormat(&text, ", SD %.1fx the mean", p.sd / p.mean);
    }
  } else if (p.mean > 0 && p.sd > p.mean) {
    absl::StrAppendFormat(&text,
                          "per-iteration: SD is %.1fx the mean, as the reference's %.1fx: "
                          "the spread is the system's (preemption, interrupts), not the clock's",
                          p.sd / p.mean,
                          c.reference_per_iteration.mean > 0
                              ? c.reference_per_iteration.sd / c.reference_per_iteration.mean
                              : 0);
  } else {
    absl::StrAppendFormat(&text, "per-iteration: SD is %.0f%% of the mean", Percent(p.sd, p.mean));
  }
  if (p.zero_fraction >= 0.05 && p.max > 0) {
    absl::StrAppendFormat(&text, ", %.0f%% read 0", 100 * p.zero_fraction);
  }
  if (c.per_iteration_mean_ci.valid) {
    absl::StrAppendFormat(&text, ", mean %s ns", WithInterval(c.per_iteration_mean_ci));
  }
  // The mean test: bias only where the interval of the paired difference excludes 0.
  if (c.bias_ci.valid) {
    const double h = c.bias_ci.half_width();
    if (c.biased) {
      absl::StrAppendFormat(&text, ", mean biased by %s ns (%s%%; 95%% CI %s",
                            timing::FormatRounded(c.bias_ci.estimate, h),
                            SignedPercent(Percent(c.bias_ci.estimate, truth_d)), Range(c.bias_ci));
      if (c.runs_biased > 0) {
        absl::StrAppendFormat(&text, "; %d of %d runs biased on their own", c.runs_biased, c.runs);
      }
      absl::StrAppend(&text, ")");
      // Each pair is read clock first, reference second: a difference no larger than one
      // read of the clock can come from that order, not from the clock.
      if (c.read_cost_ns > 0 &&
          std::max(std::abs(c.bias_ci.low), std::abs(c.bias_ci.high)) <= c.read_cost_ns) {
        absl::StrAppendFormat(&text,
                              ", within one read of the clock (%s ns): the order of the "
                              "paired reads can make it",
                              Two(c.read_cost_ns));
      }
    } else {
      absl::StrAppendFormat(&text, ", no bias shown (mean - reference %s ns, 95%% CI covers 0)",
                            WithInterval(c.bias_ci));
    }
  }
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
    absl::StrAppendFormat(&text, "; start phases not uniform (chi-square p = %.2g)",
                          c.phase_test.p_value);
    absl::StrAppend(&text, c.biased ? " and the per-iteration mean is biased: try --dither"
                                    : " but no bias shown in the mean");
  }
  if (c.rate_bound_ppm > 0 || c.rate_ppm != 0) {
    absl::StrAppendFormat(&text, "; rate vs reference %s ppm (bound ± %s ppm)",
                          SignedPercent(c.rate_ppm), Two(c.rate_bound_ppm));
  }
}

}  // namespace

void AggregateStudyRuns(const std::vector<StudyRun>& runs, double reference_resolution_ns,
                        StudyCell& cell) {
  RunTotals totals;
  cell.reference_resolution_ns = reference_resolution_ns;
  // Each run at a Bonferroni share of 2.5%; the pooled test takes the other 2.5%.
  const double run_confidence = 1 - 0.025 / std::max<size_t>(1, runs.size());
  for (const StudyRun& run : runs) {
    AddRunAveraged(run, reference_resolution_ns, cell, totals);
    AddRunReadings(run, run_confidence, cell, totals);
  }
  cell.runs = static_cast<int>(runs.size());
  SetAveragedFigures(totals, reference_resolution_ns, !runs.empty(), cell);
  SetPerIterationFigures(totals, reference_resolution_ns, cell);
  SetTickFigures(totals, reference_resolution_ns, cell);
}

std::string SummarizeCell(const StudyCell& c) {
  std::string text = absl::StrFormat("%s at %d B: ", c.clock, c.size_bytes);
  AppendPerIterationWords(c, text);
  AppendAveragedWords(c, text);
  return text;
}

}  // namespace tickbench::harness
