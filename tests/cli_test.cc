// The command line end to end, on the binary: -h, what --help lists, "did you mean" for a
// mistyped flag, --version, and --format=json for the modes that measure nothing.
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/cli/presets.h"
#include "harness/json/json_reader.h"
#include "tests/harness_runner.h"
#include "transport/registry/transport_registry.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using tickbench::harness::JsonValue;
using tickbench::harness::ParseJson;
using tickbench::testing::HarnessResult;
using tickbench::testing::RunHarness;

TEST(CliTest, DashHIsHelp) {
  const HarnessResult h = RunHarness("-h");
  const HarnessResult help = RunHarness("--help");
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_EQ(h.out, help.out);
  EXPECT_THAT(h.out, HasSubstr("--iterations"));
  EXPECT_EQ(h.err, "");
}

TEST(CliTest, HelpListsEveryExperimentAndTransport) {
  const HarnessResult r = RunHarness("--help");
  ASSERT_EQ(r.exit_code, 0);
  const size_t experiments = r.out.find("Experiments (--experiment):\n");
  ASSERT_NE(experiments, std::string::npos) << r.out;
  for (const tickbench::harness::Preset& preset : tickbench::harness::Presets()) {
    EXPECT_THAT(r.out.substr(experiments), HasSubstr(absl::StrCat("\n  ", preset.name, " ")))
        << preset.name;
  }
  EXPECT_THAT(r.out, HasSubstr("\n  study "));
  const size_t transports = r.out.find("Transports (--transport):\n");
  ASSERT_NE(transports, std::string::npos);
  for (const tickbench::transport::TransportInfo& t :
       tickbench::transport::RegisteredTransports()) {
    EXPECT_THAT(r.out.substr(transports), HasSubstr(absl::StrCat("\n  ", t.name, " "))) << t.name;
  }
  EXPECT_THAT(r.out, HasSubstr("\n  sim "));
}

