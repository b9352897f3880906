// The CPU's cycle counter as a clock (rdtsc on x86-64, cntvct_el0 on arm64), its rate
// calibrated against CLOCK_MONOTONIC_RAW.
//
// Promised:
//   * A read is the fenced counter read of platform/cpu/cycle_counter.h, inline; ticks are
//     counter units, converted to nanoseconds with the calibrated rate.
//   * The rate comes with its uncertainty (the calibration's, in ppm), shown in reports.
//   * Refused (an error, not a wrong clock) where the counter is not invariant, unless the
//     caller allows a variable counter explicitly.
// Not promised:
//   * The counter's rate is not the core clock's, and an arbitrary offset may have been
//     added at power on: only differences of reads mean anything.
//   * Counters of different CPUs may be skewed: a thread that migrates between two reads
//     can see a step; pin it (--pin) for the tightest figures.
//   * Calibration error grows linearly with the interval measured (ppm of it).
#ifndef TIMING_CYCLE_CLOCK_H_
#define TIMING_CYCLE_CLOCK_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "platform/compiler.h"
#include "platform/cpu/cycle_counter.h"
#include "timing/clock.h"

namespace tickbench::timing {

struct CycleCalibration {
  double ticks_per_second = 0;
  // Relative uncertainty of ticks_per_second: the two brackets' widths over the
  // interval between them (each pair's time is known only within its bracket).
  double relative_uncertainty = 0;
  absl::Duration interval;  // the last interval the rate was measured over
  int rounds = 0;           // how many doublings it took to agree
};

struct CycleCalibrationOptions {
  absl::Duration first_interval = absl::Milliseconds(5);
  // Rounds double the interval until two successive estimates agree this closely.
  double agreement = 1e-4;
  int max_rounds = 6;  // 5 ms doubled 5 times: at most ~315 ms spent sleeping
};

// Measures the counter's rate against CLOCK_MONOTONIC_RAW, which runs at the hardware
// rate without NTP's slew (up to 500 ppm). Each timestamp pair is the one with the
// narrowest (raw, counter, raw) bracket out of ten, as Abseil's MeasureTscFrequency does.
absl::StatusOr<CycleCalibration> CalibrateCycleCounter(const CycleCalibrationOptions& options = {});

// The calibration done once per process, shared by every cycle clock.
absl::StatusOr<CycleCalibration> SharedCycleCalibration();

class CycleClock final : public Clock {
 public:
  // Refuses (FailedPrecondition) a counter that is not invariant unless `allow_variable`.
  static absl::StatusOr<std::unique_ptr<CycleClock>> Create(bool allow_variable);

  TICKBENCH_ALWAYS_INLINE int64_t NowTicks() override { return platform::ReadCycleCounter(); }

  const CycleCalibration& calibration() const { return calibration_; }

 private:
  CycleClock(ClockInfo info, CycleCalibration calibration)
      : Clock(std::move(info)), calibration_(calibration) {}
  CycleCalibration calibration_;
};

// The name the cycle counter clock goes by on this CPU: "rdtsc" on x86-64,
// "cntvct" on arm64, "cycles" elsewhere (where it is unavailable).
const char* CycleClockName();

}  // namespace tickbench::timing

#endif  // TIMING_CYCLE_CLOCK_H_
