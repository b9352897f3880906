// --experiment=matrix as users run it: every ordered pair of ranks of mpirun -np 3..4 on
// this machine, over mpi, udp and tcp, in JSON and CSV and as a report page; a rank killed
// mid-run ends the job within seconds, non-zero, with the pairs measured before it written
// (the page marked partial). Wide bounds only: the ranks share
// two CPUs with whatever else runs.

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "harness/json/json_reader.h"
#include "tests/mpi/mpirun_runner.h"

namespace tickbench {
namespace {

using ::tickbench::testing::HarnessPath;
using ::tickbench::testing::HarnessResult;
using ::tickbench::testing::ReadWholeFile;
using ::tickbench::testing::RunUnderMpirun;

TEST(MpiMatrixTest, FourRanksGiveEveryOrderedPairWithIntervalsAndTheSlowest) {
  const HarnessResult result =
      RunUnderMpirun(4, "--experiment=matrix --sizes=256 --iterations=500 --runs=3 --format=json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  absl::StatusOr<harness::JsonValue> json = harness::ParseJson(result.out);
  ASSERT_TRUE(json.ok()) << json.status() << result.out;
  EXPECT_EQ(harness::StringAt(*json, "mode"), "matrix");
  EXPECT_EQ(harness::StringAt(*json, "transport"), "mpi");
  EXPECT_EQ(harness::NumberAt(*json, "", "size_bytes"), 256);
  EXPECT_TRUE(json->Get("complete")->boolean);
  ASSERT_EQ(json->Get("hosts")->items.size(), 4u);
  EXPECT_FALSE(json->Get("hosts")->items[0].text.empty());
  const std::vector<harness::JsonValue>& pairs = json->Get("pairs")->items;
  ASSERT_EQ(pairs.size(), 12u);
  for (const harness::JsonValue& pair : pairs) {
    SCOPED_TRACE(absl::StrCat(harness::NumberAt(pair, "", "client"), "->",
                              harness::NumberAt(pair, "", "server")));
    EXPECT_NE(harness::NumberAt(pair, "", "client"), harness::NumberAt(pair, "", "server"));
    EXPECT_EQ(harness::StringAt(pair, "status"), "measured");
    EXPECT_EQ(harness::NumberAt(pair, "", "runs"), 3);
    const double rtt = harness::NumberAt(pair, "", "rtt_ns");
    EXPECT_GT(rtt, 100);
    EXPECT_LT(rtt, 10e6);
    const harness::JsonValue* interval = pair.Get("rtt_ns_ci95");
    ASSERT_NE(interval, nullptr);
    EXPECT_LE(interval->items[0].number, rtt);
    EXPECT_GE(interval->items[1].number, rtt);
    EXPECT_LE(harness::NumberAt(pair, "", "p50_ns"), harness::NumberAt(pair, "", "p99_ns"));
  }
  // The slowest pairs, slowest first, are measured pairs.
  const std::vector<harness::JsonValue>& slowest = json->Get("slowest")->items;
  ASSERT_EQ(slowest.size(), 3u);
  EXPECT_GE(harness::NumberAt(slowest[0], "", "rtt_ns"),
            harness::NumberAt(slowest[2], "", "rtt_ns"));
  // The verdict on the slowest, tested (every pair has runs to test with).
  const harness::JsonValue* test = json->Get("slowest_test");
  ASSERT_NE(test, nullptr);
  EXPECT_TRUE(test->Get("tested")->boolean);
  ASSERT_NE(test->Get("distinct"), nullptr);
  const double p = harness::NumberAt(*test, "", "p_value");
  EXPECT_GE(p, 0);
  EXPECT_LE(p, 1);
}

TEST(MpiMatrixTest, ThreeRanksInCsvAndAsATable) {
  const HarnessResult csv =
      RunUnderMpirun(3, "--experiment=matrix --iterations=300 --runs=2 --format=csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const std::vector<std::string> lines = absl::StrSplit(csv.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 1u + 6u) << csv.out;
  for (size_t i = 1; i < lines.size(); ++i) {
    EXPECT_TRUE(absl::StrContains(lines[i], ",mpi,64,measured,2,")) << lines[i];
  }
  const HarnessResult table = RunUnderMpirun(3, "--experiment=matrix --iterations=300 --runs=2");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_TRUE(absl::StrContains(table.out, "averaged RTT, us")) << table.out;
  EXPECT_TRUE(absl::StrContains(table.out, "slowest pairs: ")) << table.out;
  EXPECT_TRUE(absl::StrContains(table.out, "by a Welch t-test at 5%")) << table.out;
}

// The text of the first <text> element of heat-map cell (c, s) in `html`, and its class;
// "" when the cell is not there.
std::pair<std::string, std::string> HeatMapCell(const std::string& html, int c, int s) {
  const size_t at = html.find(absl::StrCat("<g id=\"cell-", c, "-", s, "\" class=\""));
  if (at == std::string::npos) return {"", ""};
  const size_t cls = html.find("class=\"", at) + 7;
  const size_t text = html.find('>', html.find("<text", at)) + 1;
  return {html.substr(cls, html.find('"', cls) - cls),
          html.substr(text, html.find('<', text) - text)};
}

// --report: rank 0 writes one page whose heat map is 3 x 3, the diagonal "self" and every
// other cell the JSON's averaged RTT to the last digit it shows.
TEST(MpiMatrixTest, ThreeRanksWriteAReportPageWithAThreeByThreeHeatMap) {
  const std::string page = ::testing::TempDir() + "/matrix.html";
  std::remove(page.c_str());
  const HarnessResult result = RunUnderMpirun(
      3, "--experiment=matrix --iterations=300 --runs=3 --format=json --report=" + page);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  absl::StatusOr<harness::JsonValue> json = harness::ParseJson(result.out);
  ASSERT_TRUE(json.ok()) << json.status();
  const std::string html = ReadWholeFile(page);
  ASSERT_TRUE(absl::EndsWith(html, "</html>\n")) << html;
  EXPECT_TRUE(absl::StrContains(html, "<li>Fastest pair ")) << html;
  EXPECT_TRUE(absl::StrContains(html, "Welch t-test at 5%")) << html;
  EXPECT_FALSE(absl::StrContains(html, "PARTIAL"));
  EXPECT_EQ(HeatMapCell(html, 0, 3).first, "");  // three ranks, no fourth
  EXPECT_EQ(HeatMapCell(html, 3, 0).first, "");
  for (const harness::JsonValue& pair : json->Get("pairs")->items) {
    const int c = harness::NumberAt(pair, "", "client"), s = harness::NumberAt(pair, "", "server");
    SCOPED_TRACE(absl::StrCat(c, "->", s));
    const auto [cls, figure] = HeatMapCell(html, c, s);
    ASSERT_EQ(cls, "measured");
    double shown = 0;
    ASSERT_TRUE(absl::SimpleAtod(figure, &shown)) << figure;
    const size_t point = figure.find('.');
    const int decimals = point == std::string::npos ? 0 : figure.size() - point - 1;
    EXPECT_LE(std::fabs(shown - harness::NumberAt(pair, "", "rtt_ns") / 1e3),
              0.5 * std::pow(10.0, -decimals) * 1.0001);
  }
  for (int r = 0; r < 3; ++r) EXPECT_EQ(HeatMapCell(html, r, r).first, "self");
}

// UDP and TCP between the ranks' hosts (here one host: loopback), MPI carrying only the
// addresses: every pair measured over the socket, not over MPI.
TEST(MpiMatrixTest, UdpAndTcpBetweenTheRanksGiveEveryPair) {
  for (const char* transport : {"udp", "tcp"}) {
    SCOPED_TRACE(transport);
    const HarnessResult result =
        RunUnderMpirun(3, absl::StrCat("--experiment=matrix --transport=", transport,
                                       " --iterations=500 --runs=2 --format=json"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    absl::StatusOr<harness::JsonValue> json = harness::ParseJson(result.out);
    ASSERT_TRUE(json.ok()) << json.status();
    EXPECT_EQ(harness::StringAt(*json, "transport"), transport);
    const std::vector<harness::JsonValue>& pairs = json->Get("pairs")->items;
    ASSERT_EQ(pairs.size(), 6u);
    for (const harness::JsonValue& pair : pairs) {
      EXPECT_EQ(harness::StringAt(pair, "status"), "measured") << harness::StringAt(pair, "error");
      EXPECT_GT(harness::NumberAt(pair, "", "rtt_ns"), 100);
      EXPECT_LT(harness::NumberAt(pair, "", "rtt_ns"), 10e6);
    }
  }
}

TEST(MpiMatrixTest, OneRankAnotherTransportOrTwoSizesAreRefused) {
  const HarnessResult alone = RunUnderMpirun(1, "--experiment=matrix");
  EXPECT_EQ(alone.exit_code, 2) << alone.err;
  EXPECT_TRUE(absl::StrContains(alone.err, "mpirun -np N, N >= 2")) << alone.err;
  const HarnessResult pipe = RunUnderMpirun(2, "--experiment=matrix --transport=pipe");
  EXPECT_EQ(pipe.exit_code, 2) << pipe.err;
  EXPECT_TRUE(absl::StrContains(pipe.err, "measures over mpi, udp or tcp; got 'pipe'")) << pipe.err;
  const HarnessResult sizes = RunUnderMpirun(2, "--experiment=matrix --sizes=64,128");
  EXPECT_EQ(sizes.exit_code, 2) << sizes.err;
  EXPECT_TRUE(absl::StrContains(sizes.err, "--sizes: the matrix measures one size")) << sizes.err;
}

// mpirun's ranks on this host are its children: the test kills the last one, by its id,
// once the matrix file shows a pair measured.
TEST(MpiMatrixTest, AKilledRankEndsEveryRankWithinSecondsAndThePairsMeasuredStayWritten) {
  const std::string dir = ::testing::TempDir();
  const std::string output = dir + "/matrix.json", done = dir + "/mpirun_exit.txt";
  const std::string page = dir + "/killed.html";
  const std::string script = absl::StrCat(
      "mpirun --allow-run-as-root --oversubscribe --mca btl self,vader -np 3 ", HarnessPath(),
      " --experiment=matrix --iterations=300000 --runs=2 --format=json --output=", output,
      " --report=", page,
      " >/dev/null 2>&1 & pid=$!; "
      "for i in $(seq 1 600); do [ -s ",
      output,
      " ] && break; sleep 0.1; done; "
      "victim=$(pgrep -P $pid | tail -1); kill -9 $victim; "
      "start=$(date +%s%N); wait $pid; code=$?; end=$(date +%s%N); "
      "echo $code $(( (end - start) / 1000000 )) >",
      done);
  ASSERT_EQ(std::system(absl::StrCat("timeout 150 sh -c '", script, "'").c_str()), 0);
  int exit_code = -1, millis = -1;
  ASSERT_EQ(std::sscanf(ReadWholeFile(done).c_str(), "%d %d", &exit_code, &millis), 2)
      << ReadWholeFile(done);
  EXPECT_NE(exit_code, 0);
  EXPECT_LT(millis, 10'000) << "every rank should end within seconds of one dying";
  absl::StatusOr<harness::JsonValue> json = harness::ParseJson(ReadWholeFile(output));
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_FALSE(json->Get("complete")->boolean);
  EXPECT_EQ(harness::StringAt(json->Get("pairs")->items[0], "status"), "measured");
  // The page of the pairs measured, marked partial.
  const std::string html = ReadWholeFile(page);
  EXPECT_TRUE(absl::StartsWith(html, "<!DOCTYPE html>")) << html;
  EXPECT_TRUE(absl::StrContains(html, "<li>PARTIAL: the run ended early")) << html;
  EXPECT_EQ(HeatMapCell(html, 0, 1).first, "measured");
}

}  // namespace
}  // namespace tickbench
