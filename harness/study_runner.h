// The timer-resolution study: the same round trips read by each clock in turn, against
// the reference clock read at the same instants, held against what the theory of a
// coarse tick predicts (timing/tick_theory.h).
//
// For each clock, size and run, three interleaved passes of N round trips:
//   averaged  one reading of each clock before and after the loop: the whole-loop
//             estimate, whose error is below T/N for any phase;
//   probe     the clock read after every round trip, the reference only around the
//             loop: against `averaged`, the cost a per-iteration read adds (the probe
//             effect);
//   per-iteration  both clocks read at the start and the end of every round trip, with
//             an optional pause between round trips (a fixed gap, and with dithering a
//             seeded random pause in [0, T)) that moves the next start's phase.
#ifndef HARNESS_STUDY_RUNNER_H_
#define HARNESS_STUDY_RUNNER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "harness/run_record.h"
#include "timing/clock.h"
#include "timing/clock_probe.h"
#include "timing/confidence.h"
#include "timing/statistics.h"
#include "timing/tick_clock.h"
#include "timing/tick_theory.h"
#include "transport/transport.h"

namespace tickbench::harness {

// The bias test's overall false-"biased" rate (see StudyCell::biased).
inline constexpr double kBiasTestLevel = 0.05;

struct StudyOptions {
  std::vector<size_t> sizes;
  int runs = 4;
  int64_t iterations = 1000;
  int64_t warmup = 100;
  absl::Duration gap;   // unmeasured time between per-iteration round trips
  bool dither = false;  // add a random pause in [0, T) before each round trip
  uint64_t seed = 1;
  bool rephase_tick_clocks = true;  // a new random tick phase per run and size
  // The reference's own resolution: phases within T are tested only where the reference
  // resolves T finely enough (a 20 ns reference cannot place starts within a 1 us tick).
  double reference_resolution_ns = 1;
  // Called after each run of each clock and size (a progress meter), or empty.
  std::function<void()> run_done;
};

// Waits `nanos` between round trips: busy-waits on real hardware, advances virtual time
// in a simulation.
using PauseFunction = std::function<void(int64_t nanos)>;

struct StudyClock {
  timing::Clock* clock;
  timing::ClockProbeResult probe;  // its measured resolution and read cost
};

// One clock at one size, all runs together.
struct StudyCell {
  std::string clock;  // spec
  std::string clock_name;
  size_t size_bytes = 0;
  int runs = 0;
  int64_t iterations = 0;
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
  // over the runs; harness/study_coverage_test). Each interval is widened by half the step
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
  // across independent groups of intervals, the runs (timing/tick_intervals.h); the mean
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

// A stop request (SIGINT, SIGTERM) is answered within a second in every phase: filling the
// study's arrays (a chunk at a time), the round trips, keeping a run's readings. A cell's
// runs are aggregated after a stop only when they hold at most this many readings (about 2
// us of work each); larger ones, and any whose aggregation a stop interrupts, are left
// without figures, saying so.
inline constexpr int64_t kReadingsAggregatedAfterAStop = 100'000;

struct StudyOutcome {
  std::vector<StudyCell> cells;
  absl::Status status;
};

// The round trips one run of one clock at one size makes: warm-up, the averaged pass, the
// probe pass's blocks and the per-iteration pass.
int64_t StudyRoundTripsPerRun(const StudyOptions& options);

// Runs the study over `endpoint` (an echo peer must be answering it). `reference` reads
// the truth; `pause` implements gaps and dithering.
StudyOutcome RunStudy(transport::Endpoint& endpoint, const std::vector<StudyClock>& clocks,
                      timing::Clock& reference, const StudyOptions& options,
                      const PauseFunction& pause);

// A reference, clock, reference read: the clock's read happened within [before, after].
struct PairRead {
  int64_t before = 0;  // reference ticks
  int64_t clock = 0;   // clock ticks
  int64_t after = 0;   // reference ticks
};

// What one run of one clock at one size measured (exposed so that tests can aggregate
// simulated runs without a transport).
struct StudyRunData {
  // Averaged pass: the pairs read just before and just after the loop, in ns (reference
  // ns for before/after, clock ns for clock).
  double start_before_ns = 0, start_clock_ns = 0, start_after_ns = 0;
  double stop_before_ns = 0, stop_clock_ns = 0, stop_after_ns = 0;
  double end_before_ns = 0, end_clock_ns = 0, end_after_ns = 0;  // after the last pass
  int64_t iterations = 0;
  // Reference time per round trip in interleaved blocks without and with a clock read
  // per round trip (plain block b is paired with probed block b).
  std::vector<double> plain_block_ns, probed_block_ns;
  double loop_period_ns = 0;  // reference time per per-iteration round trip, pauses included
  std::vector<double> readings_ns, true_ns, phases;  // per-iteration pass, in time order
};

// Fills the figures, intervals and verdicts of `cell` (whose clock, size, iterations and
// resolution_ns are set) from its runs; then SummarizeCell gives the plain words.
void AggregateStudyRuns(const std::vector<StudyRunData>& runs, double reference_resolution_ns,
                        StudyCell& cell);

// A cell no run measured (an error or a stop in its first run): every figure kNoFigure and
// every interval invalid (harness/no_figure.h); its clock, size, resolution, read cost
// and counts stay.
void MarkUnmeasured(StudyCell& cell);

// The plain-words line of a cell (exposed for tests).
std::string SummarizeCell(const StudyCell& cell);

}  // namespace tickbench::harness

#endif  // HARNESS_STUDY_RUNNER_H_
