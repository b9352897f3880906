#include "harness/study_runner.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/round_trip_engine.h"
#include "harness/round_trip_loop.h"
#include "platform/stop_signal.h"
#include "transport/echo_peer.h"
#include "transport/message_pattern.h"

namespace tickbench::harness {
namespace {

// What one run of one clock at one size measured.
struct StudyRun {
  double truth_ns = 0;       // reference, averaged pass
  double averaged_ns = 0;    // clock, averaged pass
  // Reference time per round trip in interleaved blocks without and with a clock read
  // per round trip.
  std::vector<double> plain_block_ns, probed_block_ns;
  double loop_period_ns = 0; // reference time per per-iteration round trip, pauses included
  std::vector<double> readings_ns, true_ns, phases;
};

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

    // Averaged: two readings of each clock around the whole loop.
    int64_t reference_start = reference_.NowTicks();
    LoopOutcome outcome = loop(endpoint_, clock, nullptr, buffers_, n, n, sequence_, false, integrity_);
    int64_t reference_stop = reference_.NowTicks();
    sequence_ += n;
    if (!outcome.status.ok()) return outcome.status;
    if (absl::Status clean = NoNewFaults(faults_before, "averaged"); !clean.ok()) return clean;
    run.averaged_ns = clock.TicksToNanos(marks_[outcome.marks - 1] - marks_[0]) / n;
    run.truth_ns = reference_.TicksToNanos(reference_stop - reference_start) / n;

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

void Aggregate(const std::vector<StudyRun>& runs, double reference_resolution_ns, StudyCell& cell) {
  timing::RunningStats truth, averaged, loop_period;
  double worst = 0;
  std::vector<double> readings, true_ns, plain_blocks, probed_blocks;
  double chi_square = 0;
  int degrees = 0;
  int64_t samples = 0;
  for (const StudyRun& run : runs) {
    double reading_sum = 0, truth_sum = 0;
    for (double r : run.readings_ns) reading_sum += r;
    for (double d : run.true_ns) truth_sum += d;
    if (!run.readings_ns.empty()) {
      cell.worst_run_bias_ns = std::max(
          cell.worst_run_bias_ns, std::abs(reading_sum - truth_sum) / run.readings_ns.size());
    }
    truth.Add(run.truth_ns);
    averaged.Add(run.averaged_ns);
    worst = std::max(worst, std::abs(run.averaged_ns - run.truth_ns));
    plain_blocks.insert(plain_blocks.end(), run.plain_block_ns.begin(), run.plain_block_ns.end());
    probed_blocks.insert(probed_blocks.end(), run.probed_block_ns.begin(), run.probed_block_ns.end());
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
  cell.truth_ns = truth.mean();
  cell.truth_spread_ns = truth.sd();
  cell.averaged_ns = averaged.mean();
  cell.averaged_error_ns = cell.averaged_ns - cell.truth_ns;
  cell.worst_run_error_ns = worst;
  cell.averaged_bound_ns = cell.resolution_ns / static_cast<double>(cell.iterations);
  // The reference is read a few tens of ns after the clock at each end; allow that.
  cell.averaged_within_bound =
      worst <= cell.averaged_bound_ns + 200.0 / cell.iterations + 5e-4 * cell.truth_ns + 1e-6;
  cell.per_iteration = timing::Summarize(readings);
  cell.reference_per_iteration = timing::Summarize(true_ns);
  cell.per_iteration_truth_ns = cell.reference_per_iteration.mean;
  cell.histogram.assign(16, 0);
  for (double r : readings) {
    const int64_t ticks = std::llround(std::max(0.0, r / cell.resolution_ns));
    ++cell.histogram[std::min<int64_t>(ticks, cell.histogram.size() - 1)];
  }
  std::vector<double> clean_readings, clean_true;
  for (size_t i = 0; i < readings.size(); ++i) {
    if (std::abs(readings[i] - true_ns[i]) > cell.resolution_ns + 1000) {
      ++cell.disturbed_intervals;
      continue;
    }
    clean_readings.push_back(readings[i]);
    clean_true.push_back(true_ns[i]);
  }
  cell.prediction = timing::PredictTickReadings(clean_true, cell.resolution_ns);
  cell.observed = timing::ObserveTickReadings(clean_readings, cell.prediction);
  cell.verdict = timing::JudgeTickReadings(cell.observed, cell.prediction);
  cell.prediction_applies = cell.resolution_ns >= 1000;
  cell.phase_test.chi_square = chi_square;
  cell.phase_test.degrees_of_freedom = degrees;
  cell.phase_test.samples = samples;
  cell.phase_test.p_value = timing::UpperIncompleteGammaRatio(degrees / 2.0, chi_square / 2.0);
  cell.loop_period_ns = loop_period.mean();
  // 20 bins, each at least 4 reference ticks wide.
  cell.phase_tested = cell.prediction_applies && samples > 0 &&
                      reference_resolution_ns * 20 * 4 <= cell.resolution_ns &&
                      cell.loop_period_ns >= cell.resolution_ns / 4;
  cell.phase_locked = cell.phase_tested && cell.phase_test.p_value < 1e-3;
  cell.probe_effect_ns_per_read = timing::Median(probed_blocks) - timing::Median(plain_blocks);
}

double Percent(double part, double whole) { return whole != 0 ? 100 * part / whole : 0; }

}  // namespace

std::string SummarizeCell(const StudyCell& c) {
  std::string text = absl::StrFormat("%s at %d B: ", c.clock, c.size_bytes);
  const timing::Summary& p = c.per_iteration;
  if (p.count > 0 && p.max == 0) {
    absl::StrAppend(&text, "per-iteration: every reading is 0");
  } else if (p.mean > 0 && p.sd > p.mean && c.resolution_ns > p.mean / 2) {
    absl::StrAppendFormat(&text, "per-iteration: SD is %.1fx the mean, single readings mean little "
                                 "at this resolution",
                          p.sd / p.mean);
  } else if (p.mean > 0 && p.sd > p.mean) {
    absl::StrAppendFormat(&text, "per-iteration: SD is %.1fx the mean, as the reference's %.1fx: "
                                 "the spread is the system's (preemption, interrupts), not the clock's",
                          p.sd / p.mean, c.reference_per_iteration.mean > 0
                                             ? c.reference_per_iteration.sd / c.reference_per_iteration.mean
                                             : 0);
  } else {
    absl::StrAppendFormat(&text, "per-iteration: SD is %.0f%% of the mean", Percent(p.sd, p.mean));
  }
  if (p.zero_fraction >= 0.05 && p.max > 0) absl::StrAppendFormat(&text, ", %.0f%% read 0", 100 * p.zero_fraction);
  // Each statistic against the same statistic of the reference's readings.
  const timing::Summary& truth = c.reference_per_iteration;
  if (truth.p50 > 0 && std::abs(p.p50 - truth.p50) > 0.1 * truth.p50) {
    absl::StrAppendFormat(&text, ", median off by %+.0f%%", Percent(p.p50 - truth.p50, truth.p50));
  }
  if (truth.min > 0 && std::abs(p.min - truth.min) > 0.1 * truth.min) {
    absl::StrAppendFormat(&text, ", min off by %+.0f%%", Percent(p.min - truth.min, truth.min));
  }
  if (c.per_iteration_truth_ns > 0 &&
      std::abs(p.mean - c.per_iteration_truth_ns) > 0.1 * c.per_iteration_truth_ns) {
    absl::StrAppendFormat(&text, ", mean biased by %+.0f%%", Percent(p.mean - c.per_iteration_truth_ns,
                                                                      c.per_iteration_truth_ns));
  } else if (c.prediction_applies && c.runs > 0 &&
             c.worst_run_bias_ns > 3 * c.prediction.mean_standard_error_ns * std::sqrt(c.runs) &&
             c.worst_run_bias_ns > 0.1 * c.per_iteration_truth_ns) {
    absl::StrAppendFormat(&text, ", one run's mean biased by %.0f%%",
                          Percent(c.worst_run_bias_ns, c.per_iteration_truth_ns));
  }
  absl::StrAppendFormat(&text, "; averaged: %s %.2g%% of the truth (bound %.2g%%)",
                        c.averaged_within_bound ? "within" : "off by",
                        std::abs(Percent(c.averaged_error_ns, c.truth_ns)),
                        Percent(c.averaged_bound_ns, c.truth_ns));
  if (c.prediction_applies) {
    absl::StrAppendFormat(&text, "; theory %s (share of >%d-tick readings %.3f, predicted %.3f%s)",
                          c.verdict.agrees() ? "agrees" : "DISAGREES", c.prediction.n,
                          c.observed.share_above_n, c.prediction.f,
                          c.disturbed_intervals > 0
                              ? absl::StrFormat("; %d disturbed intervals left out", c.disturbed_intervals)
                              : "");
  }
  if (c.phase_locked) {
    absl::StrAppendFormat(&text, "; start phases LOCKED to the tick (chi-square p = %.2g): "
                                 "per-iteration means are biased, try --dither",
                          c.phase_test.p_value);
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
        Aggregate(runs, options.reference_resolution_ns, cell);
        cell.summary = SummarizeCell(cell);
      }
      outcome.cells.push_back(std::move(cell));
      if (!outcome.status.ok()) return outcome;
    }
  }
  return outcome;
}

}  // namespace tickbench::harness
