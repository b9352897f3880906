// Golden outputs: the harness binary run in every mode on the simulated transport (virtual
// time, fixed --seed, so every figure is deterministic) and compared byte for byte, with
// its exit code and both streams, with the files in tests/golden/. A change of any output
// shows up here as a diff; a deliberate one is recorded by regenerating the files:
//
//   bazel test //tests:golden_test --strategy=TestRunner=local
//       --test_env=TICKBENCH_UPDATE_GOLDEN="$PWD/tests/golden"       (one command)
//
// (run from the workspace root; the local strategy lets the test write into the source
// tree). With TICKBENCH_UPDATE_GOLDEN set the test writes <dir>/<case>.txt instead of
// comparing, and passes. Review the diff before committing it.
//
// What the normaliser masks, because it describes the host and not the program:
//   * "#"-prefixed context lines (host, date, CPU, kernel, clocksource, governor, page
//     size, build mode, each clock's probe figures, and the warnings that follow from
//     them) are dropped, except "# experiment ..." which says what ran;
//   * in JSON, the same context fields (started_at, host, os, kernel, machine, cpu,
//     cpu_count, page_size_bytes, clocksource, cpu_governor, virtual_machine, build_mode),
//     the warnings array, the load averages and tickbench_version (the build's commit);
//   * the "system sizes:" line of the step analysis and the "; near ..." causes of a step
//     (the page size and socket-buffer sysctls of this host);
//   * in --clock_info's table, read costs ("2.0 ns"): timed on this CPU;
//   * in --help, the source file Abseil names in "Flags from FILE:";
//   * "progress: " lines on stderr, which a run slower than a second prints.
// --list_clocks depends on the machine (its CPU counter, its frequency) and is only
// checked to exit 0 and list the virtual clock. The fitted buffer layouts of --explain use
// the host's system sizes as candidate breakpoints: the goldens assume the common
// page size 4096 and default net.core sysctls.
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/harness_runner.h"

