#include "harness/study_runner.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/round_trip_engine.h"
#include "harness/round_trip_loop.h"
#include "timing/confidence.h"
#include "platform/stop_signal.h"
#include "transport/echo_peer.h"
#include "transport/message_pattern.h"

namespace tickbench::harness {
namespace {

using StudyRun = StudyRunData;

// Reference, clock, reference reads per pair; the narrowest bracket is kept (an
// interruption between two reads widens one attempt, rarely all three).
constexpr int kPairAttempts = 3;

// Blocks per probe pass: enough for a median that one preemption cannot move.
constexpr int kProbeBlocks = 10;

class StudyPasses {
 public:
  StudyPasses(transport::Endpoint& endpoint, timing::Clock& reference, const StudyOptions& options,
              size_t largest, const PauseFunction& pause)
      : endpoint_(endpoint),
        reference_(reference),
        options_(options),
        pause_(pause),
        send_(largest),
        receive_(largest),
        marks_(options.iterations + 2),
        starts_(options.iterations),
        stops_(options.iterations),
        reference_starts_(options.iterations),
        reference_stops_(options.iterations),
        random_(options.seed) {
    transport::FillPattern(absl::MakeSpan(send_));
  }

  // One run of `clock` at `size`: warm-up, then the three passes. Returns the first error.
  absl::Status Run(timing::Clock& clock, double resolution_ns, size_t size, StudyRun& run) {
    buffers_ = LoopBuffers{absl::MakeSpan(send_.data(), size), absl::MakeSpan(receive_.data(), size),
                           absl::MakeSpan(marks_), absl::Span<int64_t>()};
    const int64_t n = options_.iterations;
    absl::Status status = transport::SendBlockHeader(endpoint_, static_cast<uint32_t>(size),
                                                     static_cast<uint32_t>(options_.warmup + n));
    for (int64_t i = 0; status.ok() && i < options_.warmup; ++i) {
      status = RoundTrip(endpoint_, buffers_, sequence_++, integrity_);
    }
    if (!status.ok()) return status;
    // Faults of the warm-up are not in any figure; those of the timed passes end the run.
    const int64_t faults_before = integrity_.total();
    const RoundTripEngine::LoopFunction loop = SelectLoop(endpoint_, clock, nullptr);

    // Averaged: the clock read once before and once after the whole loop, each read
    // bracketed by two reads of the reference.
    const PairRead start = ReadPair(clock);
    LoopOutcome outcome = loop(endpoint_, clock, nullptr, buffers_, n, n, sequence_, false, integrity_);
    const PairRead stop = ReadPair(clock);
    sequence_ += n;
    if (!outcome.status.ok()) return outcome.status;
    if (absl::Status clean = NoNewFaults(faults_before, "averaged"); !clean.ok()) return clean;
    run.iterations = n;
    Store(clock, start, run.start_before_ns, run.start_clock_ns, run.start_after_ns);
    Store(clock, stop, run.stop_before_ns, run.stop_clock_ns, run.stop_after_ns);
    int64_t reference_start = 0, reference_stop = 0;

    // Probe: interleaved blocks, alternately without and with a clock read after every
    // round trip; the reference is read only around each block.
    const int64_t block = std::max<int64_t>(1, n / kProbeBlocks);
    status = transport::SendBlockHeader(endpoint_, static_cast<uint32_t>(size),
                                        static_cast<uint32_t>(2 * kProbeBlocks * block));
    if (!status.ok()) return status;
    for (int b = 0; b < 2 * kProbeBlocks; ++b) {
      const bool probed = b % 2 == 1;
      reference_start = reference_.NowTicks();
      outcome = loop(endpoint_, clock, nullptr, buffers_, block, probed ? 1 : block, sequence_,
                     false, integrity_);
      reference_stop = reference_.NowTicks();
      sequence_ += block;
      if (!outcome.status.ok()) return outcome.status;
      if (absl::Status clean = NoNewFaults(faults_before, "probe"); !clean.ok()) return clean;
      (probed ? run.probed_block_ns : run.plain_block_ns)
          .push_back(reference_.TicksToNanos(reference_stop - reference_start) / block);
    }

    // Per-iteration: both clocks at the start and end of each round trip.
    status = transport::SendBlockHeader(endpoint_, static_cast<uint32_t>(size), static_cast<uint32_t>(n));
    if (!status.ok()) return status;
    const int64_t gap_ns = absl::ToInt64Nanoseconds(options_.gap);
    const int64_t dither_ns = std::max<int64_t>(1, std::llround(resolution_ns));
    std::uniform_int_distribution<int64_t> dither(0, dither_ns - 1);
    int64_t recorded = 0;
    const int64_t loop_start = reference_.NowTicks();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t pause = gap_ns + (options_.dither ? dither(random_) : 0);
      if (pause > 0) pause_(pause);
      bool faulty = false;
      starts_[recorded] = clock.NowTicks();
      reference_starts_[recorded] = reference_.NowTicks();
      status = RoundTrip(endpoint_, buffers_, sequence_++, integrity_, &faulty);
      stops_[recorded] = clock.NowTicks();
      reference_stops_[recorded] = reference_.NowTicks();
      if (!status.ok()) return status;
      TICKBENCH_RETURN_IF_STOPPED("timing round trips one by one");
      if (!faulty) ++recorded;  // a faulty echo's reading is overwritten by the next
    }
    run.loop_period_ns = reference_.TicksToNanos(reference_.NowTicks() - loop_start) / n;
    Store(clock, ReadPair(clock), run.end_before_ns, run.end_clock_ns, run.end_after_ns);
    run.readings_ns.resize(recorded);
    run.true_ns.resize(recorded);
    run.phases.resize(recorded);
    for (int64_t i = 0; i < recorded; ++i) {
      run.readings_ns[i] = clock.TicksToNanos(stops_[i] - starts_[i]);
      run.true_ns[i] = reference_.TicksToNanos(reference_stops_[i] - reference_starts_[i]);
      // Where the round trip started within the tick. The reference's epoch differs from
      // the tick's by a constant, which turns the phases on the circle but leaves uniform
      // phases uniform and locked ones locked.
      const double start_ns = reference_.TicksToNanos(reference_starts_[i]);
      run.phases[i] = std::fmod(start_ns, resolution_ns) / resolution_ns;
    }
    return absl::OkStatus();
  }

