#include "harness/context/run_context.h"

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/json/json_reader.h"
#include "harness/json/json_writer.h"
#include "transport/io/read_watchdog.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

ClockDescription Coarse(absl::Duration resolution) {
  ClockDescription clock;
  clock.info.name = "tick";
  clock.info.claimed_resolution = resolution;
  clock.probe.observed_resolution = resolution;
  return clock;
}

// Each kind of receive names its own bound, its timeout and the switch that removes it;
// none names no bound.
TEST(RunContextTest, TheLoopLineNamesTheBoundOfEachKindOfReceive) {
  const absl::Duration second = absl::Seconds(1);
  const absl::Duration short_timeout = absl::Milliseconds(5);  // under the watchdog's least
  const std::string datagram = ReceiveBoundText(ReceiveKind::kDatagramSocket, false, second, true);
  const std::string stream = ReceiveBoundText(ReceiveKind::kStreamSocket, false, second, false);
  const std::string short_pipe = ReceiveBoundText(ReceiveKind::kPipe, false, short_timeout, false);
  const std::string short_stream =
      ReceiveBoundText(ReceiveKind::kStreamSocket, false, short_timeout, false);
  const std::string spinning = ReceiveBoundText(ReceiveKind::kPipe, true, second, true);
  const std::string none =
      ReceiveBoundText(ReceiveKind::kDatagramSocket, false, absl::InfiniteDuration(), false);
  EXPECT_THAT(datagram, HasSubstr("SO_RCVTIMEO"));
  EXPECT_THAT(datagram, HasSubstr("1000 x the warm-up's median round trip"));
  // Where a timer cannot signal one thread (qemu-user), the endpoints fall back.
  EXPECT_THAT(stream,
              HasSubstr(transport::ReadWatchdogsAvailable() ? "a read watchdog" : "SO_RCVTIMEO"));
  EXPECT_THAT(stream, HasSubstr("--receive_timeout=1s"));
  EXPECT_THAT(short_pipe, HasSubstr("ppoll()"));
  EXPECT_THAT(short_stream, HasSubstr("SO_RCVTIMEO"));  // a stream socket has no ppoll path
  EXPECT_FALSE(absl::StrContains(datagram, "watchdog")) << datagram;
  EXPECT_THAT(spinning, HasSubstr("reads the clock after every 64 empty attempts"));
  for (const std::string& bounded : {datagram, stream, short_pipe, short_stream, spinning}) {
    EXPECT_THAT(bounded, HasSubstr("--receive_timeout=none leaves that out"));
  }
  EXPECT_THAT(none, HasSubstr("receives wait without a bound"));
  EXPECT_FALSE(absl::StrContains(none, "SO_RCVTIMEO")) << none;
}

// A clock_gettime clock probed on this host at `read_cost_ns` a read.
ClockDescription Probed(double read_cost_ns) {
  ClockDescription clock = Coarse(absl::Nanoseconds(1));
  clock.info.spec = "clock_gettime:monotonic";
  clock.info.name = "clock_gettime(CLOCK_MONOTONIC)";
  clock.probe.reads = 20'000;
  clock.probe.read_cost_ns = read_cost_ns;
  return clock;
}

std::string AllWarnings(const platform::SystemInfo& system,
                        const std::vector<ClockDescription>& clocks) {
  std::string all;
  for (const std::string& w : ContextWarnings(system, clocks)) all += w + "\n";
  return all;
}

TEST(RunContextTest, WarnsWhereResultsMayMislead) {
  platform::SystemInfo system;
  system.clocksource = "hpet";
  system.cpu_governor = "powersave";
  system.build_mode = "dbg";
  const std::string all = AllWarnings(system, {Coarse(absl::Milliseconds(20)), Probed(1200)});
  EXPECT_THAT(all, HasSubstr("'hpet' and a read of clock_gettime(CLOCK_MONOTONIC) costs 1200 ns"));
  EXPECT_THAT(all, HasSubstr("powersave"));
  EXPECT_THAT(all, HasSubstr("resolves only 20ms"));
}

