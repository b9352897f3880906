#include "timing/clocks/os_clocks.h"

#include <time.h>

#include <cmath>

#include "gtest/gtest.h"

namespace tickbench::timing {
namespace {

TEST(OsClocksTest, ParsesEveryClockIdAndRejectsOthers) {
  for (const ClockIdName& id : ClockIdNames()) {
    absl::StatusOr<ClockIdName> parsed = ParseClockId(id.flag_name);
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(parsed->id, id.id);
  }
  absl::StatusOr<ClockIdName> bad = ParseClockId("monotonic_fast");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("monotonic_coarse"), absl::string_view::npos)
      << "the error should list the allowed ids";
}

TEST(OsClocksTest, CoarseClocksClaimTheKernelTick) {
  ClockGettimeClock coarse(*ParseClockId("monotonic_coarse"));
  ClockGettimeClock fine(*ParseClockId("monotonic"));
  // A coarse clock claims 1/HZ (1 to 10 ms); a high-resolution one claims ~1 ns.
  EXPECT_GE(coarse.info().claimed_resolution, absl::Microseconds(900));
  EXPECT_LE(fine.info().claimed_resolution, absl::Microseconds(1));
}

TEST(OsClocksTest, GettimeofdayAndClockGettimeAgreeOnAnInterval) {
  // Bounded retries: a preemption between the paired reads can skew one attempt.
  GettimeofdayClock wall;
  ClockGettimeClock monotonic(*ParseClockId("monotonic"));
  double worst_relative = 1;
  for (int attempt = 0; attempt < 5 && worst_relative > 0.01; ++attempt) {
    const int64_t wall_start = wall.NowTicks(), mono_start = monotonic.NowTicks();
    timespec pause{0, 100'000'000};  // 100 ms: a 1 us wall tick is 1e-5 of it
    nanosleep(&pause, nullptr);
    const int64_t wall_stop = wall.NowTicks(), mono_stop = monotonic.NowTicks();
    const double wall_ns = wall.TicksToNanos(wall_stop - wall_start);
    const double mono_ns = monotonic.TicksToNanos(mono_stop - mono_start);
    worst_relative = std::abs(wall_ns - mono_ns) / mono_ns;
  }
  EXPECT_LT(worst_relative, 0.01);
}

}  // namespace
}  // namespace tickbench::timing
