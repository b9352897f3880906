// One clock at one size in the timer-resolution study (measured by RunStudy,
// harness/study/study_runner.h): the figures, their intervals, the theory's verdict and the
// cell in plain words. On its own so that whatever reports a study (tables, CSV, JSON,
// plots, the HTML page) depends on the cell, not on the measurement engine.
#ifndef HARNESS_STUDY_STUDY_CELL_H_
#define HARNESS_STUDY_STUDY_CELL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "timing/stats/confidence.h"
#include "timing/stats/statistics.h"
#include "timing/theory/tick_theory.h"

namespace tickbench::harness {

// The bias test's overall false-"biased" rate (see StudyCell::biased).
inline constexpr double kBiasTestLevel = 0.05;

// One clock at one size, all runs together.
struct StudyCell {
  std::string clock;  // spec
  std::string clock_name;
  size_t size_bytes = 0;
  int runs = 0;
  int64_t iterations = 0;
  // Why N is not the one that resolves the averaged figure to 1% (the study chose it:
  // StudyOptions::choose), or "".
  std::string count_note;
  double resolution_ns = 0;  // T: the larger of claimed and observed resolution

  double truth_ns = 0;            // reference, averaged pass, mean over runs
  double truth_spread_ns = 0;     // its SD across runs
  double averaged_ns = 0;         // the clock's averaged estimate, mean over runs
  double averaged_error_ns = 0;   // averaged_ns - truth_ns
  double worst_run_error_ns = 0;  // largest |estimate - truth| of one run
  // 95% intervals across runs (Student t; each run has its own tick phase, so the spread
  // across runs holds the quantization). The SD is floored at
  // timing::QuantizedSdFloor(T/N, runs): runs that all read the same quantum still get an
  // interval as wide as the quantization allows.
  timing::ConfidenceInterval truth_ci;
  timing::ConfidenceInterval averaged_ci;
  timing::ConfidenceInterval averaged_error_ci;  // paired per run: estimate - truth
  // The bound on one run's averaged error, term by term (ns per round trip); nothing is
  // added that is not listed here.
  double averaged_bound_ns = 0;   // T / N: the clock's quantization
  double pairing_bound_ns = 0;    // the worst run's pairing skew / N (see pair_skew_ns)
  double reference_bound_ns = 0;  // the reference's resolution / N
  double reference_resolution_ns = 0;
  double rate_bound_ns = 0;  // the rate difference shown (rate_shown_ppm) x the truth
  double total_bound_ns() const {
    return averaged_bound_ns + pairing_bound_ns + reference_bound_ns + rate_bound_ns;
  }
  // Every run's |error| within its own bound (its own skew), all four terms.
  bool averaged_within_bound = false;
  double worst_run_bound_ratio = 0;  // largest |error| / bound of one run
  // The clock and the reference are read as reference, clock, reference at both ends of
  // each averaged pass (the narrowest of 3 such brackets): the clock's read lies within
  // the bracket, so the truth of its interval is known to within the two brackets' half
  // widths. pair_skew_ns is the largest such sum over the runs (ns, whole loop).
  double pair_skew_ns = 0;
  // The clock's rate against the reference's over each run (from the start of the
  // averaged pass to the end of the per-iteration pass), all runs pooled, in ppm;
  // rate_bound_ppm the largest deviation the quantization and pairing of the end reads
  // allow (not statistical: a hard bound). rate_shown_ppm is the part of |rate| beyond
  // that bound (0 when the bound covers it): the rate difference the data show.
  double rate_ppm = 0;
  double rate_bound_ppm = 0;
  double rate_shown_ppm = 0;
  // Resolution: the averaged figure is unresolved where T/N exceeds 10% of the RTT, a
  // single reading where T does; N >= 100 T / d round trips resolve the averaged figure
  // to 1%.
  bool averaged_unresolved = false;
  bool single_reading_unresolved = false;
  int64_t round_trips_to_resolve = 0;  // ceil(100 T / d)

  timing::Summary per_iteration;            // the clock's readings, all runs pooled
  double per_iteration_truth_ns = 0;        // mean of the reference's readings, same intervals
  timing::Summary reference_per_iteration;  // the reference's readings of the same intervals
  // 95% intervals of the per-iteration statistics: the mean by batch means (20 contiguous
  // batches of the pooled readings, in time order; its SD floored at
  // timing::QuantizedSdFloor(T, readings)); the zero share and the SD of one reading
  // (per_iteration.sd) across independent groups of readings, the runs
  // (timing::ObservedTickIntervals: the same intervals as the theory's where no interval
  // was disturbed); the median and p99 from order statistics (they assume independent
  // readings).
  timing::ConfidenceInterval per_iteration_mean_ci;
  timing::ConfidenceInterval sd_ci;
  timing::ConfidenceInterval reference_mean_ci;
  timing::ConfidenceInterval zero_share_ci;
  timing::ConfidenceInterval median_ci;
  timing::ConfidenceInterval p99_ci;
  timing::ConfidenceInterval reference_median_ci;
  // The mean test: the per-iteration bias, mean(reading - reference reading) over the same
  // intervals (all of them, disturbed or not), by batch means of the paired differences (the
  // correlation of back-to-back readings stays inside the batches). `biased` only when an interval
  // of the test excludes 0: the pooled one at 1 - kBiasTestLevel / 2 (97.5%), or one run's own at
  // 1 - kBiasTestLevel / (2 runs) (Bonferroni: 99.375% for 4 runs), so that an unbiased
  // clock is called biased in at most kBiasTestLevel = 5% of cells (2.5% pooled + 2.5%
  // over the runs; harness/study/study_coverage_test). Each interval is widened by half the step
  // of a mean of m readings on the tick grid, T / 2m (continuity). The words
  // (SummarizeCell) print the intervals of the test, never bias_ci.
  timing::ConfidenceInterval bias_ci;       // 95%, pooled (the CSV and JSON columns)
  timing::ConfidenceInterval bias_test_ci;  // pooled, at bias_test_confidence
  double bias_test_confidence = 0;
  std::vector<timing::ConfidenceInterval> run_bias_cis;  // each run's own, in run order
  double run_bias_confidence = 0;
  bool biased = false;
  int runs_biased = 0;  // runs whose own interval excludes 0
  // The largest |mean reading - mean truth| of one run: a locked phase biases each run,
  // and runs locked at different phases can cancel in the pooled mean.
  double worst_run_bias_ns = 0;
  std::vector<int64_t> histogram;  // readings in ticks of T: 0, 1, 2, ... (last: more)

