#include "harness/run_context.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;

ClockDescription Coarse(absl::Duration resolution) {
  ClockDescription clock;
  clock.info.name = "tick";
  clock.info.claimed_resolution = resolution;
  clock.probe.observed_resolution = resolution;
  return clock;
}

TEST(RunContextTest, WarnsWhereResultsMayMislead) {
  platform::SystemInfo system;
  system.clocksource = "hpet";
  system.cpu_governor = "powersave";
  system.build_mode = "dbg";
  const std::vector<std::string> warnings =
      ContextWarnings(system, {Coarse(absl::Milliseconds(20))});
  std::string all;
  for (const std::string& w : warnings) all += w + "\n";
  EXPECT_THAT(all, HasSubstr("'hpet'"));
  EXPECT_THAT(all, HasSubstr("powersave"));
  EXPECT_THAT(all, HasSubstr("resolves only 20ms"));
}

TEST(RunContextTest, BusyPollWantsACpuPerSide) {
  // Off: nothing to say, whatever the placement.
  EXPECT_FALSE(BusyPollWarning(false, true, -1, -1, 1).has_value());
  // A local peer: two CPUs, both pinned, and not the same one.
  EXPECT_FALSE(BusyPollWarning(true, true, 0, 1, 2).has_value());
  EXPECT_THAT(BusyPollWarning(true, true, 0, 1, 1).value_or(""), HasSubstr("1 CPU"));
  EXPECT_THAT(BusyPollWarning(true, true, -1, -1, 8).value_or(""), HasSubstr("--pin"));
  EXPECT_THAT(BusyPollWarning(true, true, 0, -1, 8).value_or(""), HasSubstr("--pin"));
  EXPECT_THAT(BusyPollWarning(true, true, 3, 3, 8).value_or(""), HasSubstr("two different CPUs"));
  // A remote peer spins on its own host: only the client's CPU matters.
  EXPECT_FALSE(BusyPollWarning(true, false, 0, -1, 1).has_value());
  EXPECT_THAT(BusyPollWarning(true, false, -1, -1, 8).value_or(""), HasSubstr("--pin"));
}

TEST(RunContextTest, BlockingOnAVirtualMachineIsWarnedOf) {
  EXPECT_THAT(BlockingOnVirtualMachineWarning(false, false, true).value_or(""),
              HasSubstr("--busy_poll"));
  EXPECT_FALSE(BlockingOnVirtualMachineWarning(true, false, true).has_value());    // spinning
  EXPECT_FALSE(BlockingOnVirtualMachineWarning(false, true, true).has_value());    // simulated
  EXPECT_FALSE(BlockingOnVirtualMachineWarning(false, false, false).has_value());  // bare metal
}

TEST(RunContextTest, QuietOnAGoodSetup) {
  platform::SystemInfo system;
  system.clocksource = "tsc";
  system.cpu_governor = "performance";
  const std::vector<std::string> warnings = ContextWarnings(system, {Coarse(absl::Nanoseconds(1))});
  // Only the build warning can remain, and only in a non-optimised test build.
  EXPECT_LE(warnings.size(), platform::IsOptimizedBuild() ? 0u : 1u);
}

TEST(RunContextTest, CommentNamesHostClocksAndWarnings) {
  RunContext context = MakeRunContext({Coarse(absl::Milliseconds(10))}, {{"clock", "tick"}});
  const std::string text = FormatContextComment(context);
  EXPECT_THAT(text, HasSubstr("# CPU: "));
  EXPECT_THAT(text, HasSubstr("clocksource"));
  EXPECT_THAT(text, HasSubstr("WARNING"));
}

}  // namespace
}  // namespace tickbench::harness
