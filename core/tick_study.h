// The timer-resolution study of harness/study/study_runner.h, cut to what a board can do: for one
// message size, `runs` times, an averaged pass (the clock read once before and once after
// N round trips) and a per-iteration pass (read at every round trip), each against a fine
// reference read right after the clock; then the theory's predictions beside the figures
// (core/tick_statistics.h).
//
// Freestanding (core/README.md): plain C++17, no Abseil, no OS, no exceptions; memory is
// the caller's (StudyWorkspace), nothing is allocated.
//
// What is promised:
//   * averaged: |averaged - truth| < total_bound_ns = (T + r + w) / N for each run, the
//     host's bound term by term (core/study_columns.h): averaged_bound_ns = T / N, the
//     clock's quantization; reference_bound_ns = r / N, the reference's (a difference of
//     two of its readings is off by less than r); pairing_bound_ns = w / N, with w =
//     pair_skew_ns the widest bracket of two reference reads around one clock read,
//     measured before the cell (the clock and the reference are read one after the other,
//     so their instants differ by less than w at each end, and the two ends' offsets by
//     less than w); rate_bound_ns = 0 (one crystal drives both counters).
//     averaged_within_bound says whether every run kept it.
//   * per-iteration: the readings of one pass tile it (each reading closes one round trip
//     and opens the next), so the ticks they count are the ticks of the whole pass. Where
//     every round trip is shorter than T, no reading holds more than one tick, and the share
//     of zero readings differs from the theory's 1 - d/T (averaged over the round trips'
//     true lengths d from the reference) by less than zero_bound = (1 + (2 r + w) / T) / N in
//     every run. zero_within_bound says whether every run kept it; zero_bound_applies
//     whether the round trips were short enough for the statement to hold.
//   * theory_agrees: the measured share above n ticks and the mean agree with the
//     prediction within 3 standard errors (or 1/N, whichever is larger), as on the host.
// What is NOT promised:
//   * The phases of the round trips against the tick are whatever the loop makes them: on
//     a deterministic board they are not random, and a loop locked to the tick breaks the
//     3-standard-error check (not the zero-share bound, which holds for any phase).
#ifndef CORE_TICK_STUDY_H_
#define CORE_TICK_STUDY_H_

#include <cstddef>
#include <cstdint>

#include "core/clock.h"
#include "core/round_trip_loop.h"
#include "core/tick_statistics.h"

namespace tickbench::core {

// Readings of 0, 1, ..., 6 ticks and of 7 or more.
inline constexpr int kHistogramBins = 8;

struct StudyOptions {
  int64_t iterations = 1000;  // round trips per pass
  int64_t runs = 4;
};

// The caller's memory for one cell; what each array must hold is stated beside it.
struct StudyWorkspace {
  char* send = nullptr;     // >= the message size
  char* receive = nullptr;  // >= the message size
  size_t message_capacity = 0;
  int64_t* marks = nullptr;            // >= iterations + 2
  int64_t* reference_marks = nullptr;  // >= iterations + 2
  int64_t mark_capacity = 0;
  double* readings_ns = nullptr;     // >= iterations * runs: the clock's per-iteration readings
  double* truths_ns = nullptr;       // >= iterations * runs: the reference's, same intervals
  int64_t* reading_ticks = nullptr;  // >= iterations * runs: the readings in the clock's ticks
  int64_t reading_capacity = 0;
};

struct StudyCell {
  const char* clock = "";
  const char* clock_name = "";
  const char* reference = "";
  int64_t size_bytes = 0;
  int64_t runs = 0;                    // runs that completed
  int64_t iterations = 0;              // round trips per pass
  double resolution_ns = 0;            // T: the clock's claimed resolution
  double reference_resolution_ns = 0;  // r
  double pair_skew_ns = 0;             // w: widest reference-clock-reference bracket

