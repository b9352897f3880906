#include "timing/clocks/clock_probe.h"

#include "gtest/gtest.h"
#include "timing/clocks/os_clocks.h"
#include "timing/clocks/tick_clock.h"
#include "timing/clocks/virtual_clock.h"

namespace tickbench::timing {
namespace {

TEST(ClockProbeTest, TickClockShowsItsPeriodAsObservedResolution) {
  for (absl::Duration period : {absl::Milliseconds(10), absl::Milliseconds(20)}) {
    TickClockOptions options;
    options.period = period;
    auto tick = TickClock::Create(options, std::make_unique<ClockGettimeClock>(ClockIdNames()[0]));
    ASSERT_TRUE(tick.ok());
    ClockProbeOptions probe_options;
    probe_options.max_time = absl::Seconds(2);  // a bound, not a target
    // A preemption longer than T between two reads shows as a 2T step; with ten changes
    // seen, at least one single-tick step is all but certain even on a loaded machine.
    probe_options.min_changes = 10;
    const ClockProbeResult result = ProbeClock(**tick, probe_options);
    EXPECT_EQ(result.observed_resolution, period);
    EXPECT_EQ(result.claimed_resolution, period);
    EXPECT_GE(result.changes, 10);
    EXPECT_EQ(result.backward_steps, 0);
  }
}

TEST(ClockProbeTest, FineClockResolvesBelowAMicrosecondAndCostsSomething) {
  ClockGettimeClock monotonic(ClockIdNames()[0]);
  const ClockProbeResult result = ProbeClock(monotonic);
  EXPECT_GT(result.observed_resolution, absl::ZeroDuration());
  EXPECT_LT(result.observed_resolution, absl::Microseconds(1));
  EXPECT_GT(result.read_cost_ns, 0);
  EXPECT_LT(result.read_cost_ns, 100'000);  // a vDSO read is ~20 ns, a syscall ~1 us
}

TEST(ClockProbeTest, StoppedClockHasNoObservedResolution) {
  VirtualClock stopped;
  ClockProbeOptions options;
  options.max_time = absl::Milliseconds(20);
  const ClockProbeResult result = ProbeClock(stopped, options);
  EXPECT_EQ(result.changes, 0);
  EXPECT_EQ(result.observed_resolution, absl::ZeroDuration());
}

}  // namespace
}  // namespace tickbench::timing