namespace {

using ::testing::HasSubstr;
using tickbench::testing::HarnessResult;
using tickbench::testing::ReadWholeFile;
using tickbench::testing::RunHarness;

struct GoldenCase {
  std::string name;  // tests/golden/<name>.txt
  std::string args;
};

void PrintTo(const GoldenCase& golden, std::ostream* os) { *os << golden.name; }

const std::string kSweep =
    "--transport=sim --experiment=sweep --sizes=32,512,4096 --iterations=200 --runs=2 --seed=1";
const std::string kStudy =
    "--experiment=study --transport=sim --sizes=32,4096 --iterations=100 --runs=2 --seed=1";

std::vector<GoldenCase> Cases() {
  return {
      {"sweep_table", kSweep},
      {"sweep_csv", kSweep + " --format=csv"},
      {"sweep_json", kSweep + " --format=json"},
      {"sweep_bsd_jitter_table", kSweep + " --sim_bsd --sim_jitter=normal"},
      {"sweep_bsd_jitter_json", kSweep + " --sim_bsd --sim_jitter=normal --format=json"},
      {"sweep_tick20ms_table", kSweep + " --clock=tick --tick_period=20ms"},
      {"sweep_tick20ms_fixed_phase_csv",
       kSweep + " --clock=tick --tick_period=20ms --tick_phase=3ms --uniqtime --format=csv"},
      {"sweep_bsd_explain_table",
       "--transport=sim --experiment=sweep --sim_bsd --sizes=128:2560:128 --iterations=50 "
       "--runs=2 --explain"},
      {"sweep_drop_every_table",
       "--transport=sim --experiment=sweep --sizes=32,512 --iterations=100 --runs=1 "
       "--peer_drop_every=7"},
      {"sweep_peer_stops_csv",
       "--transport=sim --experiment=sweep --sizes=32,512 --iterations=100 --runs=1 "
       "--peer_stop_after=150 --format=csv"},
      {"preset_unix_throughput_sim_table", "--transport=sim --iterations=20 --runs=1"},
      {"preset_udp_rtt_sim_table", "--transport=sim --experiment=udp_rtt --iterations=20"},
      {"sweep_output_dash_table",
       "--transport=sim --experiment=sweep --sizes=64 --iterations=50 --runs=1 --output=-"},
      {"study_table", kStudy},
      {"study_csv", kStudy + " --format=csv"},
      {"study_json", kStudy + " --format=json"},
      {"study_dither_gap_table",
       "--experiment=study --transport=sim --sizes=100 --iterations=50 --runs=1 "
       "--clocks=virtual,tick:10ms:uniqtime --dither --gap=3ms"},
      {"analyze", "--analyze=tests/golden/analyze_input.csv"},
      {"analyze_explain", "--analyze=tests/golden/analyze_input.csv --explain"},
      {"analyze_throughput_column",
       "--analyze=tests/golden/analyze_tickbench.csv --analyze_column=throughput_bytes_per_s"},
      {"clock_info_virtual", "--clock_info=virtual"},
      {"help", "--help"},
      // Bad input: exit 2 and one message.
      {"error_unknown_flag", "--no_such_flag"},
      {"error_help_beside_bad_flag", "--help --bogus"},
      {"error_positional_argument", "stray"},
      {"error_format", "--transport=sim --format=xml"},
      {"error_sizes", "--transport=sim --sizes=abc"},
      {"error_sim_clock", "--transport=sim --clock=rdtsc"},
      {"error_iterations", "--transport=sim --iterations=0"},
      {"error_sim_jitter", "--transport=sim --sim_jitter=pink"},
      {"error_sim_cluster_without_bsd", "--transport=sim --sim_cluster=2048"},
      {"error_sim_reference", "--transport=sim --reference_clock=none"},
      {"error_duration_without_unit", "--tick_period=5"},
      {"error_experiment", "--experiment=nope"},
      {"error_study_batch", "--experiment=study --transport=sim --batch=5"},
      {"error_clocks_outside_study", "--transport=sim --clocks=virtual"},
      {"error_analyze_empty", "--analyze="},
      {"error_analyze_missing_file", "--analyze=tests/golden/no_such_file.csv"},
      {"error_analyze_with_sizes", "--analyze=tests/golden/analyze_input.csv --sizes=32"},
      {"error_listen_without_server", "--listen=127.0.0.1:7478"},
      {"error_clock_info", "--clock_info=bogus"},
      {"error_two_modes", "--list_clocks --clock_info=all"},
  };
}

constexpr const char* kJsonContextKeys[] = {
    "started_at",
    "host",
    "os",
    "kernel",
    "machine",
    "cpu",
    "cpu_count",
    "page_size_bytes",
    "clocksource",
    "cpu_governor",
    "virtual_machine",
    "build_mode",
    "tickbench_version",
};

// A JSON string value, escapes included.
constexpr char kJsonString[] = "\"([^\"\\\\]|\\\\.)*\"";

// The JSON context's host fields and warnings, masked; the results after it are kept.
std::string MaskJsonContext(const std::string& line) {
  const size_t results = line.find("\"results\":");
  std::string head = line.substr(0, results);
  for (const char* key : kJsonContextKeys) {
    const std::regex field(absl::StrCat("\"", key, "\":(", kJsonString, "|[^,}\"]*)"));
    head = std::regex_replace(head, field, absl::StrCat("\"", key, "\":\"<masked>\""));
  }
  static const std::regex warnings(absl::StrCat("\"warnings\":\\[(", kJsonString, ",?)*\\]"));
  head = std::regex_replace(head, warnings, "\"warnings\":[\"<masked>\"]");
  static const std::regex load("\"(load_average_start|load_average_end)\":(\\[[^\\]]*\\]|null)");
  head = std::regex_replace(head, load, "\"$1\":\"<masked>\"");
  return results == std::string::npos ? head : head + line.substr(results);
}

std::string NormalizeLine(std::string line, bool mask_read_costs) {
  static const std::regex system_sizes("^(\\s*system sizes:).*$");
  static const std::regex near_causes("; near .*$");
  static const std::regex flags_from("^(\\s*Flags from ).*:$");
  static const std::regex read_cost(" +[0-9]+\\.[0-9]+ ns");
  line = std::regex_replace(line, system_sizes, "$1 <masked>");
  line = std::regex_replace(line, near_causes, "; near <masked>");
  line = std::regex_replace(line, flags_from, "$1<file>:");
  if (mask_read_costs) line = std::regex_replace(line, read_cost, " <masked> ns");
  if (absl::StartsWith(line, "{\"context\":") || absl::StartsWith(line, "{\"schema_version\":")) {
    line = MaskJsonContext(line);
  }
  return line;
}

// The output without what describes the host (see the top of the file).
std::string Normalize(const std::string& text, bool mask_read_costs = false) {
  std::vector<std::string> kept;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::StartsWith(line, "#") && !absl::StartsWith(line, "# experiment ")) continue;
    if (absl::StartsWith(line, "progress: ")) continue;  // a slow run's progress line
    kept.push_back(NormalizeLine(std::string(line), mask_read_costs));
  }
  return absl::StrJoin(kept, "\n");
}

