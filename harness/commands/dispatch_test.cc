#include "harness/commands/dispatch.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// Commands that record their names, in the order run, and return distinct codes.
struct Recorder {
  std::vector<std::string> calls;
  Commands commands() {
    Commands c;
    const auto command = [this](const char* name, int code) {
      return [this, name, code](const CommandLine&, const ReportStreams&) {
        calls.push_back(name);
        return code;
      };
    };
    c.list_clocks = command("list_clocks", 10);
    c.clock_info = command("clock_info", 11);
    c.analyze = command("analyze", 12);
    c.server = command("server", 13);
    c.measure = command("measure", 14);
    c.install_stop_handlers = [this] {
      calls.push_back("stop_handlers");
      return absl::OkStatus();
    };
    return c;
  }
};

ReportStreams Discard() {
  return {[](absl::string_view) {}, [](absl::string_view) {}};
}

CommandLine Given(std::initializer_list<const char*> flags) {
  CommandLine c;
  for (const char* flag : flags) c.specified.insert(flag);
  return c;
}

TEST(DispatchTest, NoModeFlagIsAMeasurementAfterTheStopHandlers) {
  Recorder r;
  EXPECT_EQ(Dispatch(CommandLine(), r.commands(), Discard()), 14);
  EXPECT_THAT(r.calls, ElementsAre("stop_handlers", "measure"));
}

TEST(DispatchTest, ListClocksRunsAloneWithoutStopHandlers) {
  Recorder r;
  CommandLine c = Given({"list_clocks"});
  c.list_clocks = true;
  EXPECT_EQ(Dispatch(c, r.commands(), Discard()), 10);
  EXPECT_THAT(r.calls, ElementsAre("list_clocks"));
}

TEST(DispatchTest, ClockInfoAndAnalyzeInstallTheStopHandlersFirst) {
  Recorder info;
  CommandLine c = Given({"clock_info"});
  c.clock_info = "all";
  EXPECT_EQ(Dispatch(c, info.commands(), Discard()), 11);
  EXPECT_THAT(info.calls, ElementsAre("stop_handlers", "clock_info"));

  Recorder analyze;
  c = Given({"analyze", "explain"});
  c.analyze = "sweep.csv";
  EXPECT_EQ(Dispatch(c, analyze.commands(), Discard()), 12);
  EXPECT_THAT(analyze.calls, ElementsAre("stop_handlers", "analyze"));
}

TEST(DispatchTest, RoleServerIsTheServerWhichPollsItsOwnSignals) {
  Recorder r;
  CommandLine c = Given({"role"});
  c.role = "server";
  EXPECT_EQ(Dispatch(c, r.commands(), Discard()), 13);
  EXPECT_THAT(r.calls, ElementsAre("server"));
}

TEST(DispatchTest, RoleClientIsAMeasurement) {
  Recorder r;
  CommandLine c = Given({"role", "peer"});
  c.role = "client";
  c.peer = "127.0.0.1:7478";
  EXPECT_EQ(Dispatch(c, r.commands(), Discard()), 14);
  EXPECT_THAT(r.calls, ElementsAre("stop_handlers", "measure"));
}

TEST(DispatchTest, ListClocksTakesPrecedenceOverTheOtherModes) {
  Recorder r;
  CommandLine c;
  c.list_clocks = true;
  c.clock_info = "all";
  // Both given: ChooseMode refuses the second mode flag, and nothing runs.
  c.specified = {"list_clocks", "clock_info"};
  EXPECT_EQ(Dispatch(c, r.commands(), Discard()), 2);
  EXPECT_THAT(r.calls, IsEmpty());
}

TEST(DispatchTest, AFlagThatDoesNothingInTheModeExitsTwoAndRunsNothing) {
  Recorder r;
  CommandLine c = Given({"analyze", "sizes"});
  c.analyze = "sweep.csv";
  c.sizes = "32";
  EXPECT_EQ(Dispatch(c, r.commands(), Discard()), 2);
  EXPECT_THAT(r.calls, IsEmpty());
}

TEST(DispatchTest, StopHandlersThatFailEndWithAFaultBeforeTheCommand) {
  Recorder r;
  Commands commands = r.commands();
  commands.install_stop_handlers = [] { return absl::InternalError("sigaction: no"); };
  std::string err;
  ReportStreams streams = Discard();
  streams.err = [&err](absl::string_view text) { err.append(text.data(), text.size()); };
  EXPECT_EQ(Dispatch(CommandLine(), commands, streams), 1);
  EXPECT_THAT(r.calls, IsEmpty());
  EXPECT_EQ(err, "tickbench: sigaction: no\n");
}

}  // namespace
}  // namespace tickbench::harness