  const IntegrityCounts& integrity() const { return integrity_; }

 private:
  PairRead ReadPair(timing::Clock& clock) {
    PairRead best;
    for (int attempt = 0; attempt < kPairAttempts; ++attempt) {
      PairRead pair;
      pair.before = reference_.NowTicks();
      pair.clock = clock.NowTicks();
      pair.after = reference_.NowTicks();
      if (attempt == 0 || pair.after - pair.before < best.after - best.before) best = pair;
    }
    return best;
  }
  void Store(timing::Clock& clock, const PairRead& pair, double& before, double& at,
             double& after) const {
    before = reference_.TicksToNanos(pair.before);
    at = clock.TicksToNanos(pair.clock);
    after = reference_.TicksToNanos(pair.after);
  }

  // A timed pass whose echoes came back wrong is not a measurement: DataLoss, naming it.
  absl::Status NoNewFaults(int64_t faults_before, absl::string_view pass) const {
    if (integrity_.total() == faults_before) return absl::OkStatus();
    return absl::DataLossError(absl::StrFormat(
        "%d faulty echoes (late %d, reordered %d, corrupted %d so far) in the %s pass; "
        "a faulty round trip is never timed",
        integrity_.total() - faults_before, integrity_.late, integrity_.reordered,
        integrity_.corrupted, pass));
  }

