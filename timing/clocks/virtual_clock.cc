#include "timing/clocks/virtual_clock.h"

namespace tickbench::timing {
namespace {

ClockInfo VirtualInfo() {
  ClockInfo info;
  info.spec = "virtual";
  info.name = "virtual (simulated time)";
  info.ticks_per_second = 1e9;
  info.claimed_resolution = absl::Nanoseconds(1);
  info.simulated = true;
  info.notes = "moves only when the simulation advances it";
  return info;
}

}  // namespace

VirtualClock::VirtualClock() : Clock(VirtualInfo()) {}

void VirtualClock::Advance(absl::Duration duration) {
  AdvanceNanos(absl::ToInt64Nanoseconds(duration));
}

}  // namespace tickbench::timing
