// End to end: the harness binary as a user runs it, with each preset on a short setting,
// in each output format, the study in each format, and with bad flags.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/harness_runner.h"

namespace {

using ::testing::HasSubstr;

using tickbench::testing::HarnessResult;
using tickbench::testing::ReadWholeFile;
using tickbench::testing::RunHarness;

std::vector<double> Numbers(const std::string& text, const std::string& key) {
  std::vector<double> values;
  const std::regex pattern("\"" + key + "\":(-?[0-9.eE+-]+)");
  for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it) {
    values.push_back(std::stod((*it)[1]));
  }
  return values;
}

TEST(HarnessBinaryTest, UnixThroughputPresetPrintsTheClassicTable) {
  const HarnessResult r = RunHarness("--iterations=50 --runs=2 --warmup=5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("throughput"));
  EXPECT_THAT(r.out, HasSubstr(" KB/s ± 95% CI "));
  EXPECT_THAT(r.out, HasSubstr("# CPU: "));
  EXPECT_THAT(r.out, HasSubstr("clocksource"));
  EXPECT_THAT(r.out, HasSubstr("build: "));
  int size_rows = 0;
  for (absl::string_view line : absl::StrSplit(r.out, '\n')) {
    if (std::regex_match(std::string(line), std::regex(" *[0-9]+ +2 .*"))) ++size_rows;
  }
  EXPECT_EQ(size_rows, 11);  // 32, 512, ..., 4096
}

TEST(HarnessBinaryTest, UdpRttPresetWritesCsvRows) {
  const HarnessResult r = RunHarness(
      "--experiment=udp_rtt --iterations=20 --warmup=2 --format=csv --csv_context=false");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = absl::StrSplit(r.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 41u);  // header + 40 sizes
  const size_t columns = std::vector<std::string>(absl::StrSplit(lines[0], ',')).size();
  for (const std::string& line : lines) {
    EXPECT_EQ(std::vector<std::string>(absl::StrSplit(line, ',')).size(), columns) << line;
  }
  EXPECT_THAT(lines[1], HasSubstr("udp,clock_gettime:monotonic,"));
  EXPECT_THAT(lines[40], HasSubstr(",2000,1,"));
  EXPECT_THAT(r.err, HasSubstr("# CPU: ")) << "--csv_context=false: the context on stderr";
}

TEST(HarnessBinaryTest, TwentyMillisecondTickAveragesToTheReferenceWithinTOverN) {
  // 200 round trips of ~10-50 us read by a 20 ms tick: almost every single reading is 0,
  // and the whole-loop figure is within T/N = 100 us of the reference.
  const HarnessResult r = RunHarness(
      "--experiment=udp_rtt --clock=tick --tick_period=20ms --format=json --iterations=200 "
      "--warmup=5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The runs, before the sizes' summaries (which hold averaged_rtt_ns too).
  const size_t sizes_at = r.out.find(R"("sizes":[)");
  ASSERT_NE(sizes_at, std::string::npos);
  const std::string runs = r.out.substr(0, sizes_at);
  const std::vector<double> averaged = Numbers(runs, "rtt_ns");
  const std::vector<double> reference = Numbers(runs, "averaged_rtt_ns");
  const std::vector<double> zeros = Numbers(runs, "zero_fraction");
  // One run per size: each size's figure is its run's, without an interval.
  EXPECT_EQ(Numbers(r.out.substr(sizes_at), "averaged_rtt_ns"), averaged);
  ASSERT_EQ(averaged.size(), 40u);
  ASSERT_EQ(reference.size(), 40u);
  ASSERT_EQ(zeros.size(), 40u);  // per_iteration only; the reference has none
  double zero_sum = 0;
  for (size_t i = 0; i < averaged.size(); ++i) {
    EXPECT_LT(std::abs(averaged[i] - reference[i]), 20e6 / 200 + 1000) << "size #" << i;
    zero_sum += zeros[i];
  }
  EXPECT_GT(zero_sum / zeros.size(), 0.9);
  EXPECT_THAT(r.out, HasSubstr(R"("context":{)"));
  EXPECT_THAT(r.out, HasSubstr(R"("clocksource":)"));
  EXPECT_THAT(r.out, HasSubstr(R"("tick_period":"20ms")"));
}

TEST(HarnessBinaryTest, OutputResolvesAgainstTheUsersDirectory) {
  const std::string dir = ::testing::TempDir() + "/user_dir";
  mkdir(dir.c_str(), 0700);
  const HarnessResult r =
      RunHarness("--sizes=64 --iterations=10 --runs=1 --format=json --output=results.json",
                 "BUILD_WORKING_DIRECTORY=" + dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(ReadWholeFile(dir + "/results.json"), HasSubstr(R"("size_bytes":64)"));
}

TEST(HarnessBinaryTest, BadFlagsExitTwoNamingTheFlag) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--transport=carrier_pigeon", "--transport"},
      {"--sizes=0", "--sizes"},
      {"--transport=udp --sizes=65508", "65507"},
      {"--sizes=10:1:1", "--sizes"},
      {"--sizes=1:10", "--sizes"},
      {"--iterations=0", "--iterations"},
      {"--iterations=-3", "--iterations"},
      {"--clock=sundial", "gettimeofday"},
      {"--clock=tick --tick_period=0ms", "--tick_period"},
      {"--clock=tick --tick_period=-20ms", "--tick_period"},
      {"--no_such_flag", "no_such_flag"},
      {"--iterations=many", "iterations"},
      {"--format=xml", "--format"},
      {"--output=/nonexistent-dir/x.csv", "--output"},
  };
  for (const auto& [args, expected] : cases) {
    const HarnessResult r = RunHarness(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(expected)) << args;
  }
  // The other CPU family's counter is a clock this CPU lacks.
#if defined(__x86_64__)
  const HarnessResult other = RunHarness("--clock=cntvct");
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_THAT(other.err, HasSubstr("rdtsc"));
#elif defined(__aarch64__)
  const HarnessResult other = RunHarness("--clock=rdtsc");
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_THAT(other.err, HasSubstr("cntvct"));
#endif
}

// Whether --help defines `flag`: a line "  --clock (default: ...)" with its help below.
// A longer flag (--clock_id for --clock) or a mention in another's help is not it.
bool HelpDefinesFlag(const std::string& help, const std::string& flag) {
  return std::regex_search(help, std::regex("(^|\n)  " + flag + " \\(default: .*\\)\n      \\S"));
}

TEST(HarnessBinaryTest, HelpExplainsEveryFlagAndExitsZero) {
  const HarnessResult r = RunHarness("--help");
  EXPECT_EQ(r.exit_code, 0);
  const std::string text = r.out + r.err;
  for (const char* flag :
       {"--experiment", "--transport", "--clock", "--clock_id", "--tick_period",
        "--reference_clock", "--sizes", "--iterations", "--runs", "--warmup", "--batch", "--format",
        "--output", "--pin", "--list_clocks", "--clock_info", "--clocks", "--role"}) {
    EXPECT_TRUE(HelpDefinesFlag(text, flag)) << flag << " has no help of its own";
  }
  // Without --clock's line the check fails, though --clock_id and --clocks remain.
  const std::string no_clock = std::regex_replace(text, std::regex("\n  --clock \\("), "\n");
  EXPECT_THAT(no_clock, HasSubstr("--clock_id ("));
  EXPECT_FALSE(HelpDefinesFlag(no_clock, "--clock"));
  EXPECT_TRUE(HelpDefinesFlag(no_clock, "--clock_id"));
}

TEST(HarnessBinaryTest, HelpBesideABadFlagIsStillAnError) {
  const HarnessResult r = RunHarness("--help --bogus");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("bogus"));
  EXPECT_EQ(RunHarness("--help").exit_code, 0);
  EXPECT_EQ(RunHarness("--receive_timeout=5 --help").exit_code, 2);
}