  transport::Endpoint& endpoint_;
  timing::Clock& reference_;
  const StudyOptions& options_;
  const PauseFunction& pause_;
  std::vector<char> send_, receive_;
  std::vector<int64_t> marks_, starts_, stops_, reference_starts_, reference_stops_;
  LoopBuffers buffers_;
  IntegrityCounts integrity_;
  uint64_t sequence_ = 1;
  std::mt19937_64 random_;
};

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

}  // namespace

void AggregateStudyRuns(const std::vector<StudyRun>& runs, double reference_resolution_ns,
                        StudyCell& cell) {
  const double period = cell.resolution_ns;
  timing::RunningStats loop_period;
  std::vector<double> truths, estimates, errors, run_bounds;
  std::vector<double> readings, true_ns, differences, probe_differences;
  double rate_clock_ns = 0, rate_reference_ns = 0, rate_slack_ns = 0;
  double chi_square = 0;
  int degrees = 0;
  int64_t samples = 0;
  cell.reference_resolution_ns = reference_resolution_ns;
  // Each run at a Bonferroni share of 2.5%; the pooled test takes the other 2.5%.
  const double run_confidence = 1 - 0.025 / std::max<size_t>(1, runs.size());
  for (const StudyRun& run : runs) {
    const double n = static_cast<double>(run.iterations > 0 ? run.iterations : cell.iterations);
    const double truth =
        (Mid(run.stop_before_ns, run.stop_after_ns) - Mid(run.start_before_ns, run.start_after_ns)) / n;
    const double estimate = (run.stop_clock_ns - run.start_clock_ns) / n;
    const double start_half = (run.start_after_ns - run.start_before_ns) / 2;
    const double skew = start_half + (run.stop_after_ns - run.stop_before_ns) / 2;
    truths.push_back(truth);
    estimates.push_back(estimate);
    errors.push_back(estimate - truth);
    run_bounds.push_back((period + skew + reference_resolution_ns) / n);
    cell.pair_skew_ns = std::max(cell.pair_skew_ns, skew);
    cell.worst_run_error_ns = std::max(cell.worst_run_error_ns, std::abs(estimate - truth));
    // The rate over the run: the clock's advance against the reference's, from the pair
    // before the averaged pass to the pair after the per-iteration pass.
    const double span = Mid(run.end_before_ns, run.end_after_ns) - Mid(run.start_before_ns, run.start_after_ns);
    if (span > 0) {
      rate_clock_ns += run.end_clock_ns - run.start_clock_ns;
      rate_reference_ns += span;
      rate_slack_ns += period + start_half + (run.end_after_ns - run.end_before_ns) / 2 +
                       reference_resolution_ns;
    }

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
      cell.worst_run_bias_ns = std::max(
          cell.worst_run_bias_ns, std::abs(reading_sum - truth_sum) / run.readings_ns.size());
    }
    const timing::ConfidenceInterval run_bias = WithContinuity(
        timing::BatchMeansInterval(run_differences,
                                   timing::QuantizedSdFloor(period, run_differences.size()),
                                   timing::kDefaultBatches, run_confidence),
        period, run_differences.size());
    if (run_bias.Excludes(0)) ++cell.runs_biased;
    differences.insert(differences.end(), run_differences.begin(), run_differences.end());
    for (size_t b = 0; b < std::min(run.plain_block_ns.size(), run.probed_block_ns.size()); ++b) {
      probe_differences.push_back(run.probed_block_ns[b] - run.plain_block_ns[b]);
    }
    loop_period.Add(run.loop_period_ns);
    readings.insert(readings.end(), run.readings_ns.begin(), run.readings_ns.end());
    true_ns.insert(true_ns.end(), run.true_ns.begin(), run.true_ns.end());
    // Each run has its own tick phase: test each run's phases and add the statistics.
    const timing::UniformityTest test = timing::TestUniformPhases(run.phases);
    chi_square += test.chi_square;
    degrees += test.degrees_of_freedom;
    samples += test.samples;
  }
  cell.runs = static_cast<int>(runs.size());
  const double iterations = static_cast<double>(cell.iterations);

  // Averaged figure: t across runs, the SD floored at what identical quantized runs allow.
  const double quantum = period / iterations;
  const double runs_floor = timing::QuantizedSdFloor(quantum, cell.runs);
  cell.truth_ci = timing::AcrossRunsInterval(
      truths, timing::QuantizedSdFloor(reference_resolution_ns / iterations, cell.runs));
  cell.averaged_ci = timing::AcrossRunsInterval(estimates, runs_floor);
  cell.averaged_error_ci = timing::AcrossRunsInterval(errors, runs_floor);
  timing::RunningStats truth_stats;
  for (double t : truths) truth_stats.Add(t);
  cell.truth_ns = truth_stats.mean();
  cell.truth_spread_ns = truth_stats.sd();
  cell.averaged_ns = cell.averaged_ci.estimate;
  cell.averaged_error_ns = cell.averaged_ns - cell.truth_ns;

  // Rate, then the bound term by term.
  if (rate_reference_ns > 0) {
    cell.rate_ppm = 1e6 * (rate_clock_ns / rate_reference_ns - 1);
    cell.rate_bound_ppm = 1e6 * rate_slack_ns / rate_reference_ns;
    cell.rate_shown_ppm = std::max(0.0, std::abs(cell.rate_ppm) - cell.rate_bound_ppm);
  }
  cell.averaged_bound_ns = quantum;
  cell.pairing_bound_ns = cell.pair_skew_ns / iterations;
  cell.reference_bound_ns = reference_resolution_ns / iterations;
  cell.rate_bound_ns = 1e-6 * cell.rate_shown_ppm * cell.truth_ns;
  cell.averaged_within_bound = !runs.empty();
  for (size_t r = 0; r < errors.size(); ++r) {
    const double bound = run_bounds[r] + 1e-6 * cell.rate_shown_ppm * truths[r];
    // 1e-9 of the bound: floating-point rounding of the ns conversions, nothing more.
    if (std::abs(errors[r]) > bound * (1 + 1e-9)) cell.averaged_within_bound = false;
    if (bound > 0) {
      cell.worst_run_bound_ratio = std::max(cell.worst_run_bound_ratio, std::abs(errors[r]) / bound);
    }
  }
  if (cell.truth_ns > 0) {
    cell.averaged_unresolved = quantum > 0.1 * cell.truth_ns;
    cell.round_trips_to_resolve = static_cast<int64_t>(std::ceil(100 * period / cell.truth_ns));
  }

  // Per-iteration statistics and their intervals.
  cell.per_iteration = timing::Summarize(readings);
  cell.reference_per_iteration = timing::Summarize(true_ns);
  cell.per_iteration_truth_ns = cell.reference_per_iteration.mean;
  cell.single_reading_unresolved =
      cell.per_iteration_truth_ns > 0 && period > 0.1 * cell.per_iteration_truth_ns;
  const int64_t count = static_cast<int64_t>(readings.size());
  cell.per_iteration_mean_ci =
      timing::BatchMeansInterval(readings, timing::QuantizedSdFloor(period, count));
  cell.reference_mean_ci =
      timing::BatchMeansInterval(true_ns, timing::QuantizedSdFloor(reference_resolution_ns, count));
  std::vector<double> zeros(readings.size());
  for (size_t i = 0; i < readings.size(); ++i) zeros[i] = readings[i] == 0 ? 1 : 0;
  cell.zero_share_ci = timing::BatchMeansInterval(zeros, timing::QuantizedSdFloor(1, count));
  cell.median_ci = timing::QuantileInterval(readings, 0.5);
  cell.p99_ci = timing::QuantileInterval(readings, 0.99);
  cell.reference_median_ci = timing::QuantileInterval(true_ns, 0.5);
  const double difference_floor = timing::QuantizedSdFloor(period, differences.size());
  cell.bias_ci = WithContinuity(timing::BatchMeansInterval(differences, difference_floor), period,
                                differences.size());
  const timing::ConfidenceInterval pooled_test = WithContinuity(
      timing::BatchMeansInterval(differences, difference_floor, timing::kDefaultBatches, 0.975),
      period, differences.size());
  cell.biased = pooled_test.Excludes(0) || cell.runs_biased > 0;

  cell.histogram.assign(16, 0);
  for (double r : readings) {
    const int64_t ticks = std::llround(std::max(0.0, r / period));
    ++cell.histogram[std::min<int64_t>(ticks, cell.histogram.size() - 1)];
  }
  std::vector<double> clean_readings, clean_true;
  for (size_t i = 0; i < readings.size(); ++i) {
    if (Disturbed(readings[i], true_ns[i], period)) {
      ++cell.disturbed_intervals;
      continue;
    }
    clean_readings.push_back(readings[i]);
    clean_true.push_back(true_ns[i]);
  }
  cell.prediction = timing::PredictTickReadings(clean_true, period);
  cell.observed = timing::ObserveTickReadings(clean_readings, cell.prediction);
  cell.verdict = timing::JudgeTickReadings(cell.observed, cell.prediction);
  cell.prediction_applies = period >= 1000;
  cell.phase_test.chi_square = chi_square;
  cell.phase_test.degrees_of_freedom = degrees;
  cell.phase_test.samples = samples;
  cell.phase_test.p_value = timing::UpperIncompleteGammaRatio(degrees / 2.0, chi_square / 2.0);
  cell.loop_period_ns = loop_period.mean();
  // 20 bins, each at least 4 reference ticks wide.
  cell.phase_tested = cell.prediction_applies && samples > 0 &&
                      reference_resolution_ns * 20 * 4 <= period &&
                      cell.loop_period_ns >= period / 4;
  cell.phase_locked = cell.phase_tested && cell.phase_test.p_value < 1e-3;
  cell.probe_effect_ci = timing::QuantileInterval(probe_differences, 0.5);
  cell.probe_effect_ns_per_read = cell.probe_effect_ci.estimate;
}