  // The averaged pass.
  double truth_ns = 0;            // the reference's averaged round trip, mean over runs
  double truth_sd_ns = 0;         // its SD across runs
  double averaged_ns = 0;         // the clock's, mean over runs
  double averaged_error_ns = 0;   // averaged - truth, signed
  double worst_run_error_ns = 0;  // the largest |averaged - truth| of one run
  // The bound on one run's |error|, term by term, as the host's (core/study_columns.h).
  double averaged_bound_ns = 0;   // T / N: the clock's quantization
  double pairing_bound_ns = 0;    // w / N
  double reference_bound_ns = 0;  // r / N
  double rate_bound_ns = 0;       // 0: one crystal drives both counters
  double total_bound_ns() const {
    return averaged_bound_ns + pairing_bound_ns + reference_bound_ns + rate_bound_ns;
  }
  bool averaged_within_bound = false;  // every run's |error| < total_bound_ns()

  // The per-iteration pass, all runs pooled.
  int64_t readings = 0;
  double per_iteration_mean_ns = 0;
  double per_iteration_sd_ns = 0;
  double per_iteration_p50_ns = 0;
  double per_iteration_min_ns = 0;
  double zero_fraction = 0;
  double per_iteration_truth_ns = 0;  // the reference's mean over the same intervals
  int64_t histogram[kHistogramBins] = {};

  // The theory, from the reference's lengths of the same intervals.
  TickMixture prediction;
  double observed_f = 0;  // measured share of readings above prediction.n ticks
  bool theory_agrees = false;
  bool zero_bound_applies = false;  // every round trip shorter than T
  double zero_bound = 0;            // (1 + (2 r + w) / T) / N
  double worst_run_zero_error = 0;  // the largest |zero share - (1 - d/T)| of one run
  bool zero_within_bound = false;

  int64_t faults = 0;           // echoes with a wrong sequence number or corrupted bytes
  const char* error = nullptr;  // why the cell has no figures; null when it has them
};

// The arithmetic of a cell, separate from the loop so that tests can feed it readings.
class StudyAccumulator {
 public:
  StudyAccumulator(StudyCell& cell, const StudyWorkspace& workspace);
  // One run's averaged pass: the clock's and the reference's averaged round trip.
  void AddAveragedRun(double averaged_ns, double truth_ns);
  // One run's per-iteration pass: `count` readings, in the clock's ticks and in ns, and
  // the reference's lengths of the same intervals (already stored in the workspace's
  // arrays at offset readings_so_far()).
  void AddPerIterationRun(int64_t count);
  int64_t readings_so_far() const { return cell_.readings; }
  // Computes the pooled figures and the verdicts; sorts the workspace's readings_ns.
  void Finish();

