#include "harness/cli/plan.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/cli/command_line.h"
#include "harness/cli/duration_flag.h"
#include "harness/cli/plan_bounds.h"

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
    if (n == "uniqtime") c.uniqtime = value == "true";
    if (n == "warmup") c.warmup = std::stoll(value);
    if (n == "pipe_size") c.pipe_size = std::stoll(value);
    if (n == "so_sndbuf") c.so_sndbuf = std::stoll(value);
    if (n == "so_rcvbuf") c.so_rcvbuf = std::stoll(value);
    if (n == "retries") c.retries = std::stoll(value);
    if (n == "seed") c.seed = std::stoull(value);
    if (n == "peer_stop_after") c.peer_stop_after = std::stoll(value);
    if (n == "sim_per_byte_ns") c.sim_per_byte_ns = std::stod(value);
    if (n == "sim_bsd") c.sim_bsd = value == "true";
    if (n == "sim_cluster") c.sim_cluster = std::stoll(value);
    if (n == "sim_threshold") c.sim_threshold = std::stoll(value);
    if (n == "sim_small") c.sim_small = std::stoll(value);
    if (n == "sim_jitter") c.sim_jitter = value;
    if (n == "clocks") c.clocks = value;
    if (n == "dither") c.dither = value == "true";
    if (n == "stop_on_loss") c.stop_on_loss = value == "true";
    if (n == "explain") c.explain = value == "true";
    if (n == "list_clocks") c.list_clocks = value == "true";
    if (n == "clock_info") c.clock_info = value;
    if (n == "analyze") c.analyze = value;
    if (n == "analyze_column") c.analyze_column = value;
    if (n == "role") c.role = value;
    if (n == "listen") c.listen = value;
    if (n == "peer") c.peer = value;
    if (n == "output") c.output = value;
    if (n == "plot") c.plot = value;
    if (n == "raw") c.raw = value;
    if (n == "percentiles") c.percentiles = value;
    if (n == "wide") c.wide = value == "true";
    if (n == "report") c.report = value;
    absl::Duration d;
    const bool duration = absl::ParseDuration(value, &d);
    if (n == "tick_period") c.tick_period = d;
    if (n == "receive_timeout") c.receive_timeout = d;
    if (n == "peer_reply_delay") c.peer_reply_delay = d;
    if (n == "gap") c.gap = d;
    if (n == "sim_fixed") c.sim_fixed = d;
    if (n == "sim_per_cluster") c.sim_per_cluster = d;
    if (n == "sim_per_small") c.sim_per_small = d;
    if (n == "sim_jitter_scale") c.sim_jitter_scale = d;
    (void)duration;
  }
  return c;
}

