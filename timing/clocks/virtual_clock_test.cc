#include "timing/clocks/virtual_clock.h"

#include "gtest/gtest.h"

namespace tickbench::timing {
namespace {

TEST(VirtualClockTest, MovesOnlyWhenAdvanced) {
  VirtualClock clock;
  EXPECT_EQ(clock.NowTicks(), 0);
  EXPECT_EQ(clock.NowTicks(), 0);
  clock.Advance(absl::Microseconds(1300));
  EXPECT_EQ(clock.NowTicks(), 1'300'000);
  clock.AdvanceNanos(-5);  // refused: time never goes back
  EXPECT_EQ(clock.NowTicks(), 1'300'000);
  EXPECT_EQ(clock.TicksToDuration(clock.NowTicks()), absl::Microseconds(1300));
  EXPECT_TRUE(clock.info().simulated);
}

}  // namespace
}  // namespace tickbench::timing