std::string Render(const GoldenCase& golden, const HarnessResult& r) {
  const bool clock_info = absl::StartsWith(golden.name, "clock_info");
  return absl::StrCat("$ harness ", golden.args, "\nexit: ", r.exit_code, "\n--- stdout\n",
                      Normalize(r.out, clock_info), "\n--- stderr\n", Normalize(r.err, clock_info));
}

HarnessResult RunFromRunfiles(const std::string& args) {
  // The working directory is the runfiles root; relative paths resolve against it only
  // when BUILD_WORKING_DIRECTORY is unset.
  return RunHarness(args, "unset BUILD_WORKING_DIRECTORY;");
}

class GoldenTest : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(GoldenTest, OutputMatchesTheGoldenFile) {
  const GoldenCase& golden = GetParam();
  const std::string actual = Render(golden, RunFromRunfiles(golden.args));
  const std::string file = absl::StrCat(golden.name, ".txt");
  if (const char* update = std::getenv("TICKBENCH_UPDATE_GOLDEN"); update && *update) {
    std::ofstream out(absl::StrCat(update, "/", file), std::ios::binary | std::ios::trunc);
    out << actual;
    ASSERT_TRUE(out.good()) << "cannot write " << update << "/" << file;
    return;
  }
  const std::string expected = ReadWholeFile(absl::StrCat("tests/golden/", file));
  ASSERT_FALSE(expected.empty()) << "no golden file tests/golden/" << file
                                 << "; regenerate (see the top of tests/golden_test.cc)";
  EXPECT_EQ(actual, expected) << "tests/golden/" << file << " differs";
}

INSTANTIATE_TEST_SUITE_P(Modes, GoldenTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<GoldenCase>& info) {
                           return info.param.name;
                         });

// The normaliser masks only what it promises: a changed figure outside the context
// still shows.
TEST(GoldenNormalizerTest, MasksTheHostAndKeepsTheResults) {
  const std::string text =
      "# tickbench on somehost, 2020-01-01\n# experiment sweep over sim: 1 sizes\n"
      "      32    2            20.00\n  system sizes: page size 65536\n"
      "  jump up between 512 and 1024 bytes: +4000 ns (9.0 standard errors); near page size 4096\n"
      "{\"context\":{\"experiment\":\"sweep\",\"host\":\"a\\\"b\",\"cpu_count\":2,"
      "\"virtual_machine\":true,\"warnings\":[\"x, y]\",\"z\"]},\"results\":[{\"rtt_ns\":20002}]}";
  EXPECT_EQ(Normalize(text),
            "# experiment sweep over sim: 1 sizes\n"
            "      32    2            20.00\n  system sizes: <masked>\n"
            "  jump up between 512 and 1024 bytes: +4000 ns (9.0 standard errors); near <masked>\n"
            "{\"context\":{\"experiment\":\"sweep\",\"host\":\"<masked>\","
            "\"cpu_count\":\"<masked>\",\"virtual_machine\":\"<masked>\","
            "\"warnings\":[\"<masked>\"]},\"results\":[{\"rtt_ns\":20002}]}");
}

// Machine-dependent, so not golden: it exits 0 and lists the simulation's clock.
TEST(GoldenListClocksTest, ExitsZeroAndListsVirtual) {
  const HarnessResult r = RunFromRunfiles("--list_clocks");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\n  virtual "));
}

}  // namespace