// Expects MakePlan to refuse `command_line` with InvalidArgument whose message contains
// every one of `parts`.
void ExpectRefused(const CommandLine& command_line, std::initializer_list<const char*> parts) {
  absl::StatusOr<Plan> plan = MakePlan(command_line);
  ASSERT_FALSE(plan.ok()) << "accepted; expected an error with " << *parts.begin();
  EXPECT_EQ(plan.status().code(), absl::StatusCode::kInvalidArgument) << plan.status();
  for (const char* part : parts) {
    EXPECT_THAT(std::string(plan.status().message()), HasSubstr(part));
  }
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
  absl::StatusOr<Plan> plan = MakePlan(With({{"experiment", "udp_rtt"},
                                             {"clock", "tick"},
                                             {"tick_period", "20ms"},
                                             {"iterations", "50"}}));
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

TEST(CliOptionsTest, NonFiniteAndHugeNumbersAreRefusedWithTheirRange) {
  // Each of these once ran with exit 0 and nonsense results.
  ExpectRefused(With({{"clock", "tick"}, {"tick_period", "inf"}}), {"--tick_period", "[2us, 1h]"});
  ExpectRefused(With({{"clock", "tick:inf"}}), {"--clock", "[2us, 1h]"});
  ExpectRefused(With({{"transport", "sim"}, {"sim_fixed", "inf"}}), {"--sim_fixed", "[0, 1h]"});
  for (const double bad : {std::nan(""), std::numeric_limits<double>::infinity(), 1e300, -1.0}) {
    CommandLine c = With({{"transport", "sim"}, {"sim_per_byte_ns", "0"}});
    c.sim_per_byte_ns = bad;
    ExpectRefused(c, {"--sim_per_byte_ns", "finite", "1e+06"});
  }
  ExpectRefused(With({{"transport", "sim"}, {"sim_bsd", "true"}, {"sim_cluster", "99999999999"}}),
                {"--sim_cluster", "1048576"});
  ExpectRefused(With({{"transport", "sim"}, {"sim_bsd", "true"}, {"sim_per_cluster", "inf"}}),
                {"--sim_per_cluster", "[0, 1s]"});
  ExpectRefused(With({{"receive_timeout", "inf"}}), {"--receive_timeout", "1h"});
  ExpectRefused(With({{"receive_timeout", "0.1ns"}}), {"--receive_timeout", "1us"});
  ExpectRefused(With({{"peer_reply_delay", "inf"}}), {"--peer_reply_delay", "10s"});
  ExpectRefused(With({{"experiment", "study"}, {"gap", "inf"}}), {"--gap", "1s"});
  ExpectRefused(With({{"retries", "101"}}), {"--retries", "0..100"});
  ExpectRefused(With({{"retries", "-1"}}), {"--retries", "0..100"});
  ExpectRefused(With({{"transport", "udp"}, {"peer_drop_every", "-1"}}), {"--peer_drop_every"});
  ExpectRefused(With({{"warmup", "-2"}}), {"--warmup", "-1..1000000000", "until steady"});
  ExpectRefused(With({{"clock", "tick"}, {"tick_phase", "inf"}}), {"--tick_phase", "[0, 10ms)"});
}

TEST(CliOptionsTest, APipeSizeIsForPipesInRangeAndReachesTheTransport) {
  ExpectRefused(With({{"transport", "unix_stream"}, {"pipe_size", "4096"}}),
                {"--pipe_size", "applies only to --transport=pipe"});
  ExpectRefused(With({{"transport", "pipe"}, {"pipe_size", "-1"}}),
                {"--pipe_size", "0..2147483647 bytes"});
  absl::StatusOr<Plan> plan = MakePlan(With({{"transport", "pipe"}, {"pipe_size", "4096"}}));
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->transport_options.pipe_size_bytes, 4096);
  EXPECT_EQ(MakePlan(With({{"transport", "pipe"}}))->transport_options.pipe_size_bytes, 0);
}

TEST(CliOptionsTest, SocketBuffersAreForUnixStreamUnderTheirSysctlAndReachTheTransport) {
  ExpectRefused(With({{"transport", "pipe"}, {"so_sndbuf", "4096"}}),
                {"--so_sndbuf", "applies only to --transport=unix_stream"});
  ExpectRefused(With({{"transport", "unix_stream"}, {"so_rcvbuf", "-1"}}), {"--so_rcvbuf"});
  ExpectRefused(With({{"transport", "unix_stream"}, {"so_sndbuf", "1000000000"}}),
                {"--so_sndbuf", "net.core.wmem_max"});
  absl::StatusOr<Plan> plan =
      MakePlan(With({{"transport", "unix_stream"}, {"so_sndbuf", "8192"}, {"so_rcvbuf", "16384"}}));
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->transport_options.so_sndbuf_bytes, 8192);
  EXPECT_EQ(plan->transport_options.so_rcvbuf_bytes, 16384);
}

TEST(CliOptionsTest, RetriesReachTheSweep) {
  absl::StatusOr<Plan> plan = MakePlan(With({{"retries", "7"}}));
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->sweep.retries, 7);
  EXPECT_EQ(MakePlan(CommandLine{})->sweep.retries, 3);
}