namespace {

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

}  // namespace

std::string SummarizeCell(const StudyCell& c) {
  std::string text = absl::StrFormat("%s at %d B: ", c.clock, c.size_bytes);
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
    absl::StrAppendFormat(&text, "per-iteration: SD is %.1fx the mean, as the reference's %.1fx: "
                                 "the spread is the system's (preemption, interrupts), not the clock's",
                          p.sd / p.mean, c.reference_per_iteration.mean > 0
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
      if (c.read_cost_ns > 0 && std::max(std::abs(c.bias_ci.low), std::abs(c.bias_ci.high)) <=
                                    c.read_cost_ns) {
        absl::StrAppendFormat(&text, ", within one read of the clock (%s ns): the order of the "
                                     "paired reads can make it",
                              Two(c.read_cost_ns));
      }
    } else {
      absl::StrAppendFormat(&text, ", no bias shown (mean - reference %s ns, 95%% CI covers 0)",
                            WithInterval(c.bias_ci));
    }
  }
  // The median against the reference's: claimed off only where its interval excludes the
  // reference's median.
  if (c.median_ci.valid && c.reference_median_ci.valid &&
      c.median_ci.Excludes(c.reference_median_ci.estimate) && c.reference_median_ci.estimate > 0) {
    absl::StrAppendFormat(&text, ", median off by %+.0f%% (95%% CI %s ns excludes the reference's %s)",
                          Percent(c.median_ci.estimate - c.reference_median_ci.estimate,
                                  c.reference_median_ci.estimate),
                          Range(c.median_ci),
                          timing::FormatRounded(c.reference_median_ci.estimate,
                                                c.reference_median_ci.half_width()));
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
      &text, ", worst run's error %s ns %s its bound (bound %s ns = T/N %s + pairing %s + reference "
             "%s + rate %s)",
      Two(c.worst_run_error_ns), c.averaged_within_bound ? "within" : "BEYOND", Two(c.total_bound_ns()),
      Two(c.averaged_bound_ns), Two(c.pairing_bound_ns), Two(c.reference_bound_ns), Two(c.rate_bound_ns));
  if (c.prediction_applies) {
    absl::StrAppendFormat(&text,
                          "; theory %s at 3 SE per check (share of >%d-tick readings %.3f, "
                          "predicted %.3f%s)",
                          c.verdict.agrees() ? "agrees" : "DISAGREES", c.prediction.n,
                          c.observed.share_above_n, c.prediction.f,
                          c.disturbed_intervals > 0
                              ? absl::StrFormat("; %d disturbed intervals left out", c.disturbed_intervals)
                              : "");
  }
  if (c.phase_locked) {
    absl::StrAppendFormat(&text, "; start phases not uniform (chi-square p = %.2g)", c.phase_test.p_value);
    absl::StrAppend(&text, c.biased ? " and the per-iteration mean is biased: try --dither"
                                    : " but no bias shown in the mean");
  }
  if (c.rate_bound_ppm > 0 || c.rate_ppm != 0) {
    absl::StrAppendFormat(&text, "; rate vs reference %s ppm (bound ± %s ppm)",
                          SignedPercent(c.rate_ppm), Two(c.rate_bound_ppm));
  }
  return text;
}

