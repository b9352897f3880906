#include "harness/cli_options.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;

CommandLine With(std::initializer_list<std::pair<const char*, std::string>> flags) {
  CommandLine c;
  for (const auto& [name, value] : flags) {
    c.specified.insert(name);
    const std::string n = name;
    if (n == "experiment") c.experiment = value;
    if (n == "transport") c.transport = value;
    if (n == "clock") c.clock = value;
    if (n == "clock_id") c.clock_id = value;
    if (n == "sizes") c.sizes = value;
    if (n == "iterations") c.iterations = std::stoll(value);
    if (n == "runs") c.runs = std::stoll(value);
    if (n == "batch") c.batch = std::stoll(value);
    if (n == "format") c.format = value;
    if (n == "reference_clock") c.reference_clock = value;
    if (n == "tick_phase") c.tick_phase = value;
    if (n == "pin") c.pin = value;
    if (n == "peer_drop_every") c.peer_drop_every = std::stoll(value);
    if (n == "busy_poll") c.busy_poll = value == "true";
    if (n == "tick_period") {
      absl::Duration d;
      absl::ParseDuration(value, &d);
      c.tick_period = d;
    }
  }
  return c;
}

TEST(CliOptionsTest, DefaultIsTheClassicUnixThroughput) {
  absl::StatusOr<Plan> plan = MakePlan(CommandLine{});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->transport, "unix_stream");
  EXPECT_EQ(plan->sweep.sizes.size(), 11u);
  EXPECT_EQ(plan->sweep.engine.iterations, 1000);
  EXPECT_EQ(plan->sweep.runs, 4);
  EXPECT_TRUE(plan->has_reference);
}

TEST(CliOptionsTest, FlagsOverrideThePreset) {
  absl::StatusOr<Plan> plan = MakePlan(With({{"experiment", "udp_rtt"}, {"clock", "tick"},
                                             {"tick_period", "20ms"}, {"iterations", "50"}}));
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->transport, "udp");
  EXPECT_EQ(plan->sweep.sizes.size(), 40u);
  EXPECT_EQ(plan->sweep.engine.iterations, 50);
  EXPECT_EQ(plan->clock.kind, timing::ClockKind::kTick);
  EXPECT_EQ(plan->clock.tick_period, absl::Milliseconds(20));
}

TEST(CliOptionsTest, BusyPollReachesBothSides) {
  absl::StatusOr<Plan> plan = MakePlan(With({{"transport", "udp"}, {"busy_poll", "true"}}));
  ASSERT_TRUE(plan.ok()) << plan.status();
  // EchoSession::Open turns it on for the client and the forked peer alike.
  EXPECT_TRUE(plan->sweep.peer.busy_poll);
  plan = MakePlan(With({{"transport", "udp"}}));
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_FALSE(plan->sweep.peer.busy_poll);
}

TEST(CliOptionsTest, ClockIdAndSpecForms) {
  auto plan = MakePlan(With({{"clock", "clock_gettime"}, {"clock_id", "monotonic_coarse"}}));
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->clock.clock_id, "monotonic_coarse");
  plan = MakePlan(With({{"clock", "tick:20ms"}, {"reference_clock", "none"}}));
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->has_reference);
}

TEST(CliOptionsTest, BadInputNamesTheFlag) {
  const std::vector<std::pair<CommandLine, std::string>> cases = {
      {With({{"transport", "carrier_pigeon"}}), "--transport"},
      {With({{"sizes", "0"}}), "--sizes"},
      {With({{"transport", "udp"}, {"sizes", "70000"}}), "65507"},
      {With({{"sizes", "10:1"}}), "--sizes"},
      {With({{"iterations", "0"}}), "--iterations"},
      {With({{"iterations", "-5"}}), "--iterations"},
      {With({{"runs", "0"}}), "--runs"},
      {With({{"batch", "0"}}), "--batch"},
      {With({{"clock", "sundial"}}), "--clock"},
      {With({{"clock", "tick"}, {"tick_period", "0ms"}}), "--tick_period"},
      {With({{"clock", "tick"}, {"tick_period", "-10ms"}}), "--tick_period"},
      {With({{"clock_id", "monotonic_coarse"}, {"clock", "gettimeofday"}}), "--clock_id"},
      {With({{"format", "xml"}}), "--format"},
      {With({{"reference_clock", "sundial"}}), "--reference_clock"},
      {With({{"experiment", "lunar"}}), "--experiment"},
      {With({{"pin", "9999"}}), "--pin"},
      {With({{"clock", "tick"}, {"tick_phase", "15ms"}}), "--tick_phase"},
      {With({{"transport", "tcp"}, {"peer_drop_every", "3"}}), "--peer_drop_every"},
      {With({{"transport", "sim"}, {"busy_poll", "true"}}), "--busy_poll"},
  };
  for (const auto& [command_line, flag] : cases) {
    absl::StatusOr<Plan> plan = MakePlan(command_line);
    ASSERT_FALSE(plan.ok()) << "accepted, expected an error naming " << flag;
    EXPECT_THAT(std::string(plan.status().message()), HasSubstr(flag));
  }
}

}  // namespace
}  // namespace tickbench::harness