TEST(CliOptionsTest, FlagsThatDoNothingInTheChosenMeasurementAreRefused) {
  ExpectRefused(With({{"transport", "udp"}, {"sim_fixed", "1ms"}}),
                {"--sim_fixed", "--transport=sim"});
  ExpectRefused(With({{"sim_per_byte_ns", "1"}}), {"--sim_per_byte_ns", "--transport=sim"});
  ExpectRefused(With({{"transport", "sim"}, {"sim_cluster", "512"}}),
                {"--sim_cluster", "--sim_bsd"});
  ExpectRefused(With({{"transport", "sim"}, {"sim_jitter_scale", "1us"}}),
                {"--sim_jitter_scale", "--sim_jitter"});
  ExpectRefused(With({{"tick_phase", "0ms"}}), {"--tick_phase", "tick clock"});
  ExpectRefused(With({{"uniqtime", "true"}}), {"--uniqtime", "tick"});
  ExpectRefused(With({{"clock", "clock_gettime:monotonic"}, {"uniqtime", "true"}}),
                {"--uniqtime", "tick"});
  ExpectRefused(With({{"clock", "clock_gettime"}, {"uniqtime", "true"}}), {"--uniqtime", "tick"});
  ExpectRefused(With({{"clocks", "tick:10ms"}}), {"--clocks", "--experiment=study"});
  ExpectRefused(With({{"dither", "true"}}), {"--dither", "--experiment=study"});
  ExpectRefused(With({{"gap", "1ms"}}), {"--gap", "--experiment=study"});
  ExpectRefused(With({{"experiment", "study"}, {"explain", "true"}}), {"--explain", "study"});
  ExpectRefused(With({{"experiment", "study"}, {"batch", "10"}}), {"--batch", "study"});
  ExpectRefused(With({{"experiment", "study"}, {"clock", "tick"}}), {"--clock", "--clocks"});
  ExpectRefused(With({{"experiment", "study"}, {"clocks", "gettimeofday"}, {"tick_phase", "0ms"}}),
                {"--tick_phase", "--clocks"});
  ExpectRefused(With({{"transport", "sim"}, {"pin", "0,0"}}), {"--pin", "CLIENT_CPU alone"});
  ExpectRefused(With({{"role", "client"},
                      {"peer", "10.0.0.2:7478"},
                      {"transport", "udp"},
                      {"peer_reply_delay", "1ms"}}),
                {"--peer_reply_delay", "--role=client"});
  ExpectRefused(With({{"reference_clock", "virtual"}}), {"--reference_clock", "simulation"});
  // Those that do something pass: a tick phase in the study's tick clocks, a uniqtime tick.
  EXPECT_TRUE(MakePlan(With({{"experiment", "study"},
                             {"transport", "sim"},
                             {"clocks", "tick:10ms"},
                             {"tick_phase", "0ms"},
                             {"gap", "5ms"},
                             {"dither", "true"}}))
                  .ok());
  EXPECT_TRUE(MakePlan(With({{"clock", "tick:20ms"}, {"uniqtime", "true"}})).ok());
  EXPECT_TRUE(MakePlan(With({{"transport", "sim"},
                             {"sim_bsd", "true"},
                             {"sim_cluster", "1024"},
                             {"sim_threshold", "1024"}}))
                  .ok());
}

// The matrix writes --output and --report: --plot, --raw, --percentiles and --wide would be
// taken and ignored.
TEST(CliOptionsTest, TheMatrixRefusesASweepsOutputsAndTakesItsPage) {
  const std::string dir = ::testing::TempDir();
  // Each with a format where a sweep takes it (--wide: the table's).
  const struct {
    const char* flag;
    std::string value;
    const char* format;
  } kOutputs[] = {{"plot", dir + "/m.svg", "json"},
                  {"raw", dir + "/m.csv", "json"},
                  {"percentiles", "50,99", "json"},
                  {"wide", "true", "table"}};
  for (const auto& [flag, value, format] : kOutputs) {
    ExpectRefused(With({{"experiment", "matrix"}, {"format", format}, {flag, value}}),
                  {absl::StrCat("--", flag).c_str(), "does nothing with --experiment=matrix"});
    EXPECT_TRUE(MakePlan(With({{"experiment", "sweep"}, {"format", format}, {flag, value}})).ok())
        << flag;
  }
  absl::StatusOr<Plan> page =
      MakePlan(With({{"experiment", "matrix"}, {"report", dir + "/m.html"}}));
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_EQ(page->report_path, dir + "/m.html");
}

