#include "timing/clocks/cycle_clock.h"

#include <time.h>

#include <cmath>

#include "gtest/gtest.h"
#include "platform/cpu/cycle_counter.h"
#include "platform/monotonic.h"

namespace tickbench::timing {
namespace {

int64_t RawNanos() { return platform::ClockNanos(CLOCK_MONOTONIC_RAW); }

TEST(CycleClockTest, CalibratedRateAgreesWithMonotonicRawOver100ms) {
  absl::StatusOr<std::unique_ptr<CycleClock>> clock = CycleClock::Create(/*allow_variable=*/true);
  if (!clock.ok()) GTEST_SKIP() << clock.status();
  EXPECT_LT((*clock)->calibration().relative_uncertainty, 1e-3);
  double best = 1;
  for (int attempt = 0; attempt < 5 && best > 0.005; ++attempt) {
    const int64_t raw_start = RawNanos();
    const int64_t ticks_start = (*clock)->NowTicks();
    timespec pause{0, 100'000'000};
    nanosleep(&pause, nullptr);
    const int64_t ticks_stop = (*clock)->NowTicks();
    const int64_t raw_stop = RawNanos();
    const double clock_ns = (*clock)->TicksToNanos(ticks_stop - ticks_start);
    best = std::min(best, std::abs(clock_ns - (raw_stop - raw_start)) / (raw_stop - raw_start));
  }
  EXPECT_LT(best, 0.005);
}

TEST(CycleClockTest, NameMatchesThisCpu) {
  absl::StatusOr<platform::CycleCounterInfo> counter = platform::GetCycleCounterInfo();
  if (!counter.ok()) GTEST_SKIP() << counter.status();
  auto clock = CycleClock::Create(true);
  ASSERT_TRUE(clock.ok());
  EXPECT_EQ((*clock)->info().spec, CycleClockName());
  EXPECT_NE((*clock)->info().name.find(counter->name), std::string::npos);
  EXPECT_GT((*clock)->info().ticks_per_second, 1e6);
}

}  // namespace
}  // namespace tickbench::timing
