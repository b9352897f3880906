#include "timing/clocks/clock_spec.h"

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"
#include "timing/clocks/cycle_clock.h"
#include "timing/clocks/virtual_clock.h"

namespace tickbench::timing {
namespace {

TEST(ClockSpecTest, ParsesEveryForm) {
  auto tick = ParseClockSpec("tick:20ms:uniqtime");
  ASSERT_TRUE(tick.ok()) << tick.status();
  EXPECT_EQ(tick->kind, ClockKind::kTick);
  EXPECT_EQ(tick->tick_period, absl::Milliseconds(20));
  EXPECT_TRUE(tick->uniqtime);
  auto coarse = ParseClockSpec("clock_gettime:monotonic_coarse");
  ASSERT_TRUE(coarse.ok());
  EXPECT_EQ(coarse->clock_id, "monotonic_coarse");
  EXPECT_EQ(ParseClockSpec("clock_gettime")->clock_id, "monotonic");
  EXPECT_EQ(ParseClockSpec("tick")->tick_period, absl::Milliseconds(10));
  auto list = ParseClockSpecList("gettimeofday, tick:10ms ,virtual");
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->size(), 3u);
}

TEST(ClockSpecTest, CanonicalTextRoundTrips) {
  for (const ClockSpec& spec : AvailableClockSpecs()) {
    const std::string text = ClockSpecToString(spec);
    absl::StatusOr<ClockSpec> again = ParseClockSpec(text);
    ASSERT_TRUE(again.ok()) << text << ": " << again.status();
    EXPECT_EQ(ClockSpecToString(*again), text);
  }
}

TEST(ClockSpecTest, RejectsBadSpecsNamingAllowedValues) {
  for (const char* bad : {"sundial", "tick:0ms", "tick:-10ms", "tick:ten", "clock_gettime:fast",
                          "gettimeofday:1", "tick:10ms:uniq", ""}) {
    absl::StatusOr<ClockSpec> spec = ParseClockSpec(bad);
    EXPECT_EQ(spec.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_NE(ParseClockSpec("sundial").status().message().find("gettimeofday"),
            absl::string_view::npos);
  // The other architecture's counter is a clock this CPU lacks.
  const char* other = std::string(CycleClockName()) == "rdtsc" ? "cntvct" : "rdtsc";
  EXPECT_EQ(ParseClockSpec(other).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(ClockSpecTest, ABoardClockSaysWhereItRuns) {
  for (const char* board : {"systick", "systick_fine", "dwt"}) {
    const absl::StatusOr<ClockSpec> spec = ParseClockSpec(board);
    EXPECT_EQ(spec.status().code(), absl::StatusCode::kInvalidArgument) << board;
    EXPECT_NE(spec.status().message().find("--config=cortex_m3"), absl::string_view::npos)
        << spec.status();
  }
  EXPECT_EQ(ParseClockSpec("sundial").status().message().find("cortex_m3"),
            absl::string_view::npos);
}

TEST(ClockSpecTest, RefusesTickPeriodsOutsideTheRange) {
  // "inf" and "1e300s"-like periods once made a tick clock that never ticked.
  for (const char* bad :
       {"tick:inf", "tick:-inf", "tick:1us", "tick:1.5ns", "tick:2h", "tick:99999999999h"}) {
    absl::StatusOr<ClockSpec> spec = ParseClockSpec(bad);
    ASSERT_FALSE(spec.ok()) << bad;
    EXPECT_EQ(spec.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_NE(ParseClockSpec("tick:inf").status().message().find("[2us, 1h]"),
            absl::string_view::npos)
      << ParseClockSpec("tick:inf").status();
  EXPECT_TRUE(ParseClockSpec("tick:2us").ok());
  EXPECT_TRUE(ParseClockSpec("tick:1h").ok());
  EXPECT_TRUE(ValidateTickPeriod(absl::Milliseconds(20)).ok());
  EXPECT_FALSE(ValidateTickPeriod(absl::InfiniteDuration()).ok());
}

TEST(ClockSpecTest, EscapesControlBytesInMessages) {
  for (const char* bad : {"sun\x1b[2Jdial", "clock_gettime:\x1b[31m", "tick:1\nms"}) {
    std::string text;
    ASSERT_TRUE(absl::CUnescape(bad, &text));
    const absl::Status status = ParseClockSpec(text).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_EQ(status.message().find('\x1b'), absl::string_view::npos) << bad;
    EXPECT_EQ(status.message().find('\n'), absl::string_view::npos) << bad;
  }
}

TEST(ClockSpecTest, MakesEveryAvailableClock) {
  ClockEnvironment environment;
  environment.allow_variable_cycle_counter = true;
  for (const ClockSpec& spec : AvailableClockSpecs()) {
    absl::StatusOr<std::unique_ptr<Clock>> clock = MakeClock(spec, environment);
    ASSERT_TRUE(clock.ok()) << ClockSpecToString(spec) << ": " << clock.status();
    EXPECT_EQ((*clock)->info().spec, ClockSpecToString(spec));
    EXPECT_GT((*clock)->info().ticks_per_second, 0);
  }
}

TEST(ClockSpecTest, SimulatedClocksReadTheSharedVirtualTime) {
  VirtualClock time;
  ClockEnvironment environment;
  environment.simulated_time = &time;
  environment.fixed_phase = true;
  auto tick = MakeClock(*ParseClockSpec("tick:10ms"), environment);
  auto view = MakeClock(*ParseClockSpec("virtual"), environment);
  ASSERT_TRUE(tick.ok() && view.ok());
  time.Advance(absl::Milliseconds(25));
  EXPECT_EQ((*tick)->NowTicks(), 20'000'000);
  EXPECT_EQ((*view)->NowTicks(), 25'000'000);
}

}  // namespace
}  // namespace tickbench::timing
