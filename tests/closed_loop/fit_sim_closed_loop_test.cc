// The loop closed through the binary: a published-style table (made by the simulation,
// written as a user would type it, in µs, one value per size) is analysed with --fit_sim;
// the printed "sim flags:" replayed by --transport=sim over the table's sizes give back the
// table within the residual the fit reported. Both classic machines: a UNIX-socket one (BSD
// socket buffers) and a UDP one (socket buffers and IPv4 fragments on a link).
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/harness_runner.h"

namespace tickbench {
namespace {

using ::testing::HasSubstr;
using ::tickbench::testing::RunHarness;

constexpr char kRunShape[] = "--runs=1 --iterations=1 --warmup=0 --format=csv";

// size -> averaged_rtt_ns of a --format=csv sweep on stdout.
std::map<int64_t, double> SweepFromCsv(const std::string& out) {
  std::map<int64_t, double> rtt;
  int size_column = -1, rtt_column = -1;
  for (absl::string_view line : absl::StrSplit(out, '\n')) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields = absl::StrSplit(line, ',');
    if (size_column < 0) {
      for (size_t i = 0; i < fields.size(); ++i) {
        if (fields[i] == "size_bytes") size_column = static_cast<int>(i);
        if (fields[i] == "averaged_rtt_ns") rtt_column = static_cast<int>(i);
      }
      continue;
    }
    int64_t size;
    double value;
    if (std::max(size_column, rtt_column) < static_cast<int>(fields.size()) &&
        absl::SimpleAtoi(fields[size_column], &size) &&
        absl::SimpleAtod(fields[rtt_column], &value)) {
      rtt[size] = value;
    }
  }
  return rtt;
}

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return absl::StrCat(dir != nullptr ? dir : ".", "/", name);
}

void CloseTheLoop(const std::string& machine, const std::string& sizes, const std::string& name) {
  // 1. The "published" table: the machine's sweep, rounded to whole µs as printed.
  const testing::HarnessResult made =
      RunHarness(absl::StrCat("--transport=sim ", machine, " --sizes=", sizes, " ", kRunShape));
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const std::map<int64_t, double> truth = SweepFromCsv(made.out);
  ASSERT_GE(truth.size(), 11u);
  std::string table = "size_bytes,rtt_us\n";
  std::map<int64_t, double> published;
  for (const auto& [size, ns] : truth) {
    published[size] = std::round(ns / 1e3) * 1e3;
    absl::StrAppendFormat(&table, "%d,%.0f\n", size, ns / 1e3);
  }
  const std::string path = TempPath(name + ".csv");
  std::ofstream(path) << table;

  // 2. Fitted: the flags and the residual the fit states.
  const testing::HarnessResult fitted = RunHarness(absl::StrCat("--analyze=", path, " --fit_sim"));
  ASSERT_EQ(fitted.exit_code, 0) << fitted.err;
  std::string flags;
  double max_residual = -1;
  for (absl::string_view line : absl::StrSplit(fitted.out, '\n')) {
    if (absl::ConsumePrefix(&line, "sim flags: ")) flags = std::string(line);
    const size_t at = line.find(" ns RMS, ");
    if (at != absl::string_view::npos) {
      absl::string_view rest = line.substr(at + 9);
      rest = rest.substr(0, rest.find(' '));
      ASSERT_TRUE(absl::SimpleAtod(rest, &max_residual)) << line;
    }
  }
  ASSERT_FALSE(flags.empty()) << fitted.out;
  ASSERT_GE(max_residual, 0) << fitted.out;
  EXPECT_THAT(flags, HasSubstr("--transport=sim"));

  // 3. Replayed: the simulation with the fitted flags over the table's sizes.
  const testing::HarnessResult replayed =
      RunHarness(absl::StrCat(flags, " --sizes=", sizes, " ", kRunShape));
  ASSERT_EQ(replayed.exit_code, 0) << flags << "\n" << replayed.err;
  const std::map<int64_t, double> replay = SweepFromCsv(replayed.out);
  ASSERT_EQ(replay.size(), published.size());
  for (const auto& [size, ns] : published) {
    ASSERT_TRUE(replay.count(size)) << size;
    // Within the fit's stated residual: the flags are the model it was computed for.
    EXPECT_LE(std::fabs(replay.at(size) - ns), max_residual) << size << " " << flags;
    // And close to the machine that made the table: the table's rounding is 0.5 µs.
    EXPECT_NEAR(replay.at(size), truth.at(size), 0.01 * truth.at(size)) << size;
  }
  std::printf("%s: %s (largest residual %.0f ns)\n", name.c_str(), flags.c_str(), max_residual);
}