TEST(CliOptionsTest, ChooseModeRefusesFlagsOfAnotherMode) {
  const std::vector<std::pair<CommandLine, std::vector<const char*>>> refused = {
      {With({{"analyze_column", "x"}}), {"--analyze_column", "--analyze"}},
      {With({{"analyze", "a.csv"}, {"sizes", "32"}}), {"--sizes", "--analyze", "a measurement"}},
      {With({{"analyze", "a.csv"}, {"output", "x.csv"}}), {"--output", "--analyze"}},
      {With({{"listen", "127.0.0.1:7478"}}), {"--listen", "--role=server"}},
      {With({{"peer", "10.0.0.2:7478"}}), {"--peer", "--role=client"}},
      {With({{"role", "server"}, {"sizes", "32"}}), {"--sizes", "--role=server"}},
      {With({{"role", "server"}, {"peer", "10.0.0.2:7478"}}), {"--peer", "--role=server"}},
      {With({{"list_clocks", "true"}, {"analyze", "a.csv"}}), {"--analyze", "--list_clocks"}},
      {With({{"clock_info", "all"}, {"iterations", "5"}}), {"--iterations", "--clock_info"}},
      {With({{"analyze", ""}}), {"--analyze"}},
      {With({{"clock", "tick\x1b[2J"}}), {"--clock", "\\x1b"}},
  };
  for (const auto& [command_line, parts] : refused) {
    absl::StatusOr<Mode> mode = ChooseMode(command_line);
    ASSERT_FALSE(mode.ok()) << parts[0];
    for (const char* part : parts)
      EXPECT_THAT(std::string(mode.status().message()), HasSubstr(part));
    EXPECT_THAT(std::string(mode.status().message()), ::testing::Not(HasSubstr("\x1b")));
  }
  EXPECT_EQ(*ChooseMode(With({{"analyze", "a.csv"}, {"explain", "true"}, {"plot", "a.svg"}})),
            Mode::kAnalyze);
  EXPECT_EQ(*ChooseMode(With({{"clock_info", "all"}, {"allow_variable_cycle_counter", "true"}})),
            Mode::kClockInfo);
  EXPECT_EQ(*ChooseMode(With({{"role", "server"}, {"listen", "127.0.0.1:0"}})), Mode::kServer);
  EXPECT_EQ(*ChooseMode(With({{"role", "client"}, {"peer", "10.0.0.2:7478"}, {"sizes", "32"}})),
            Mode::kMeasure);
  EXPECT_EQ(*ChooseMode(CommandLine{}), Mode::kMeasure);
}

TEST(CliOptionsTest, StudyWithoutAReferenceIsRefused) {
  ExpectRefused(With({{"experiment", "study"}, {"reference_clock", "none"}}),
                {"--reference_clock=none is not allowed with --experiment=study"});
}

