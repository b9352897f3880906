#include "timing/clocks/cycle_clock.h"

#include <time.h>

#include <cmath>
#include <memory>

#include "absl/strings/str_format.h"
#include "platform/monotonic.h"

namespace tickbench::timing {
namespace {

int64_t RawNanos() { return platform::ClockNanos(CLOCK_MONOTONIC_RAW); }

struct Pair {
  double raw_ns;  // the middle of the bracket
  int64_t counter;
  int64_t bracket_ns;  // how far apart the two raw reads around the counter read were
};

Pair NarrowestPair() {
  Pair best{0, 0, INT64_MAX};
  for (int i = 0; i < 10; ++i) {
    const int64_t before = RawNanos();
    const int64_t counter = platform::ReadCycleCounter();
    const int64_t after = RawNanos();
    if (after - before < best.bracket_ns) {
      best = Pair{0.5 * static_cast<double>(before + after), counter, after - before};
    }
  }
  return best;
}

void SleepRelative(absl::Duration duration) {
  timespec request = absl::ToTimespec(duration);
  while (nanosleep(&request, &request) != 0) {
  }
}

}  // namespace

const char* CycleClockName() {
#if defined(__x86_64__)
  return "rdtsc";
#elif defined(__aarch64__)
  return "cntvct";
#else
  return "cycles";
#endif
}

absl::StatusOr<CycleCalibration> CalibrateCycleCounter(const CycleCalibrationOptions& options) {
  absl::StatusOr<platform::CycleCounterInfo> counter = platform::GetCycleCounterInfo();
  if (!counter.ok()) return counter.status();
  CycleCalibration result;
  double previous = 0;
  absl::Duration interval = options.first_interval;
  for (int round = 1; round <= options.max_rounds; ++round, interval *= 2) {
    const Pair start = NarrowestPair();
    SleepRelative(interval);
    const Pair stop = NarrowestPair();
    const double elapsed_ns = stop.raw_ns - start.raw_ns;
    if (elapsed_ns <= 0 || stop.counter <= start.counter) {
      return absl::InternalError("the cycle counter did not advance during calibration");
    }
    result.ticks_per_second = static_cast<double>(stop.counter - start.counter) * 1e9 / elapsed_ns;
    result.relative_uncertainty =
        static_cast<double>(start.bracket_ns + stop.bracket_ns) / 2 / elapsed_ns;
    result.interval = interval;
    result.rounds = round;
    if (previous > 0 &&
        std::abs(result.ticks_per_second - previous) <= options.agreement * previous) {
      break;
    }
    previous = result.ticks_per_second;
  }
  return result;
}

absl::StatusOr<CycleCalibration> SharedCycleCalibration() {
  static const auto* const kCalibration =
      new absl::StatusOr<CycleCalibration>(CalibrateCycleCounter());
  return *kCalibration;
}

absl::StatusOr<std::unique_ptr<CycleClock>> CycleClock::Create(bool allow_variable) {
  absl::StatusOr<platform::CycleCounterInfo> counter = platform::GetCycleCounterInfo();
  if (!counter.ok()) return counter.status();
  if (!counter->invariant && !allow_variable) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "the %s counter on this CPU is not invariant (%s): its rate changes with the CPU's "
        "frequency and sleep states, so it does not measure time; pass "
        "--allow_variable_cycle_counter to use it anyway",
        counter->name, counter->detail));
  }
  absl::StatusOr<CycleCalibration> calibration = SharedCycleCalibration();
  if (!calibration.ok()) return calibration.status();
  ClockInfo info;
  info.spec = CycleClockName();
  info.name = absl::StrFormat("%s (%.6f GHz)", counter->name, calibration->ticks_per_second / 1e9);
  info.ticks_per_second = calibration->ticks_per_second;
  info.claimed_resolution = absl::Nanoseconds(1e9 / calibration->ticks_per_second);
  info.monotonic = true;
  info.notes = absl::StrFormat(
      "%s; calibrated against CLOCK_MONOTONIC_RAW over %s: %.0f Hz +/- %.1f ppm%s", counter->detail,
      absl::FormatDuration(calibration->interval), calibration->ticks_per_second,
      calibration->relative_uncertainty * 1e6,
      counter->nominal_hz > 0 ? absl::StrFormat("; hardware states %.0f Hz", counter->nominal_hz)
                              : "");
  return std::unique_ptr<CycleClock>(new CycleClock(std::move(info), *calibration));
}

}  // namespace tickbench::timing