TEST(HarnessBinaryTest, StudyWithoutAReferenceIsRefusedNotACrash) {
  const HarnessResult r =
      RunHarness("--experiment=study --reference_clock=none --sizes=32 --iterations=10 --runs=1");
  EXPECT_EQ(r.exit_code, 2) << "139 is the old segmentation fault\n" << r.err;
  EXPECT_THAT(r.err, HasSubstr("--reference_clock=none is not allowed with --experiment=study"));
}

TEST(HarnessBinaryTest, ADurationWithoutAUnitNamesTheUnits) {
  for (const char* flag :
       {"--receive_timeout=5", "--clock=tick --tick_period=20", "--transport=sim --sim_fixed=20"}) {
    const HarnessResult r = RunHarness(flag);
    EXPECT_EQ(r.exit_code, 2) << flag;
    EXPECT_THAT(r.err, HasSubstr("250ms")) << flag;
    EXPECT_THAT(r.err, HasSubstr("units: ns, us, ms, s")) << flag;
  }
}

TEST(HarnessBinaryTest, NonFiniteAndHugeNumbersExitTwoNamingFlagAndRange) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"--clock=tick --tick_period=inf", {"--tick_period", "[2us, 1h]"}},
      {"--clock=tick:inf", {"--clock", "[2us, 1h]"}},
      {"--transport=sim --sim_per_byte_ns=nan", {"--sim_per_byte_ns", "[0, 1e+06]"}},
      {"--transport=sim --sim_per_byte_ns=inf", {"--sim_per_byte_ns", "[0, 1e+06]"}},
      {"--transport=sim --sim_per_byte_ns=1e300", {"--sim_per_byte_ns", "[0, 1e+06]"}},
      {"--transport=sim --sim_fixed=inf", {"--sim_fixed", "[0, 1h]"}},
      {"--receive_timeout=inf", {"--receive_timeout", "1h"}},
      {"--retries=1000", {"--retries", "0..100"}},
      {"--sizes=99999999999999999999", {"--sizes", "too large", "largest size allowed"}},
      {"--transport=sim --sizes=1:10000:1 --iterations=1000000 --runs=1",
       {"--sizes, --runs, --iterations", "GiB"}},
  };
  for (const auto& [args, expected] : cases) {
    const HarnessResult r = RunHarness(args, "", 30);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    for (const std::string& part : expected) EXPECT_THAT(r.err, HasSubstr(part)) << args;
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr("not a whole number"))) << args;
  }
}