// The clocksource warning follows the measured read: none beside a 26 ns read (the vDSO
// works on this kvm-clock), none where no OS clock was timed (a simulation's clocks are
// not probed), one at a system call's cost.
TEST(RunContextTest, TheClocksourceWarningFollowsTheMeasuredReadCost) {
  platform::SystemInfo system;
  system.clocksource = "kvm-clock";
  EXPECT_THAT(AllWarnings(system, {Probed(26)}), Not(HasSubstr("clocksource")));
  ClockDescription simulated = Probed(0);
  simulated.probe.reads = 0;
  simulated.info.spec = "tick:10ms";
  EXPECT_THAT(AllWarnings(system, {simulated}), Not(HasSubstr("clocksource")));
  ClockDescription cycles = Probed(900);
  cycles.info.spec = "rdtsc";  // not the kernel's time
  EXPECT_THAT(AllWarnings(system, {cycles}), Not(HasSubstr("clocksource")));
  EXPECT_THAT(AllWarnings(system, {Probed(26), Probed(700)}),
              HasSubstr("'kvm-clock' and a read of clock_gettime(CLOCK_MONOTONIC) costs 700 ns"));
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

// One writer of a clock's object: a report's context and --clock_info's list (no role) write
// the same members in the same order.
TEST(RunContextTest, OneClockObjectWithItsRoleWhereItHasOne) {
  ClockDescription clock = Coarse(absl::Microseconds(1));
  clock.info.spec = "tick";
  clock.info.ticks_per_second = 1e6;
  clock.probe.read_cost_ns = 2.5;
  clock.probe.backward_steps = 3;
  clock.info.notes = "n";
  const std::string members =
      R"("spec":"tick","name":"tick","ticks_per_second":1000000,"claimed_resolution_ns":1000,)"
      R"("observed_resolution_ns":1000,"read_cost_ns":2.5,"backward_steps":3,"notes":"n"})";
  JsonWriter listed;
  WriteClockJson(listed, clock);
  EXPECT_EQ(listed.text(), "{" + members);
  clock.role = "reference";
  JsonWriter with_role;
  WriteClockJson(with_role, clock);
  EXPECT_EQ(with_role.text(), R"({"role":"reference",)" + members);
  JsonWriter context;
  WriteContextJson(context, MakeRunContext({clock}, {}), "e");
  EXPECT_THAT(context.text(), HasSubstr(R"("clocks":[)" + with_role.text() + "]"));
}

TEST(RunContextTest, CommentNamesHostClocksAndWarnings) {
  RunContext context = MakeRunContext({Coarse(absl::Milliseconds(10))}, {{"clock", "tick"}});
  const std::string text = FormatContextComment(context);
  EXPECT_THAT(text, HasSubstr("# CPU: "));
  EXPECT_THAT(text, HasSubstr("clocksource"));
  EXPECT_THAT(text, HasSubstr("WARNING"));
}

// What the terminal would act on: a C0 control byte but the line ends, DEL, or a C1
// control (U+0080..U+009F, 0xC2 0x80..0x9F in UTF-8, or the raw byte).
bool HasTerminalControl(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7f) return true;
    if (c >= 0x80 && c <= 0x9f) return true;
    if (c == 0xc2 && i + 1 < text.size()) {
      const unsigned char next = static_cast<unsigned char>(text[i + 1]);
      if (next >= 0x80 && next <= 0x9f) return true;
    }
  }
  return false;
}

TEST(RunContextTest, EveryStringFromTheSystemReachesTheTerminalEscaped) {
  RunContext context = MakeRunContext({Coarse(absl::Milliseconds(10))}, {{"clock", "tick"}});
  platform::SystemInfo& s = context.system;
  s.hostname = "host\x1b]0;owned\x07name";
  s.cpu_model =
      "CPU \x1b[2J\xc2\x9b"
      "31m \xc2\xb5"
      "arch";  // CSI as U+009B; a µ kept
  s.os = "Linux\r";
  s.kernel = "6.1\nrelease \x9b";  // a newline, a raw C1 byte
  s.clocksource = "hpet\x1b[0m";
  s.cpu_governor = "powersave\x7f";
  s.build_mode = "opt\b";
  context.clocks[0].info.name = "tick\x1b[1m";
  context.clocks[0].info.spec = "tick:10ms";  // probed at a system call's cost: warned of
  context.clocks[0].probe.reads = 1000;
  context.clocks[0].probe.read_cost_ns = 800;
  context.peer = "10.0.0.1:7478\x1b";
  context.warnings = ContextWarnings(s, context.clocks);
  const std::string text = FormatContextComment(context);
  EXPECT_FALSE(HasTerminalControl(text)) << text;
  EXPECT_THAT(text, HasSubstr("host\\x1b]0;owned\\x07name"));
  EXPECT_THAT(text, HasSubstr("6.1\\x0arelease \\x9b"));
  EXPECT_THAT(text, HasSubstr("\xc2\xb5"
                              "arch"));            // printable UTF-8 stays as it is
  EXPECT_THAT(text, HasSubstr("'hpet\\x1b[0m'"));  // in the warning too
  // Every line is one of the comment's own: none was split by a newline from the system.
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    EXPECT_TRUE(absl::StartsWith(line, "# ")) << line;
  }
}

// Issue 46 item 6: the context's JSON with a host name holding 8-bit CSI (0x9b, not
// UTF-8) and U+202E: the file was not valid UTF-8 (a JSON parser refused it) and carried
// the override raw. Now every byte of it is printable ASCII and the host reads back with
// U+FFFD for the byte and the override as a character.
TEST(RunContextTest, AHostNameWithC1AndBidiBytesMakesValidJson) {
  RunContext context = MakeRunContext({Coarse(absl::Milliseconds(10))}, {{"clock", "tick"}});
  context.system.hostname =
      "evil\x9b"
      "31m\xe2\x80\xae"
      "host";
  JsonWriter json;
  WriteContextJson(json, context, "sweep");
  for (const char c : json.text()) {
    EXPECT_TRUE(c >= 0x20 && c < 0x7f)
        << "byte " << static_cast<int>(static_cast<unsigned char>(c));
  }
  EXPECT_THAT(json.text(), HasSubstr(R"("host":"evil\ufffd31m\u202ehost")"));
  const absl::StatusOr<JsonValue> parsed = ParseJson(json.text());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
}

}  // namespace
}  // namespace tickbench::harness
