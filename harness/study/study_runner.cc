#include "harness/study/study_runner.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/engine/no_figure.h"
#include "harness/engine/round_trip_engine.h"
#include "harness/engine/round_trip_loop.h"
#include "harness/study/bracketed_trips.h"
#include "harness/study/study_aggregate.h"
#include "platform/stop_signal.h"
#include "timing/clocks/tick_clock.h"
#include "timing/stats/confidence.h"
#include "transport/echo/echo_peer.h"
#include "transport/io/message_buffer.h"
#include "transport/io/message_pattern.h"

namespace tickbench::harness {
namespace {

using StudyRun = StudyRunData;

// Reference, clock, reference reads per pair; the narrowest bracket is kept (an
// interruption between two reads widens one attempt, rarely all three).
constexpr int kPairAttempts = 3;

// Blocks per probe pass: enough for a median that one preemption cannot move.
constexpr int kProbeBlocks = 10;

// Round trips of the pilot that times a cell's round trip before its N is chosen.
constexpr int64_t kPilotTrips = 200;

// Elements a large array is filled by at a time (8 MiB, a few ms), between which a stop is seen.
constexpr int64_t kFillChunk = int64_t{1} << 20;

// `v` resized to `n` zeros, its memory touched a chunk at a time; Cancelled, with `v`
// emptied and its memory freed, when a stop is requested meanwhile.
absl::Status ResizeUnlessStopped(std::vector<int64_t>& v, int64_t n) {
  std::vector<int64_t>().swap(v);
  v.reserve(n);  // address space only: the pages are touched below
  while (static_cast<int64_t>(v.size()) < n) {
    if (platform::StopRequested()) {
      std::vector<int64_t>().swap(v);
      return platform::CancelledIfStopRequested("allocating the study's arrays");
    }
    v.resize(std::min<int64_t>(n, static_cast<int64_t>(v.size()) + kFillChunk));
  }
  return absl::OkStatus();
}

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
        random_(options.seed) {
    transport::FillPattern(send_.span());
  }