// --analyze of tables whose numbers make no sense: exit 2 naming the line and the problem,
// never a crash (a table of 7 values near 1e-200 died in the fits with SIGSEGV) or a
// figure made of them.
TEST(HarnessBinaryTest, AnalyzeRefusesNumbersThatMakeNoSenseExitingTwo) {
  const char* dir = std::getenv("TEST_TMPDIR");
  ASSERT_NE(dir, nullptr);
  std::string near_2_62;
  for (int i = 0; i < 20; ++i) near_2_62 += absl::StrCat(4611686018427387904LL + i, ",100\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"64,1e-200\n128,2e-200\n192,3e-200\n256,4e-200\n320,5e-200\n384,6e-200\n448,7e-200\n",
       "line 1: value '1e-200' is out of range: the analysis takes 0 or a magnitude from 1e-20 to "
       "1e+20"},
      {"64,1e160\n128,2e160\n192,3e160\n256,4e160\n320,5e160\n384,6e160\n448,7e160\n",
       "line 1: value '1e160' is out of range"},
      {"size_bytes,rtt_ns\n64,100\n128,-200\n", "line 3: rtt_ns '-200' is negative"},
      {"0x10,100\n32,200\n", "line 1: size '0x10' is not a decimal number"},
      {"18446744073709551616,100\n", "is past 16777216 bytes, the transports' largest message"},
      {near_2_62, "line 1: size '4611686018427387904' is past 16777216 bytes"},
  };
  int n = 0;
  for (const auto& [csv, expected] : cases) {
    const std::string path = absl::StrCat(dir, "/hostile", n++, ".csv");
    FILE* file = std::fopen(path.c_str(), "w");
    ASSERT_NE(file, nullptr) << path;
    std::fputs(csv.c_str(), file);
    std::fclose(file);
    const HarnessResult r = RunHarness(absl::StrCat("--analyze=", path, " --explain --fit_sim"));
    EXPECT_EQ(r.exit_code, 2) << csv << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(expected)) << csv;
    EXPECT_EQ(r.out, "") << csv;
  }
}