TEST(FitSimClosedLoopTest, ClassicUnixSocketTable) {
  CloseTheLoop(
      "--sim_bsd --sim_fixed=1500us --sim_per_byte_ns=250 --sim_per_cluster=150us "
      "--sim_per_small=75us",
      "32,512,1024,1300,1400,1460,1492,1536,2032,2984,4096", "unix");
}

TEST(FitSimClosedLoopTest, ClassicUdpTableWithFragments) {
  std::vector<std::string> sizes;
  for (int n = 100; n <= 4000; n += 100) sizes.push_back(absl::StrCat(n));
  CloseTheLoop(
      "--sim_bsd --sim_fixed=1500us --sim_per_byte_ns=250 --sim_per_cluster=150us "
      "--sim_per_small=75us --sim_mtu=1500 --sim_link_rate=10e6 --sim_per_packet=400us",
      absl::StrJoin(sizes, ","), "udp");
}

TEST(FitSimClosedLoopTest, BadUses) {
  const std::string path = TempPath("units.csv");
  std::ofstream(path) << "size_bytes,rtt_sec\n64,1\n128,2\n";
  const testing::HarnessResult unknown_unit = RunHarness(absl::StrCat("--analyze=", path));
  EXPECT_EQ(unknown_unit.exit_code, 2);
  EXPECT_THAT(unknown_unit.err, HasSubstr("unknown unit"));
  EXPECT_THAT(unknown_unit.err, HasSubstr("_kb_per_s"));
  // Unit words the reader does not know, in two-column files: refused, not read as bare
  // numbers.
  for (const char* header : {"size,rtt_usec", "size,throughput_mbps", "size,rtt_cycles"}) {
    std::ofstream(path) << header << "\n64,1\n128,2\n";
    const testing::HarnessResult refused = RunHarness(absl::StrCat("--analyze=", path));
    EXPECT_EQ(refused.exit_code, 2) << header;
    EXPECT_THAT(refused.err, HasSubstr("unknown unit")) << header;
    EXPECT_THAT(refused.err, HasSubstr("_bytes_per_s, _kib_per_s, _kb_per_s")) << header;
    EXPECT_EQ(refused.out, "") << header;
  }
  // A bare throughput: bytes, bits or kB per second? Never assumed.
  std::ofstream(path) << "size,throughput\n64,1\n128,2\n";
  const testing::HarnessResult bare = RunHarness(absl::StrCat("--analyze=", path));
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_THAT(bare.err, HasSubstr("a throughput without a unit"));
  EXPECT_THAT(bare.err, HasSubstr("--analyze_column"));
  EXPECT_THAT(bare.err, HasSubstr("_kb_per_s"));
  EXPECT_EQ(bare.out, "");
  const testing::HarnessResult no_analyze = RunHarness("--transport=sim --fit_sim --sizes=64");
  EXPECT_EQ(no_analyze.exit_code, 2);
  EXPECT_THAT(no_analyze.err, HasSubstr("fit_sim"));
  const testing::HarnessResult no_mtu =
      RunHarness("--transport=sim --sim_per_packet=1us --sizes=64 --iterations=1");
  EXPECT_EQ(no_mtu.exit_code, 2);
  EXPECT_THAT(no_mtu.err, HasSubstr("--sim_mtu"));
}

}  // namespace
}  // namespace tickbench