  // Intervals where the clock's reading and the reference's differ by more than an
  // undisturbed pair can: T (the clock's quantization) + timestamp_offset_ns + the
  // reference's resolution + twice the run's pair skew (the widest of its two
  // narrowest-of-3 brackets bounds how far apart a clock read and the next reference read
  // fall when nothing comes between them). Beyond that, something (a preemption, an
  // interrupt) fell between the two clocks' reads, so the pair says nothing about
  // quantization: left out of the theory's check. The mean test keeps them: leaving out
  // the intervals beyond a threshold would hide a real bias larger than it.
  int64_t disturbed_intervals = 0;
  double disturbed_threshold_ns = 0;  // the largest of the runs' thresholds
  // How far one reading may sit above its tick edge besides the quantization: T - 1 us
  // for a uniqtime tick (each read in a tick adds 1 us), 0 otherwise.
  double timestamp_offset_ns = 0;
  timing::TickPrediction prediction;
  timing::TickObservation observed;
  // The theory's check (timing::JudgeTickIntervals): the observed and predicted intervals
  // of the share above n, the mean and the SD must overlap, each at
  // timing::kTheoryCheckConfidence, so that a cell where the theory holds is called
  // DISAGREES in at most 5% of cases. What the report shows are the 95% intervals below,
  // over the same (undisturbed) intervals: the shares and the SD, observed and predicted,
  // across independent groups of intervals, the runs (timing/theory/tick_intervals.h); the mean
  // by batch means of the readings and of the reference's durations.
  timing::TickVerdict verdict;
  timing::TickIntervals observed_intervals;
  timing::ConfidenceInterval observed_zero_share_ci;  // of 0-tick readings
  timing::TickPredictionIntervals predicted;
  // The averaged figure's quantization bound T/N as a share of the RTT (%), with its
  // interval from the truth's (truth_ci): 100 T / (N d) at d's ends.
  double predicted_bound_percent = 0;
  timing::ConfidenceInterval predicted_bound_percent_ci;
  bool prediction_applies = false;  // T above 1 us: quantization dominates

  // Of the start phases within T: each run's test (timing::TestUniformPhases, Hotelling's T²
  // over batch means of the first two harmonics, which holds its level for the wandering
  // phases of back-to-back round trips), combined over the runs by Fisher's method.
  timing::CombinedTest phase_test;
  // Tested where T is above 1 us, the reference resolves T finely enough, and the loop
  // period P (round trip plus pause) is at least T/4: with P << T the phase sweeps the
  // tick in small steps, uniform by construction (no lock can bias by more than P), and
  // successive phases are too dependent for a chi-square test.
  bool phase_tested = false;
  double loop_period_ns = 0;
  bool phase_locked = false;  // p < 1e-3: "phases not uniform", not a bias

  // The theory's verdict, the one every report reads (words, table, CSV, JSON, page):
  // "n/a" where the prediction does not apply, "DISAGREES" where a check fails, "not
  // judged" where the phases are not uniform (the prediction assumes they are, so an
  // agreement is no evidence against a lock), "agrees" otherwise.
  enum class TheoryVerdict { kNotApplicable, kDisagrees, kNotJudged, kAgrees };
  TheoryVerdict theory_verdict() const {
    if (!prediction_applies) return TheoryVerdict::kNotApplicable;
    if (!verdict.agrees()) return TheoryVerdict::kDisagrees;
    return phase_locked ? TheoryVerdict::kNotJudged : TheoryVerdict::kAgrees;
  }
  static const char* TheoryVerdictName(TheoryVerdict v) {
    switch (v) {
      case TheoryVerdict::kNotApplicable:
        return "n/a";
      case TheoryVerdict::kDisagrees:
        return "DISAGREES";
      case TheoryVerdict::kNotJudged:
        return "not judged";
      case TheoryVerdict::kAgrees:
        return "agrees";
    }
    return "n/a";
  }

  // Median over pairs of interleaved blocks (one without, the next with a clock read per
  // round trip) of the difference in reference time per round trip: a median, because one
  // preemption in a block would otherwise outweigh a 30 ns read; its 95% interval from
  // order statistics.
  double probe_effect_ns_per_read = 0;
  timing::ConfidenceInterval probe_effect_ci;
  double read_cost_ns = 0;  // from the clock probe

  std::string summary;  // the cell in plain words
  std::string error;    // why it ended early, or ""
};

}  // namespace tickbench::harness

#endif  // HARNESS_STUDY_STUDY_CELL_H_
