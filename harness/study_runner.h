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
#include "timing/statistics.h"
#include "timing/tick_clock.h"
#include "timing/tick_theory.h"
#include "transport/transport.h"

namespace tickbench::harness {

struct StudyOptions {
  std::vector<size_t> sizes;
  int runs = 4;
  int64_t iterations = 1000;
  int64_t warmup = 100;
  absl::Duration gap;          // unmeasured time between per-iteration round trips
  bool dither = false;         // add a random pause in [0, T) before each round trip
  uint64_t seed = 1;
  bool rephase_tick_clocks = true;  // a new random tick phase per run and size
  // The reference's own resolution: phases within T are tested only where the reference
  // resolves T finely enough (a 20 ns reference cannot place starts within a 1 us tick).
  double reference_resolution_ns = 1;
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
  double averaged_bound_ns = 0;   // T / N
  // |error| <= bound + what two different clocks may disagree by: 200 ns of read offset
  // over the loop and 500 ppm of rate (NTP slews CLOCK_MONOTONIC by up to 500 ppm; the
  // cycle counter is calibrated against CLOCK_MONOTONIC_RAW).
  bool averaged_within_bound = false;

  timing::Summary per_iteration;        // the clock's readings, all runs pooled
  double per_iteration_truth_ns = 0;    // mean of the reference's readings, same intervals
  timing::Summary reference_per_iteration;  // the reference's readings of the same intervals
  // The largest |mean reading - mean truth| of one run: a locked phase biases each run,
  // and runs locked at different phases can cancel in the pooled mean.
  double worst_run_bias_ns = 0;
  std::vector<int64_t> histogram;       // readings in ticks of T: 0, 1, 2, ... (last: more)

  // Intervals where the clock's reading and the reference's differ by more than T plus
  // 1 us: something (a preemption, an interrupt) fell between the two clocks' reads, so
  // the pair says nothing about quantization. They are left out of the theory's check.
  int64_t disturbed_intervals = 0;
  timing::TickPrediction prediction;
  timing::TickObservation observed;
  timing::TickVerdict verdict;
  bool prediction_applies = false;      // T above 1 us: quantization dominates

  timing::UniformityTest phase_test;    // of the start phases within T, per run, summed
  // Tested where T is above 1 us, the reference resolves T finely enough, and the loop
  // period P (round trip plus pause) is at least T/4: with P << T the phase sweeps the
  // tick in small steps, uniform by construction (no lock can bias by more than P), and
  // successive phases are too dependent for a chi-square test.
  bool phase_tested = false;
  double loop_period_ns = 0;
  bool phase_locked = false;            // p < 1e-3

  // Median over interleaved blocks (with and without a clock read per round trip) of the
  // difference in reference time per round trip: medians, because one preemption in a
  // block would otherwise outweigh a 30 ns read.
  double probe_effect_ns_per_read = 0;
  double read_cost_ns = 0;              // from the clock probe

  std::string summary;                  // the cell in plain words
  std::string error;                    // why it ended early, or ""
};

struct StudyOutcome {
  std::vector<StudyCell> cells;
  absl::Status status;
};

// Runs the study over `endpoint` (an echo peer must be answering it). `reference` reads
// the truth; `pause` implements gaps and dithering.
StudyOutcome RunStudy(transport::Endpoint& endpoint, const std::vector<StudyClock>& clocks,
                      timing::Clock& reference, const StudyOptions& options,
                      const PauseFunction& pause);

// The plain-words line of a cell (exposed for tests).
std::string SummarizeCell(const StudyCell& cell);

}  // namespace tickbench::harness

#endif  // HARNESS_STUDY_RUNNER_H_
