// The Clock contract (timing/clock.h), checked on every clock this machine offers.
#include <cstdint>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "timing/clock_spec.h"

namespace tickbench::timing {
namespace {

class ClockConformanceTest : public ::testing::TestWithParam<ClockSpec> {
 protected:
  void SetUp() override {
    ClockEnvironment environment;
    environment.allow_variable_cycle_counter = true;
    absl::StatusOr<std::unique_ptr<Clock>> clock = MakeClock(GetParam(), environment);
    ASSERT_TRUE(clock.ok()) << clock.status();
    clock_ = std::move(*clock);
  }
  std::unique_ptr<Clock> clock_;
};

// Verified here: readings never go backwards across many back-to-back reads. (Wall
// clocks may step with NTP; over a few milliseconds of reads that does not happen.)
TEST_P(ClockConformanceTest, NeverGoesBackwards) {
  int64_t previous = clock_->NowTicks();
  for (int i = 0; i < 200'000; ++i) {
    const int64_t now = clock_->NowTicks();
    ASSERT_GE(now, previous) << clock_->info().name << " went back at read " << i;
    previous = now;
  }
}

// Verified here: the clock describes itself with a rate, a name, a spec that parses back
// to the same clock, and a positive claimed resolution.
TEST_P(ClockConformanceTest, DescribesItself) {
  const ClockInfo& info = clock_->info();
  EXPECT_FALSE(info.name.empty());
  EXPECT_GT(info.ticks_per_second, 0);
  EXPECT_GT(info.claimed_resolution, absl::ZeroDuration());
  EXPECT_EQ(info.spec, ClockSpecToString(GetParam()));
  EXPECT_NEAR(clock_->TicksToNanos(int64_t{1'000'000}), 1e6 * 1e9 / info.ticks_per_second, 1e-3);
}

// Verified here: a real (not simulated) clock advances over 5 ms by about 5 ms, within
// its claimed resolution plus scheduling slack.
TEST_P(ClockConformanceTest, RealClocksAdvanceWithTime) {
  if (clock_->info().simulated && GetParam().kind == ClockKind::kVirtual) {
    GTEST_SKIP() << "virtual time moves only when a simulation advances it";
  }
  const int64_t start = clock_->NowTicks();
  timespec pause{0, 5'000'000};
  const absl::Duration resolution = clock_->info().claimed_resolution;
  // Sleep at least two resolutions so that even a 20 ms tick must move.
  const int sleeps = std::max<int64_t>(1, absl::ToInt64Milliseconds(2 * resolution) / 5 + 1);
  for (int i = 0; i < sleeps; ++i) nanosleep(&pause, nullptr);
  const double elapsed_ns = clock_->TicksToNanos(clock_->NowTicks() - start);
  EXPECT_GT(elapsed_ns, sleeps * 5e6 - absl::ToDoubleNanoseconds(resolution));
  EXPECT_LT(elapsed_ns, sleeps * 5e6 + absl::ToDoubleNanoseconds(resolution) + 1e9);
}

std::string SpecName(const ::testing::TestParamInfo<ClockSpec>& info) {
  std::string name = ClockSpecToString(info.param);
  for (char& c : name) {
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(EveryClock, ClockConformanceTest,
                         ::testing::ValuesIn(AvailableClockSpecs()), SpecName);

}  // namespace
}  // namespace tickbench::timing