TEST(CliOptionsTest, PlansWhoseResultsCannotFitInMemoryAreRefused) {
  // 10000 sizes x 1 run x 4 attempts x 1'000'001 readings x 2 clocks x 8 bytes: 596 GiB.
  ExpectRefused(
      With(
          {{"transport", "sim"}, {"sizes", "1:10000:1"}, {"iterations", "1000000"}, {"runs", "1"}}),
      {"--sizes, --runs, --iterations", "596.1 GiB", "8.0 GiB"});
  // The study keeps its readings whatever their number: 1e9 round trips x 4 runs.
  ExpectRefused(With({{"experiment", "study"}, {"iterations", "1000000000"}, {"warmup", "0"}}),
                {"--iterations", "335.3 GiB"});
  // Chunked runs keep no readings: a billion round trips of one size are fine.
  absl::StatusOr<Plan> plan = MakePlan(
      With({{"sizes", "64"}, {"iterations", "1000000000"}, {"warmup", "0"}, {"runs", "1"}}));
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_LT(EstimatePlanBytes(*plan), 100e6);
  // The default plan is small: even at --precision's run limit (64 runs of its 11 sizes,
  // each with its retries), under 100 MB; with exact counts under 10 MB.
  EXPECT_LT(EstimatePlanBytes(*MakePlan(CommandLine{})), 100e6);
  EXPECT_LT(EstimatePlanBytes(*MakePlan(With({{"runs", "4"}}))), 10e6);
}

TEST(CliOptionsTest, ASimulationWhoseVirtualTimeWouldOverflowIsRefused) {
  ExpectRefused(With({{"transport", "sim"},
                      {"sim_fixed", "1h"},
                      {"iterations", "1000000000"},
                      {"warmup", "0"},
                      {"runs", "10000"},
                      {"batch", "1000000000"}}),
                {"--transport=sim", "years of virtual time"});
}

TEST(CliOptionsTest, OutputTargetsAreCheckedAndDashIsStandardOutput) {
  const std::string directory = ::testing::TempDir() + "/cli_output_targets";
  mkdir(directory.c_str(), 0700);
  const std::string fifo = directory + "/fifo";
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string link = directory + "/link";
  unlink(link.c_str());
  ASSERT_EQ(symlink((directory + "/target").c_str(), link.c_str()), 0);
  for (const std::string& bad : {fifo, link, directory, std::string("/nonexistent-dir/x.csv")}) {
    absl::StatusOr<Plan> plan = MakePlan(With({{"output", bad}}));
    ASSERT_FALSE(plan.ok()) << bad;
    const std::string message(plan.status().message());
    EXPECT_THAT(message, ::testing::StartsWith("--output: ")) << message;
    EXPECT_THAT(message.substr(1), ::testing::Not(HasSubstr("--output:")))
        << "prefix repeated: " << message;
    plan = MakePlan(With({{"plot", bad}}));
    ASSERT_FALSE(plan.ok()) << bad;
    EXPECT_THAT(std::string(plan.status().message()), ::testing::StartsWith("--plot: "));
  }
  // The plot's data file is checked too: a FIFO where sweep.dat would go.
  const std::string data_fifo = directory + "/sweep.dat";
  unlink(data_fifo.c_str());
  ASSERT_EQ(mkfifo(data_fifo.c_str(), 0600), 0);
  absl::StatusOr<Plan> plan = MakePlan(With({{"plot", directory + "/sweep.svg"}}));
  ASSERT_FALSE(plan.ok());
  EXPECT_THAT(std::string(plan.status().message()), HasSubstr("data file"));

  plan = MakePlan(With({{"output", "-"}}));
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->output_path, "") << "- is standard output: nothing more is written";
  plan = MakePlan(With({{"output", directory + "/new.csv"}, {"plot", directory + "/new.svg"}}));
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->output_path, directory + "/new.csv");
  EXPECT_EQ(plan->plot_path, directory + "/new.svg");
}

TEST(CliOptionsTest, DurationFlagsNameTheirUnits) {
  DurationFlag flag;
  std::string error;
  EXPECT_FALSE(AbslParseFlag("5", &flag, &error));
  EXPECT_THAT(error, HasSubstr("250ms"));
  EXPECT_THAT(error, HasSubstr("unit"));
  EXPECT_TRUE(AbslParseFlag("250ms", &flag, &error));
  EXPECT_EQ(flag.value, absl::Milliseconds(250));
  EXPECT_EQ(AbslUnparseFlag(flag), "250ms");
}

}  // namespace
}  // namespace tickbench::harness