StudyOutcome RunStudy(transport::Endpoint& endpoint, const std::vector<StudyClock>& clocks,
                      timing::Clock& reference, const StudyOptions& options,
                      const PauseFunction& pause) {
  StudyOutcome outcome;
  const size_t largest = *std::max_element(options.sizes.begin(), options.sizes.end());
  StudyPasses passes(endpoint, reference, options, largest, pause);
  uint64_t phase_seed = options.seed;
  for (const StudyClock& study_clock : clocks) {
    timing::Clock& clock = *study_clock.clock;
    const double resolution_ns =
        std::max(absl::ToDoubleNanoseconds(clock.info().claimed_resolution),
                 absl::ToDoubleNanoseconds(study_clock.probe.observed_resolution));
    auto* tick = dynamic_cast<timing::TickClock*>(&clock);
    for (size_t size : options.sizes) {
      StudyCell cell;
      cell.clock = clock.info().spec;
      cell.clock_name = clock.info().name;
      cell.size_bytes = size;
      cell.iterations = options.iterations;
      cell.resolution_ns = resolution_ns;
      cell.read_cost_ns = study_clock.probe.read_cost_ns;
      std::vector<StudyRun> runs(options.runs);
      int done = 0;
      for (int r = 0; r < options.runs; ++r) {
        if (absl::Status stop = platform::CancelledIfStopRequested("between runs");
            !stop.ok()) {
          outcome.status = stop;
          break;
        }
        if (tick != nullptr && options.rephase_tick_clocks) {
          tick->set_phase_ns(timing::RandomPhaseNanos(tick->period_ns(), phase_seed++ * 7919));
        }
        absl::Status status = passes.Run(clock, resolution_ns, size, runs[r]);
        if (!status.ok()) {
          cell.error = absl::StrFormat("run %d: %s", r + 1, status.ToString());
          outcome.status = absl::UnavailableError(
              absl::StrFormat("%s, size %d bytes: %s", cell.clock, size, cell.error));
          break;
        }
        ++done;
      }
      runs.resize(done);
      if (!runs.empty()) {
        AggregateStudyRuns(runs, options.reference_resolution_ns, cell);
        cell.summary = SummarizeCell(cell);
      }
      outcome.cells.push_back(std::move(cell));
      if (!outcome.status.ok()) return outcome;
    }
  }
  return outcome;
}

}  // namespace tickbench::harness