  // The arrays of the per-iteration pass, n readings each, filled before any round trip (no
  // page fault inside a timed pass) and a chunk at a time: Cancelled when a stop comes meanwhile.
  // The marks are bounded by the probe pass's longest block (one per round trip and one more).
  absl::Status Allocate() {
    const int64_t n = std::max(options_.iterations, options_.choose.max_iterations);
    marks_.assign(std::max<int64_t>(1, n / kProbeBlocks) + 2, 0);
    for (std::vector<int64_t>* v : {&starts_, &stops_, &reference_starts_, &reference_stops_}) {
      if (absl::Status s = ResizeUnlessStopped(*v, n); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  // One run of `clock` at `size`: warm-up, then the three passes. Returns the first error.
  absl::Status Run(timing::Clock& clock, double resolution_ns, size_t size, StudyRun& run) {
    buffers_ =
        LoopBuffers{absl::MakeSpan(send_.data(), size), absl::MakeSpan(receive_.data(), size),
                    absl::MakeSpan(marks_), absl::Span<int64_t>()};
    const int64_t n = n_;
    absl::Status status = transport::SendBlockHeader(endpoint_, static_cast<uint32_t>(size),
                                                     static_cast<uint32_t>(options_.warmup + n));
    for (int64_t i = 0; status.ok() && i < options_.warmup; ++i) {
      status = RoundTrip(endpoint_, buffers_, sequence_++, integrity_);
      if (status.ok()) status = platform::CancelledIfStopRequested("warming up");
    }
    if (!status.ok()) return status;
    // Faults of the warm-up are not in any figure; those of the timed passes end the run.
    const int64_t faults_before = integrity_.total();
    const RoundTripEngine::LoopFunction loop = SelectLoop(endpoint_, clock, nullptr);

    // Averaged: the clock read once before and once after the whole loop, each read
    // bracketed by two reads of the reference.
    const PairRead start = ReadPair(clock);
    LoopOutcome outcome =
        loop(endpoint_, clock, nullptr, buffers_, n, n, sequence_, false, integrity_);
    const PairRead stop = ReadPair(clock);
    sequence_ += n;
    if (!outcome.status.ok()) return outcome.status;
    if (absl::Status clean = NoNewFaults(faults_before, "averaged"); !clean.ok()) return clean;
    run.iterations = n;
    Store(clock, start, run.start_before_ns, run.start_clock_ns, run.start_after_ns);
    Store(clock, stop, run.stop_before_ns, run.stop_clock_ns, run.stop_after_ns);

    status = ProbePass(clock, size, faults_before, run);
    if (!status.ok()) return status;
    return PerIterationPass(clock, resolution_ns, size, run);
  }

  const IntegrityCounts& integrity() const { return integrity_; }

  // The round trips of each pass of the next runs (at most what Allocate made room for).
  void set_iterations(int64_t n) { n_ = n; }

  // The median round trip at `size`, in ns of the reference, over `trips` untimed round trips
  // after the warm-up (the pilot that chooses a cell's N); 0 where none came back clean.
  absl::StatusOr<double> PilotRoundTripNs(size_t size, int64_t trips) {
    buffers_ =
        LoopBuffers{absl::MakeSpan(send_.data(), size), absl::MakeSpan(receive_.data(), size),
                    absl::MakeSpan(marks_), absl::Span<int64_t>()};
    const int64_t total = options_.warmup + trips;
    absl::Status status = transport::SendBlockHeader(endpoint_, static_cast<uint32_t>(size),
                                                     static_cast<uint32_t>(total));
    std::vector<double> rtt;
    rtt.reserve(trips);
    for (int64_t i = 0; status.ok() && i < total; ++i) {
      const int64_t before = reference_.NowTicks();
      const int64_t faults = integrity_.total();
      status = RoundTrip(endpoint_, buffers_, sequence_++, integrity_);
      if (status.ok() && i >= options_.warmup && integrity_.total() == faults) {
        rtt.push_back(reference_.TicksToNanos(reference_.NowTicks() - before));
      }
      if (status.ok()) status = platform::CancelledIfStopRequested("choosing the round trips");
    }
    if (!status.ok()) return status;
    if (rtt.empty()) return 0.0;
    std::nth_element(rtt.begin(), rtt.begin() + rtt.size() / 2, rtt.end());
    return rtt[rtt.size() / 2];
  }

 private:
  // The probe pass: interleaved blocks, alternately without and with a clock read after every
  // round trip; the reference is read only around each block. None is kept in virtual time,
  // where a read costs nothing and blocks differ by the simulated jitter alone.
  absl::Status ProbePass(timing::Clock& clock, size_t size, int64_t faults_before, StudyRun& run) {
    const RoundTripEngine::LoopFunction loop = SelectLoop(endpoint_, clock, nullptr);
    const int64_t n = n_;
    const int64_t block = std::max<int64_t>(1, n / kProbeBlocks);
    absl::Status status = transport::SendBlockHeader(
        endpoint_, static_cast<uint32_t>(size), static_cast<uint32_t>(2 * kProbeBlocks * block));
    if (!status.ok()) return status;
    for (int b = 0; b < 2 * kProbeBlocks; ++b) {
      const bool probed = b % 2 == 1;
      const int64_t reference_start = reference_.NowTicks();
      const LoopOutcome outcome = loop(endpoint_, clock, nullptr, buffers_, block,
                                       probed ? 1 : block, sequence_, false, integrity_);
      const int64_t reference_stop = reference_.NowTicks();
      sequence_ += block;
      if (!outcome.status.ok()) return outcome.status;
      if (absl::Status clean = NoNewFaults(faults_before, "probe"); !clean.ok()) return clean;
      if (reference_.info().simulated) continue;
      (probed ? run.probed_block_ns : run.plain_block_ns)
          .push_back(reference_.TicksToNanos(reference_stop - reference_start) / block);
    }
    return absl::OkStatus();
  }

  // The per-iteration pass: both clocks at the start and end of each round trip.
  absl::Status PerIterationPass(timing::Clock& clock, double resolution_ns, size_t size,
                                StudyRun& run) {
    const int64_t n = n_;
    absl::Status status = transport::SendBlockHeader(endpoint_, static_cast<uint32_t>(size),
                                                     static_cast<uint32_t>(n));
    if (!status.ok()) return status;
    const int64_t dither_ns = std::max<int64_t>(1, std::llround(resolution_ns));
    BracketedTrips trips{HostTrips<transport::Endpoint, true>(endpoint_, buffers_, sequence_, false,
                                                              integrity_, status),
                         &pause_,
                         &random_,
                         std::uniform_int_distribution<int64_t>(0, dither_ns - 1),
                         absl::ToInt64Nanoseconds(options_.gap),
                         options_.dither,
                         &integrity_};
    const int64_t loop_start = reference_.NowTicks();
    const core::LoopCount count = core::BracketedLoop(
        trips, clock, core::ReferenceClock<timing::Clock>{&reference_},
        {starts_.data(), stops_.data(), reference_starts_.data(), reference_stops_.data()}, n);
    sequence_ += n;
    if (!status.ok()) return status;
    const int64_t recorded = count.marks;
    run.loop_period_ns = reference_.TicksToNanos(reference_.NowTicks() - loop_start) / n;
    Store(clock, ReadPair(clock), run.end_before_ns, run.end_clock_ns, run.end_after_ns);
    // Kept for the cell a chunk at a time (reserving takes address space only), so that a
    // stop is seen while the memory fills.
    run.readings_ns.reserve(recorded);
    run.true_ns.reserve(recorded);
    run.phases.reserve(recorded);
    for (int64_t i = 0; i < recorded; ++i) {
      if (i % kFillChunk == 0) TICKBENCH_RETURN_IF_STOPPED("keeping the readings of a run");
      run.readings_ns.push_back(clock.TicksToNanos(stops_[i] - starts_[i]));
      run.true_ns.push_back(reference_.TicksToNanos(reference_stops_[i] - reference_starts_[i]));
      // Where the round trip started within the tick. The reference's epoch differs from
      // the tick's by a constant, which turns the phases on the circle but leaves uniform
      // phases uniform and locked ones locked.
      const double start_ns = reference_.TicksToNanos(reference_starts_[i]);
      run.phases.push_back(std::fmod(start_ns, resolution_ns) / resolution_ns);
    }
    return absl::OkStatus();
  }

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
  transport::MessageBuffer send_, receive_;  // page-aligned (transport/io/message_buffer.h)
  std::vector<int64_t> marks_, starts_, stops_, reference_starts_, reference_stops_;
  LoopBuffers buffers_;
  IntegrityCounts integrity_;
  uint64_t sequence_ = 1;
  std::mt19937_64 random_;
  int64_t n_ = options_.iterations;
};

}  // namespace

namespace {

// The cell's figures from its runs; none (MarkUnmeasured) without a run, or when a stop, requested
// before or during the aggregation of more than kReadingsAggregatedAfterAStop readings, cut it
// short (the error says so).
void FinishCell(const std::vector<StudyRun>& runs, const StudyOptions& options, StudyCell& cell) {
  int64_t readings = 0;
  for (const StudyRun& run : runs) readings += static_cast<int64_t>(run.readings_ns.size());
  const auto cut_short = [readings] {
    return readings > kReadingsAggregatedAfterAStop && platform::StopRequested();
  };
  if (!runs.empty() && !cut_short()) {
    AggregateStudyRuns(runs, options.reference_resolution_ns, cell);
    if (!cut_short()) {
      cell.summary = SummarizeCell(cell);
      return;
    }
  }
  MarkUnmeasured(cell);  // no figure (harness/engine/no_figure.h)
  cell.runs = static_cast<int>(runs.size());
  if (runs.empty()) return;
  cell.error = absl::StrFormat(
      "%s%s: its %d runs (%d readings) were not aggregated, which takes more than a second",
      cell.error.empty() ? "" : absl::StrCat(cell.error, "; "),
      platform::CancelledIfStopRequested("before the figures").message(), runs.size(), readings);
}

// The cell's N: the options' iterations, or with StudyOptions::choose the one the pilot's
// round trip calls for (ChooseCellIterations); set for the passes that follow.
absl::Status ChooseCount(StudyPasses& passes, const StudyOptions& options, size_t clocks,
                         StudyCell& cell) {
  if (options.choose.on) {
    absl::StatusOr<double> rtt = passes.PilotRoundTripNs(cell.size_bytes, kPilotTrips);
    if (!rtt.ok()) return rtt.status();
    const CellCount count =
        ChooseCellIterations(options, cell.resolution_ns, *rtt, clocks * options.sizes.size());
    cell.iterations = count.iterations;
    cell.count_note = count.note;
  }
  passes.set_iterations(cell.iterations);
  return absl::OkStatus();
}

}  // namespace

int64_t StudyRoundTripsPerRun(const StudyOptions& options) {
  const int64_t n = options.iterations;
  return options.warmup + n + 2 * kProbeBlocks * std::max<int64_t>(1, n / kProbeBlocks) + n;
}

StudyOutcome RunStudy(transport::Endpoint& endpoint, const std::vector<StudyClock>& clocks,
                      timing::Clock& reference, const StudyOptions& options,
                      const PauseFunction& pause) {
  StudyOutcome outcome;
  const size_t largest = *std::max_element(options.sizes.begin(), options.sizes.end());
  StudyPasses passes(endpoint, reference, options, largest, pause);
  if (absl::Status allocated = passes.Allocate(); !allocated.ok()) {
    outcome.status = allocated;
    return outcome;
  }
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
      if (absl::Status s = ChooseCount(passes, options, clocks.size(), cell); !s.ok()) {
        outcome.status = s;
        return outcome;
      }
      cell.read_cost_ns = study_clock.probe.read_cost_ns;
      // A uniqtime tick's reading sits up to T - 1 us above its edge (ClockInfo).
      cell.timestamp_offset_ns = absl::ToDoubleNanoseconds(clock.info().timestamp_offset);
      std::vector<StudyRun> runs(options.runs);
      int done = 0;
      for (int r = 0; r < options.runs; ++r) {
        if (absl::Status stop = platform::CancelledIfStopRequested("between runs"); !stop.ok()) {
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
        if (options.run_done) options.run_done();
      }
      runs.resize(done);
      FinishCell(runs, options, cell);
      outcome.cells.push_back(std::move(cell));
      if (!outcome.status.ok()) return outcome;
    }
  }
  return outcome;
}

}  // namespace tickbench::harness