TEST(CliTest, AMistypedFlagGetsTheNearestName) {
  const HarnessResult r = RunHarness("--transport=sim --iteratons=5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("did you mean --iterations?"));
  EXPECT_EQ(r.out, "");
  // A value that follows a flag is no flag; a name far from every flag gets no guess.
  const HarnessResult far = RunHarness("--sizes 32 --qqqqqqqqqqqqq");
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_THAT(far.err, HasSubstr("qqqqqqqqqqqqq"));
  EXPECT_THAT(far.err, Not(HasSubstr("did you mean")));
  const HarnessResult swapped = RunHarness("--transport=sim --sezis=32");
  EXPECT_THAT(swapped.err, HasSubstr("did you mean --sizes?"));
}

// Issue 32: a bad number printed Abseil's "ERROR: Illegal value 'abc' specified for flag
// 'iterations'" and tickbench's own line; an unknown flag with a near name two lines too.
TEST(CliTest, EachMistakeIsOneErrorLine) {
  for (const auto& [args, lines] :
       std::vector<std::pair<std::string, size_t>>{{"--iterations=abc", 1},
                                                   {"--tick_period=5", 1},
                                                   {"--no_such_flag", 1},
                                                   {"--iteratons=5", 1},
                                                   {"--iteratons=5 --runs=x", 2},
                                                   {"--help --bogus", 1}}) {
    const HarnessResult r = RunHarness(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_THAT(r.err, Not(HasSubstr("ERROR:"))) << args;
    const std::vector<std::string> err = absl::StrSplit(r.err, '\n', absl::SkipEmpty());
    EXPECT_EQ(err.size(), lines) << args << "\n" << r.err;
    for (const std::string& line : err) EXPECT_TRUE(absl::StartsWith(line, "tickbench: ")) << line;
  }
  EXPECT_THAT(RunHarness("--iterations=abc").err,
              HasSubstr("--iterations: must be 1..1000000000; got 'abc', not a whole number"));
}

// Issue 32: values got no suggestion.
TEST(CliTest, AMistypedValueGetsTheNamesItMayHaveMeant) {
  for (const auto& [args, hint] : std::vector<std::pair<std::string, std::string>>{
           {"--experiment=studdy", "; did you mean study?"},
           {"--transport=unix", "; did you mean unix_stream or unix_dgram?"},
           {"--transport=sim --clock=virtul", "; did you mean virtual?"},
           {"--clock_id=monotnic", "; did you mean monotonic?"},
           {"--experiment=study --transport=sim --clocks=virtual,tik:10ms",
            "'tik'; allowed clocks: "}}) {
    const HarnessResult r = RunHarness(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_THAT(r.err, HasSubstr(hint)) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_THAT(RunHarness("--experiment=study --transport=sim --clocks=virtual,tik:10ms").err,
              HasSubstr("did you mean tick?"));
  // The cycle counter's name is this CPU's: rdtsc on x86-64, cntvct on arm64.
  const HarnessResult tsc = RunHarness("--clock=tsc");
  EXPECT_EQ(tsc.exit_code, 2);
  EXPECT_THAT(tsc.err, HasSubstr("did you mean rdtsc?"));
}

TEST(CliTest, VersionNamesTheToolItsVersionAndTheBuildMode) {
  const HarnessResult r = RunHarness("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(std::regex_match(
      r.out, std::regex("tickbench [A-Za-z0-9._+~-]+ \\((opt|dbg|fastbuild|opt\\+assertions)"
                        "(\\+asan|\\+ubsan)*\\)\n")))
      << r.out;
  EXPECT_THAT(r.out, Not(HasSubstr("Debug build")));
}

// Parses `text` as one JSON object with the provenance members; returns it.
JsonValue ProvenancedJson(const std::string& text, const std::string& mode) {
  absl::StatusOr<JsonValue> json = ParseJson(text);
  EXPECT_TRUE(json.ok()) << json.status() << "\n" << text;
  if (!json.ok()) return JsonValue();
  EXPECT_EQ(json->kind, JsonValue::Kind::kObject);
  const JsonValue* schema = json->Get("schema_version");
  EXPECT_TRUE(schema != nullptr && schema->integral && schema->number >= 1);
  const JsonValue* version = json->Get("tickbench_version");
  EXPECT_TRUE(version != nullptr && !version->text.empty());
  const JsonValue* mode_value = json->Get("mode");
  EXPECT_TRUE(mode_value != nullptr && mode_value->text == mode) << text;
  return *json;
}

// Issue 32: --output=F --format=json also printed the JSON to stdout. As Google
// Benchmark's --benchmark_out: the console keeps its table, the file gets the format.
TEST(CliTest, OutputGetsTheFormatAndTheConsoleKeepsItsTable) {
  const std::string path = absl::StrCat(std::getenv("TEST_TMPDIR"), "/out.json");
  const HarnessResult r = RunHarness(absl::StrCat(
      "--transport=sim --experiment=sweep --sizes=32,64 --iterations=50 --runs=2 --wide "
      "--format=json --output=",
      path));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("averaged, us")) << r.out;  // the wide table, on stdout
  EXPECT_THAT(r.out, HasSubstr("retried")) << r.out;
  EXPECT_THAT(r.out, Not(HasSubstr("\"schema_version\""))) << r.out;
  std::ifstream file(path);
  const std::string written((std::istreambuf_iterator<char>(file)), {});
  ProvenancedJson(written, "sweep");
  // "-" is standard output: the format goes there instead of the table.
  const HarnessResult dash = RunHarness(
      "--transport=sim --experiment=sweep --sizes=32 --iterations=50 --runs=2 --format=json "
      "--output=-");
  ASSERT_EQ(dash.exit_code, 0) << dash.err;
  ProvenancedJson(dash.out, "sweep");
}

TEST(CliTest, ListClocksClockInfoAndAnalyzeTakeFormatJson) {
  const HarnessResult list = RunHarness("--list_clocks --format=json");
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const JsonValue clocks = ProvenancedJson(list.out, "list_clocks");
  const JsonValue* listed = clocks.Get("clocks");
  ASSERT_NE(listed, nullptr);
  bool virtual_listed = false;
  for (const JsonValue& clock : listed->items) {
    const JsonValue* spec = clock.Get("spec");
    ASSERT_NE(spec, nullptr);
    virtual_listed = virtual_listed || spec->text == "virtual";
  }
  EXPECT_TRUE(virtual_listed) << list.out;

  const HarnessResult info = RunHarness("--clock_info=virtual,tick:20ms --format=json");
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const JsonValue probed = ProvenancedJson(info.out, "clock_info");
  ASSERT_NE(probed.Get("clocks"), nullptr);
  ASSERT_EQ(probed.Get("clocks")->items.size(), 2u);
  EXPECT_EQ(probed.Get("clocks")->items[1].Get("claimed_resolution_ns")->number, 20e6);

  const HarnessResult analyzed = RunHarness(
      "--analyze=tests/golden/analyze_input.csv --format=json", "unset BUILD_WORKING_DIRECTORY;");
  ASSERT_EQ(analyzed.exit_code, 0) << analyzed.err;
  const JsonValue analysis = ProvenancedJson(analyzed.out, "analyze");
  ASSERT_NE(analysis.Get("points"), nullptr);
  EXPECT_GE(analysis.Get("points")->items.size(), 7u);
  ASSERT_NE(analysis.Get("steps"), nullptr);
  EXPECT_GE(analysis.Get("steps")->items.size(), 1u) << analyzed.out;
  // The table's text is kept whole in "report".
  const HarnessResult table =
      RunHarness("--analyze=tests/golden/analyze_input.csv", "unset BUILD_WORKING_DIRECTORY;");
  EXPECT_EQ(analysis.Get("report")->text, table.out);
}

TEST(CliTest, ModesThatMeasureNothingRefuseCsv) {
  for (const char* mode :
       {"--list_clocks", "--clock_info=virtual", "--analyze=tests/golden/analyze_input.csv"}) {
    const HarnessResult r =
        RunHarness(absl::StrCat(mode, " --format=csv"), "unset BUILD_WORKING_DIRECTORY;");
    EXPECT_EQ(r.exit_code, 2) << mode;
    EXPECT_THAT(r.err, HasSubstr("--format:")) << mode;
    EXPECT_THAT(r.err, HasSubstr("table or json")) << mode;
  }
}

// A sweep of about 2.5 s (every echo waits 2 ms): plain progress lines on a standard error
// that is not a terminal, at most one a second, none with --quiet; stdout unchanged.
// Every "progress:" line of standard error matches `line`; at least one, at most one a
// second of a run of under 10 s; none on standard output.
void ExpectProgressLines(const HarnessResult& r, const std::regex& line) {
  int lines = 0;
  for (absl::string_view l : absl::StrSplit(r.err, '\n')) {
    if (!absl::StartsWith(l, "progress:")) continue;
    ++lines;
    EXPECT_TRUE(std::regex_match(std::string(l), line)) << l;
  }
  EXPECT_GE(lines, 1) << r.err;
  EXPECT_LE(lines, 10) << r.err;
  EXPECT_EQ(r.out.find("progress"), std::string::npos);
}

// The same run with --quiet prints no progress line.
void ExpectQuietHasNone(const std::string& flags) {
  const HarnessResult quiet = RunHarness(flags + " --quiet");
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err.find("progress"), std::string::npos) << quiet.err;
}

TEST(CliTest, ProgressLinesOnStandardErrorUnlessQuiet) {
  const std::string sweep =
      "--experiment=sweep --transport=unix_stream --sizes=32,64 --iterations=300 --runs=2 "
      "--warmup=5 --peer_reply_delay=2ms --format=csv --csv_context=false";
  const HarnessResult r = RunHarness(sweep);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::regex line(
      "progress: (32|64) B, run [12] of 2: [0-4] of 4 runs, [0-9]+ round trips, "
      "elapsed [0-9.]+m?s, ETA ([0-9.]+(ms|s)|0|\\?)");
  ExpectProgressLines(r, line);
  EXPECT_EQ(r.err.find('\r'), std::string::npos);
  ExpectQuietHasNone(sweep);
}

TEST(CliTest, AStudyShowsItsProgressToo) {
  // One clock, one size, 2 runs of about 1.7 s each (four passes of 2 ms round trips).
  const std::string study =
      "--experiment=study --transport=unix_stream --sizes=32 --iterations=200 --runs=2 "
      "--warmup=5 --peer_reply_delay=2ms --clocks=clock_gettime:monotonic --format=csv "
      "--csv_context=false";
  const HarnessResult r = RunHarness(study);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 805 round trips a run: 5 warm-up, 200 averaged, 400 in the probe's blocks, 200 single.
  const std::regex line(
      "progress: 32 B, run [12] of 2: [0-2] of 2 runs, (0|805|1610) round trips, "
      "elapsed [0-9.]+m?s, ETA ([0-9.]+(ms|s)|0|\\?)");
  ExpectProgressLines(r, line);
  ExpectQuietHasNone(study);
}

// The line's characters (UTF-8 code points).
size_t Characters(absl::string_view line) {
  size_t n = 0;
  for (char c : line) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// A table fits 100 columns by default, the context's '#' lines and the analysis aside
// (their words are not the table's); --wide keeps every column.
TEST(CliTest, TablesFitOneHundredColumnsUnlessWide) {
  const std::string sweep =
      "--transport=sim --experiment=sweep --sizes=32,4096 --iterations=100 --runs=2 --seed=1 "
      "--quiet";
  const std::string study =
      "--experiment=study --transport=sim --sizes=32,4096 --iterations=100 --runs=2 --seed=1";
  for (const std::string& args : {sweep, study}) {
    const HarnessResult r = RunHarness(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const size_t analysis = r.out.find("\nSteps in the averaged RTT");
    for (absl::string_view line : absl::StrSplit(r.out.substr(0, analysis), '\n')) {
      if (absl::StartsWith(line, "#")) continue;
      EXPECT_LE(Characters(line), 100u) << args << "\n" << line;
    }
    EXPECT_THAT(r.out, Not(HasSubstr("lost% retried")));
    EXPECT_THAT(r.out, Not(HasSubstr("ns/read (read)")));
    const HarnessResult wide = RunHarness(args + " --wide");
    ASSERT_EQ(wide.exit_code, 0) << wide.err;
    if (args == sweep) {
      EXPECT_THAT(wide.out, HasSubstr("avg        sd |  lost% retried  faults"));
    } else {
      EXPECT_THAT(wide.out, HasSubstr("| phase p | ns/read (read)"));
    }
  }
}

// Issue 46, case 9, end to end: a name too long for its temporary file is refused before
// the measurement, naming the flag (it failed after it); a 0600 output stays 0600 when
// rewritten (it became 0644) and a 0444 one is refused and kept (it was replaced).
TEST(CliTest, OutputNamesAndModesAreCheckedBeforeTheMeasurement) {
  const std::string directory = std::getenv("TEST_TMPDIR");
  const std::string sweep = "--transport=sim --sizes=32 --iterations=50 --runs=2 --quiet ";
  for (const char* flag : {"--output=", "--report=", "--raw="}) {
    const HarnessResult r =
        RunHarness(absl::StrCat(sweep, flag, directory, "/", std::string(250, 'n')));
    EXPECT_EQ(r.exit_code, 2) << flag << r.err;
    EXPECT_THAT(r.err,
                HasSubstr(absl::StrCat(absl::string_view(flag).substr(0, std::strlen(flag) - 1),
                                       ": cannot write ")))
        << r.err;
    EXPECT_THAT(r.err, HasSubstr("at most 244 fit")) << r.err;
    EXPECT_EQ(r.out, "") << "refused before measuring";
  }
  const std::string kept = absl::StrCat(directory, "/kept.csv");
  const std::string private_file = absl::StrCat(directory, "/private.csv");
  for (const std::string& path : {kept, private_file}) {
    std::ofstream(path) << "old\n";
  }
  ASSERT_EQ(chmod(private_file.c_str(), 0600), 0);
  ASSERT_EQ(chmod(kept.c_str(), 0444), 0);
  HarnessResult r = RunHarness(absl::StrCat(sweep, "--format=csv --output=", private_file));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  struct stat st;
  ASSERT_EQ(stat(private_file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  r = RunHarness(absl::StrCat(sweep, "--format=csv --output=", kept));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("--output: cannot write ")) << r.err;
  EXPECT_THAT(r.err, HasSubstr("read-only")) << r.err;
  std::ifstream file(kept);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(file)), {}), "old\n");
}

}  // namespace
