#include "timing/clock.h"

#include <cmath>

namespace tickbench::timing {

Clock::Clock(ClockInfo info) : core::CounterClock(info.ticks_per_second), info_(std::move(info)) {}

absl::Duration Clock::TicksToDuration(int64_t ticks) const {
  // Whole nanoseconds exactly when the clock counts nanoseconds; otherwise through the
  // (calibrated) rate, rounded to the nearest nanosecond.
  if (info_.ticks_per_second == 1e9) return absl::Nanoseconds(ticks);
  return absl::Nanoseconds(std::llround(TicksToNanos(ticks)));
}

}  // namespace tickbench::timing