 private:
  StudyCell& cell_;
  const StudyWorkspace& workspace_;
  double averaged_sum_ = 0;
  double truth_sum_ = 0;
  double truth_square_sum_ = 0;
  bool all_within_ = true;
  bool all_zero_within_ = true;
  bool all_short_ = true;
};

namespace study_internal {

// Why `workspace` cannot hold the cell, or null when it can.
inline const char* WorkspaceProblem(const StudyWorkspace& workspace, int64_t size_bytes,
                                    const StudyOptions& options) {
  if (size_bytes < 1 || static_cast<size_t>(size_bytes) > workspace.message_capacity) {
    return "the message size is beyond the board's buffers";
  }
  if (options.iterations < 1 || options.runs < 1 ||
      options.iterations + 2 > workspace.mark_capacity ||
      options.iterations * options.runs > workspace.reading_capacity) {
    return "iterations x runs is beyond the board's reading buffers";
  }
  return nullptr;
}

// The pairing skew: the widest of 16 reference-clock-reference brackets, in ns.
template <typename ClockT, typename ReferenceClockT>
double PairingSkewNs(ClockT& clock, ReferenceClockT& reference, const StudyWorkspace& workspace) {
  double skew = 0;
  for (int i = 0; i < 16; ++i) {
    const int64_t before = reference.NowTicks();
    workspace.marks[0] = clock.NowTicks();
    const double width = reference.TicksToNanos(reference.NowTicks() - before);
    if (width > skew) skew = width;
  }
  return skew;
}

// A per-iteration pass's `iterations` readings and their truths, from the marks into the
// workspace's reading arrays at `offset`.
template <typename ClockT, typename ReferenceClockT>
void StoreReadings(ClockT& clock, ReferenceClockT& reference, const StudyWorkspace& workspace,
                   int64_t offset, int64_t iterations) {
  for (int64_t i = 0; i < iterations; ++i) {
    const int64_t ticks = workspace.marks[i + 1] - workspace.marks[i];
    workspace.reading_ticks[offset + i] = ticks;
    workspace.readings_ns[offset + i] = clock.TicksToNanos(ticks);
    workspace.truths_ns[offset + i] =
        reference.TicksToNanos(workspace.reference_marks[i + 1] - workspace.reference_marks[i]);
  }
}

}  // namespace study_internal

// Runs one cell: `options.runs` times an averaged and a per-iteration pass of
// `size_bytes`-byte round trips. A size or count beyond the workspace, or a failed
// transport, leaves `error` set.
template <typename EndpointT, typename ClockT, typename ReferenceClockT>
StudyCell RunStudyCell(EndpointT& endpoint, ClockT& clock, ReferenceClockT& reference,
                       const StudyWorkspace& workspace, int64_t size_bytes,
                       const StudyOptions& options) {
  StudyCell cell;
  cell.clock = clock.info().spec;
  cell.clock_name = clock.info().name;
  cell.reference = reference.info().spec;
  cell.size_bytes = size_bytes;
  cell.iterations = options.iterations;
  cell.resolution_ns = clock.info().claimed_resolution_ns;
  cell.reference_resolution_ns = reference.info().claimed_resolution_ns;
  cell.error = study_internal::WorkspaceProblem(workspace, size_bytes, options);
  if (cell.error != nullptr) return cell;
  const size_t size = static_cast<size_t>(size_bytes);
  FillPattern(workspace.send, size);
  CheckedTrips<EndpointT> trips;
  trips.endpoint = &endpoint;
  trips.send = workspace.send;
  trips.receive = workspace.receive;
  trips.size = size;
  trips.first_sequence = 1;
  const LoopMarks where{workspace.marks, workspace.reference_marks};
  const ReferenceClock<ReferenceClockT> paired{&reference};
  const double n = static_cast<double>(options.iterations);
  cell.pair_skew_ns = study_internal::PairingSkewNs(clock, reference, workspace);
  StudyAccumulator accumulator(cell, workspace);
  const auto pass = [&](int64_t batch) {
    trips.faults = 0;
    const LoopCount count = TimedLoop(trips, clock, paired, where, options.iterations, batch);
    trips.first_sequence += static_cast<uint64_t>(options.iterations);
    cell.faults += trips.faults;
    if (count.stopped) cell.error = "the transport failed";
    return !count.stopped;
  };
  for (int64_t run = 0; run < options.runs; ++run) {
    // Averaged: two readings around the whole loop.
    if (!pass(options.iterations)) return cell;
    accumulator.AddAveragedRun(
        clock.TicksToNanos(workspace.marks[1] - workspace.marks[0]) / n,
        reference.TicksToNanos(workspace.reference_marks[1] - workspace.reference_marks[0]) / n);
    // Per-iteration: a reading at every round trip.
    if (!pass(1)) return cell;
    study_internal::StoreReadings(clock, reference, workspace, accumulator.readings_so_far(),
                                  options.iterations);
    accumulator.AddPerIterationRun(options.iterations);
    ++cell.runs;
  }
  accumulator.Finish();
  return cell;
}

}  // namespace tickbench::core

#endif  // CORE_TICK_STUDY_H_
