// The timer-resolution study: the same round trips read by each clock in turn, against
// the reference clock read at the same instants, held against what the theory of a
// coarse tick predicts (timing/theory/tick_theory.h).
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
#ifndef HARNESS_STUDY_STUDY_RUNNER_H_
#define HARNESS_STUDY_STUDY_RUNNER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "harness/study/study_cell.h"
#include "timing/clock.h"
#include "timing/clocks/clock_probe.h"
#include "transport/transport.h"

namespace tickbench::harness {

// What RunStudy measures: its sizes, runs and round trips, and how the per-iteration pass
// is paced.
// The study's warm-up where --warmup does not give one.
inline constexpr int64_t kStudyWarmup = 100;

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
  // Without --iterations on real hardware: each cell's N chosen so that its averaged figure
  // resolves, T/N within 1% of the round trip timed by a pilot (ChooseCellIterations), at
  // least `iterations`, within `budget` for the whole study and `max_iterations` per pass.
  struct ChooseIterations {
    bool on = false;
    absl::Duration budget = absl::Minutes(3);
    int64_t max_iterations = 200'000;
  } choose;
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

// A stop request (SIGINT, SIGTERM) is answered within a second in every phase: filling the
// study's arrays (a chunk at a time), the round trips, keeping a run's readings, and their
// aggregation (study_aggregate.h, kReadingsAggregatedAfterAStop).
struct StudyOutcome {
  std::vector<StudyCell> cells;
  absl::Status status;
};

// A cell's N (StudyOptions::choose): the round trips of each pass, and why it is not the
// one that resolves the averaged figure to 1% ("" where it is).
struct CellCount {
  int64_t iterations = 0;
  std::string note;
};
// N = max(iterations, ceil(100 T / d)) for a clock of resolution T and a round trip d (the
// pilot's median), cut to what the budget (shared evenly by `cells`) and max_iterations
// allow, with the note saying so.
CellCount ChooseCellIterations(const StudyOptions& options, double resolution_ns, double rtt_ns,
                               size_t cells);

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

// A cell no run measured (an error or a stop in its first run): every figure kNoFigure and
// every interval invalid (harness/engine/no_figure.h); its clock, size, resolution, read cost
// and counts stay.
void MarkUnmeasured(StudyCell& cell);

}  // namespace tickbench::harness

#endif  // HARNESS_STUDY_STUDY_RUNNER_H_