TEST(HarnessBinaryTest, FlagsThatDoNothingInTheModeAreRefused) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--transport=udp --sim_fixed=1ms", "--transport=sim"},
      {"--tick_phase=0ms", "tick clock"},
      {"--clock=clock_gettime:monotonic --uniqtime", "--uniqtime"},
      {"--clock=clock_gettime --uniqtime", "--uniqtime"},
      {"--analyze_column=rtt_ns", "--analyze"},
      {"--clocks=tick:10ms", "--experiment=study"},
      {"--dither", "--experiment=study"},
      {"--gap=1ms", "--experiment=study"},
      {"--listen=127.0.0.1:7478", "--role=server"},
      {"--peer=127.0.0.1:7478", "--role=client"},
      {"--experiment=study --explain", "--explain"},
      {"--list_clocks --sizes=32", "--list_clocks"},
  };
  for (const auto& [args, expected] : cases) {
    const HarnessResult r = RunHarness(args, "", 30);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(expected)) << args;
  }
}

TEST(HarnessBinaryTest, SimulatedPeerReplyDelayLengthensEveryRoundTrip) {
  const HarnessResult r = RunHarness(
      "--experiment=sweep --transport=sim --sizes=64 --iterations=10 --runs=1 --warmup=0 "
      "--sim_fixed=20us --sim_per_byte_ns=0 --peer_reply_delay=300ms --format=json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<double> averaged = Numbers(r.out, "averaged_rtt_ns");
  ASSERT_FALSE(averaged.empty()) << r.out;
  EXPECT_DOUBLE_EQ(averaged[0], 300'020'000) << "ignored, the delay left 20 us";
}

// A FIFO, a symbolic link and a directory at --output or --plot are refused before
// anything is measured: nothing is printed on stdout, and the FIFO is never opened (the
// old code would have blocked in it, then been killed by the timeout).
TEST(HarnessBinaryTest, BadOutputTargetsAreRefusedBeforeMeasuring) {
  const std::string dir = ::testing::TempDir() + "/bad_targets";
  mkdir(dir.c_str(), 0700);
  const std::string fifo = dir + "/fifo.csv";
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string link = dir + "/link.csv";
  const std::string target = dir + "/target.csv";
  unlink(link.c_str());
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  const std::string sweep =
      "--experiment=sweep --transport=sim --sizes=64 --iterations=10 --runs=1 --warmup=0 ";
  for (const std::string& flag : {"--output=", "--plot="}) {
    for (const std::string& path : {fifo, link, dir}) {
      const HarnessResult r = RunHarness(sweep + flag + path, "", 20);
      EXPECT_EQ(r.exit_code, 2) << flag << path << "\n" << r.err;
      EXPECT_THAT(r.out, ::testing::Not(HasSubstr("# experiment")))
          << "measured first: " << flag << path;
      const std::string name = flag.substr(0, flag.size() - 1);
      EXPECT_THAT(r.err, HasSubstr(name + ": ")) << r.err;
      EXPECT_EQ(r.err.find(name + ":"), r.err.rfind(name + ":")) << "prefix repeated: " << r.err;
    }
  }
  EXPECT_NE(access(target.c_str(), F_OK), 0) << "written through the symbolic link";
  // The study too.
  const HarnessResult study = RunHarness(
      "--experiment=study --transport=sim --sizes=64 --iterations=10 --runs=1 --output=" + fifo, "",
      20);
  EXPECT_EQ(study.exit_code, 2) << study.err;
  // And --analyze's plot, before the file is read.
  const HarnessResult analyze =
      RunHarness("--analyze=" + dir + "/missing.csv --plot=" + fifo, "", 20);
  EXPECT_EQ(analyze.exit_code, 2);
  EXPECT_THAT(analyze.err, HasSubstr("--plot: "));
  // A FIFO to read is refused too, without waiting for a writer.
  const HarnessResult read_fifo = RunHarness("--analyze=" + fifo, "", 20);
  EXPECT_EQ(read_fifo.exit_code, 2) << read_fifo.err;
  EXPECT_THAT(read_fifo.err, HasSubstr("FIFO"));
}

TEST(HarnessBinaryTest, OutputDashIsStandardOutputWrittenOnce) {
  const std::string dir = ::testing::TempDir() + "/dash_dir";
  mkdir(dir.c_str(), 0700);
  const HarnessResult r = RunHarness(
      "--experiment=sweep --transport=sim --sizes=64 --iterations=10 --runs=1 --format=csv "
      "--output=-",
      "BUILD_WORKING_DIRECTORY=" + dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  size_t rows = 0;
  for (size_t at = r.out.find("\nsim,"); at != std::string::npos; at = r.out.find("\nsim,", at + 1))
    ++rows;
  EXPECT_EQ(rows, 1u) << r.out;
  struct stat st;
  EXPECT_NE(stat((dir + "/-").c_str(), &st), 0) << "a file named '-' was written";
}

TEST(HarnessBinaryTest, ControlBytesOfUserStringsAreEscaped) {
  const HarnessResult r = RunHarness("--experiment=\"$(printf 'x\\033[2Jy')\"");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  EXPECT_THAT(r.err, HasSubstr("\\x1b"));
}

TEST(HarnessBinaryTest, ClocksDescribeThemselves) {
  const HarnessResult list = RunHarness("--list_clocks");
  ASSERT_EQ(list.exit_code, 0);
  for (const char* clock : {"gettimeofday", "clock_gettime:monotonic",
                            "clock_gettime:monotonic_coarse", "tick:10ms", "tick:20ms"}) {
    EXPECT_THAT(list.out, HasSubstr(clock));
  }
  const HarnessResult info = RunHarness("--clock_info=tick:10ms,tick:20ms");
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_THAT(info.out, testing::ContainsRegex("tick:10ms +10 ms +10 ms"));
  EXPECT_THAT(info.out, testing::ContainsRegex("tick:20ms +20 ms +20 ms"));
}

// The study end to end on the simulated transport: exit 0 and exactly one row per clock and
// size in each format, the virtual clock exact and every clock's averaged error within the
// bound it states.
constexpr char kStudyArgs[] =
    "--experiment=study --transport=sim --clocks=virtual,tick:1ms,tick:5ms "
    "--sizes=64,512,2048 --iterations=50 --runs=2 --seed=3";

std::multiset<std::pair<std::string, int>> ExpectedStudyCells() {
  std::multiset<std::pair<std::string, int>> cells;
  for (const char* clock : {"virtual", "tick:1ms", "tick:5ms"}) {
    for (int size : {64, 512, 2048}) cells.insert({clock, size});
  }
  return cells;
}

TEST(HarnessBinaryTest, StudyTablePrintsOneRowPerClockAndSize) {
  const HarnessResult r = RunHarness(kStudyArgs);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::multiset<std::pair<std::string, int>> cells;
  std::string clock;
  const std::regex header("([a-z_:0-9]+): .*resolution T = .*");
  const std::regex row(" *([0-9]+) +[-0-9.]+ \\| .*");  // size B, truth | ...
  for (absl::string_view view : absl::StrSplit(r.out, '\n')) {
    const std::string line(view);
    std::smatch m;
    if (std::regex_match(line, m, header)) clock = m[1];
    if (std::regex_match(line, m, row)) cells.insert({clock, std::stoi(m[1])});
  }
  EXPECT_EQ(cells, ExpectedStudyCells()) << r.out;
  EXPECT_THAT(r.out, HasSubstr("In plain words:"));
}

TEST(HarnessBinaryTest, StudyCsvHasOneRowPerClockAndSizeWithinTheStatedBound) {
  const HarnessResult r = RunHarness(std::string(kStudyArgs) + " --format=csv --csv_context=false");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = absl::StrSplit(r.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 10u) << r.out;  // the header and 3 clocks x 3 sizes
  const std::vector<std::string> names = absl::StrSplit(lines[0], ',');
  auto column = [&](const std::string& name) {
    const auto it = std::find(names.begin(), names.end(), name);
    EXPECT_NE(it, names.end()) << name;
    return static_cast<size_t>(it - names.begin());
  };
  const auto clock = column("clock"), size = column("size_bytes"), truth = column("truth_ns"),
             averaged = column("averaged_ns"), error = column("averaged_error_ns"),
             bound = column("averaged_bound_ns"), within = column("averaged_within_bound");
  std::multiset<std::pair<std::string, int>> cells;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> cell = absl::StrSplit(lines[i], ',');
    ASSERT_EQ(cell.size(), names.size()) << lines[i];
    cells.insert({cell[clock], std::stoi(cell[size])});
    EXPECT_GT(std::stod(cell[truth]), 20000) << "the simulation's fixed cost is 20 us";
    if (cell[clock] == "virtual") {
      EXPECT_EQ(cell[averaged], cell[truth]) << lines[i];
    }
    EXPECT_LE(std::abs(std::stod(cell[error])), std::stod(cell[bound])) << lines[i];
    EXPECT_EQ(cell[within], "1") << lines[i];
  }
  EXPECT_EQ(cells, ExpectedStudyCells());
}

TEST(HarnessBinaryTest, StudyJsonHasOneCellPerClockAndSize) {
  const HarnessResult r = RunHarness(std::string(kStudyArgs) + " --format=json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t at = r.out.find("\"results\":[");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string cells_text = r.out.substr(at);
  std::multiset<std::pair<std::string, int>> cells;
  const std::regex cell("\"clock\":\"([^\"]+)\",\"size_bytes\":([0-9]+)");
  for (std::sregex_iterator it(cells_text.begin(), cells_text.end(), cell), end; it != end; ++it) {
    cells.insert({(*it)[1], std::stoi((*it)[2])});
  }
  EXPECT_EQ(cells, ExpectedStudyCells());
  EXPECT_EQ(Numbers(cells_text, "bound_ns").size(), 9u);
  size_t within = 0;
  for (size_t p = cells_text.find("\"within_bound\":true"); p != std::string::npos;
       p = cells_text.find("\"within_bound\":true", p + 1)) {
    ++within;
  }
  EXPECT_EQ(within, 9u);
}

TEST(HarnessBinaryTest, OutputTargetsThatAreOneFileSpeltTwoWaysAreRefused) {
  // One file under two spellings (or two hard links) would be written twice, the last
  // write winning: refused with exit 2 before anything is measured, naming the flag.
  const std::string dir = ::testing::TempDir() + "/same_file_spelt_twice";
  mkdir(dir.c_str(), 0755);
  mkdir((dir + "/sub").c_str(), 0755);
  {
    FILE* f = fopen((dir + "/old.csv").c_str(), "w");
    ASSERT_NE(f, nullptr);
    fclose(f);
  }
  unlink((dir + "/link.csv").c_str());
  ASSERT_EQ(link((dir + "/old.csv").c_str(), (dir + "/link.csv").c_str()), 0);
  const std::string quick = "--transport=sim --sizes=64 --iterations=10 --runs=1 --warmup=0 ";
  struct Case {
    std::string env, flags, flag;
  };
  const std::vector<Case> cases = {
      {"", "--output=" + dir + "/./same.dat --plot=" + dir + "/same.svg", "--output"},
      {"cd " + dir + " &&", "--output=./same.dat --plot=same.svg", "--output"},
      {"", "--output=" + dir + "/a.csv --raw=" + dir + "/sub/../a.csv", "--raw"},
      {"cd " + dir + " &&", "--output=a.csv --raw=./a.csv", "--raw"},
      {"", "--output=" + dir + "//r.html --report=" + dir + "/r.html", "--report"},
      {"", "--plot=" + dir + "/p.svg --report=" + dir + "/sub/../p.dat", "--report"},
      {"", "--output=" + dir + "/old.csv --raw=" + dir + "/link.csv", "--raw"},
  };
  for (const Case& c : cases) {
    const HarnessResult r = RunHarness(quick + c.flags, c.env, 30);
    EXPECT_EQ(r.exit_code, 2) << c.flags << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.flag + ": names the same file")) << c.flags;
  }
  const HarnessResult apart = RunHarness(quick + "--output=" + dir + "/one.csv --raw=" + dir +
                                         "/sub/../two.csv --format=csv");
  EXPECT_EQ(apart.exit_code, 0) << apart.err;
}

}  // namespace
