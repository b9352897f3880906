#include "harness/mpi/matrix_report.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "harness/json/json_reader.h"

namespace tickbench::harness {
namespace {

MatrixCell Measured(double rtt_ns) {
  MatrixCell cell;
  cell.status = PairStatus::kMeasured;
  cell.valid_runs = 4;
  cell.rtt_ns = rtt_ns;
  cell.rtt_low_ns = rtt_ns - 100;
  cell.rtt_high_ns = rtt_ns + 100;
  cell.p50_ns = rtt_ns - 50;
  cell.p99_ns = rtt_ns * 2;
  return cell;
}

// Three ranks on two hosts: 1 -> 2 the slowest, 2 -> 0 failed, the rest measured.
Matrix ThreeRanks() {
  Matrix matrix = EmptyMatrix("mpi", "rdtsc", 64, {"alpha", "alpha", "beta"});
  matrix.at(0, 1) = Measured(3000);
  matrix.at(0, 2) = Measured(50000);
  matrix.at(1, 0) = Measured(3100);
  matrix.at(1, 2) = Measured(90000);
  matrix.at(2, 1) = Measured(49000);
  matrix.at(2, 0).status = PairStatus::kFailed;
  matrix.at(2, 0).error = "mpi: no message from rank 0 within 1s";
  return matrix;
}

TEST(MatrixReportTest, SlowestPairsAreTheMeasuredOnesByAveragedRtt) {
  const std::vector<RankPair> slowest = SlowestPairs(ThreeRanks(), 2);
  ASSERT_EQ(slowest.size(), 2u);
  EXPECT_EQ(slowest[0].client, 1);
  EXPECT_EQ(slowest[0].server, 2);
  EXPECT_EQ(slowest[1].client, 0);
  EXPECT_EQ(slowest[1].server, 2);
  EXPECT_FALSE(EveryPairMeasured(ThreeRanks()));
  Matrix all = ThreeRanks();
  all.at(2, 0) = Measured(10);
  EXPECT_TRUE(EveryPairMeasured(all));
}

TEST(MatrixReportTest, TableShowsTheGridsHostsSlowestAndFailures) {
  const std::string table = MatrixTable(ThreeRanks());
  EXPECT_TRUE(absl::StrContains(table, "90.00 +- 0.10")) << table;   // 1 -> 2, in us
  EXPECT_TRUE(absl::StrContains(table, "89.95 / 180.00")) << table;  // its p50 / p99
  EXPECT_TRUE(absl::StrContains(table, "rank 2 beta")) << table;
  EXPECT_TRUE(absl::StrContains(table, "slowest pairs: 1->2 (alpha -> beta) 90.00 us")) << table;
  EXPECT_TRUE(absl::StrContains(table, "pair 2->0 (beta -> alpha): failed: mpi: no message"))
      << table;
}

TEST(MatrixReportTest, CsvHasOneRowPerOrderedPair) {
  const std::vector<std::string> lines =
      absl::StrSplit(MatrixCsv(ThreeRanks()), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 1u + 6u);
  EXPECT_EQ(lines[0].substr(0, 25), "client_rank,client_host,s");
  EXPECT_EQ(lines[4], "1,alpha,2,beta,mpi,64,measured,4,90.000,89.900,90.100,89.950,180.000");
  EXPECT_EQ(lines[5], "2,beta,0,alpha,mpi,64,failed,0,,,,,");
}

TEST(MatrixReportTest, JsonNamesEveryPairAndTheSlowest) {
  absl::StatusOr<JsonValue> json = ParseJson(MatrixJson(ThreeRanks(), SlowestVerdict{}));
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_EQ(StringAt(*json, "mode"), "matrix");
  EXPECT_EQ(NumberAt(*json, "", "ranks"), 3);
  ASSERT_EQ(json->Get("pairs")->items.size(), 6u);
  const JsonValue& failed = json->Get("pairs")->items[4];
  EXPECT_EQ(StringAt(failed, "status"), "failed");
  EXPECT_EQ(failed.Get("rtt_ns"), nullptr);
  const JsonValue& slowest = json->Get("slowest")->items[0];
  EXPECT_EQ(NumberAt(slowest, "", "client"), 1);
  EXPECT_EQ(NumberAt(slowest, "", "server"), 2);
}

// A peer rank gives its host's name: one holding a terminal's escape, a comma or a quote
// reaches neither the terminal nor the CSV's columns as it is.
TEST(MatrixReportTest, AHostileHostNameIsEscapedInTheTableAndQuotedInTheCsv) {
  Matrix matrix = ThreeRanks();
  matrix.hosts[1] = "ev\x1b[2Jil,\"x\"";
  matrix.at(1, 0).status = PairStatus::kFailed;
  matrix.at(1, 0).error = "peer said \x1b]0;owned\x07";
  const std::string table = MatrixTable(matrix, "The slowest is 1->2 (" + matrix.hosts[1] + ").");
  EXPECT_FALSE(absl::StrContains(table, "\x1b")) << table;
  EXPECT_FALSE(absl::StrContains(table, "\x07")) << table;
  EXPECT_TRUE(absl::StrContains(table, "rank 1 ev\\x1b[2Jil,\"x\"")) << table;
  EXPECT_TRUE(absl::StrContains(table, "The slowest is 1->2 (ev\\x1b[2Jil,\"x\").")) << table;
  EXPECT_TRUE(absl::StrContains(table, "peer said \\x1b]0;owned\\x07")) << table;
  const std::string csv = MatrixCsv(matrix);
  EXPECT_FALSE(absl::StrContains(csv, "\x1b")) << csv;
  EXPECT_TRUE(absl::StrContains(csv, "\n1,\"ev\\x1b[2Jil,\"\"x\"\"\",0,alpha,mpi,")) << csv;
  // The JSON keeps the name as it came (its writer escapes it).
  absl::StatusOr<JsonValue> json = ParseJson(MatrixJson(matrix, SlowestVerdict{}));
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_EQ(json->Get("hosts")->items[1].text, matrix.hosts[1]);
}

TEST(MatrixReportTest, JsonCarriesTheVerdictTestedOrWhyNot) {
  SlowestVerdict untested;
  untested.why_untested = "pair 0->1 (alpha -> alpha) has one valid run";
  absl::StatusOr<JsonValue> json = ParseJson(MatrixJson(ThreeRanks(), untested));
  ASSERT_TRUE(json.ok()) << json.status();
  const JsonValue* test = json->Get("slowest_test");
  ASSERT_NE(test, nullptr);
  EXPECT_TRUE(absl::StrContains(StringAt(*test, "test"), "Welch t-test at 5%"));
  EXPECT_FALSE(test->Get("tested")->boolean);
  EXPECT_EQ(StringAt(*test, "why_untested"), untested.why_untested);
  EXPECT_EQ(test->Get("distinct"), nullptr);

  SlowestVerdict tested;
  tested.tested = true;
  tested.slowest = {1, 2};
  tested.distinct = true;
  tested.closest = {0, 2};
  tested.p_value = 0.004;
  json = ParseJson(MatrixJson(ThreeRanks(), tested));
  ASSERT_TRUE(json.ok()) << json.status();
  test = json->Get("slowest_test");
  EXPECT_TRUE(test->Get("tested")->boolean);
  EXPECT_TRUE(test->Get("distinct")->boolean);
  EXPECT_EQ(NumberAt(*test, "closest", "client"), 0);
  EXPECT_EQ(NumberAt(*test, "closest", "server"), 2);
  EXPECT_EQ(NumberAt(*test, "", "p_value"), 0.004);
  EXPECT_EQ(test->Get("why_untested"), nullptr);
}

TEST(MatrixReportTest, TheTableSaysTheVerdictAfterTheSlowestPairs) {
  const std::string table = MatrixTable(ThreeRanks(), "The slowest pair stands apart.");
  EXPECT_TRUE(absl::StrContains(table, " us;\nThe slowest pair stands apart.\n")) << table;
  EXPECT_FALSE(absl::StrContains(MatrixTable(ThreeRanks()), "stands apart")) << table;
}

TEST(MatrixReportTest, CellFromRunsAveragesTheValidRunsAndKeepsTheError) {
  std::vector<RunRecord> runs(3);
  for (int i = 0; i < 3; ++i) {
    runs[i].timed_trips = i < 2 ? 100 : 0;  // the third has no figure
    runs[i].averaged_rtt_ns = 1000 + 100 * i;
    runs[i].per_iteration_ns.p50 = 900 + 100 * i;
    runs[i].per_iteration_ns.p99 = 2000;
  }
  runs[2].error = "during warm-up: DEADLINE_EXCEEDED";
  const MatrixCell cell = CellFromRuns(runs, absl::OkStatus());
  EXPECT_EQ(cell.status, PairStatus::kMeasured);
  EXPECT_EQ(cell.valid_runs, 2);
  EXPECT_DOUBLE_EQ(cell.rtt_ns, 1050);
  EXPECT_LT(cell.rtt_low_ns, 1050);
  EXPECT_GT(cell.rtt_high_ns, 1050);
  EXPECT_DOUBLE_EQ(cell.p50_ns, 950);
  EXPECT_EQ(cell.error, "during warm-up: DEADLINE_EXCEEDED");
  // Three runs, one fast: the arithmetic interval [-2600, 8300] ns crossed 0; a round trip
  // cannot, and its interval stays positive, about the same mean.
  std::vector<RunRecord> spread(3);
  for (int i = 0; i < 3; ++i) {
    spread[i].timed_trips = 100;
    spread[i].averaged_rtt_ns = i == 0 ? 300 : 3800 + 200 * i;
  }
  const MatrixCell positive = CellFromRuns(spread, absl::OkStatus());
  EXPECT_NEAR(positive.rtt_ns, 8500.0 / 3, 1e-9);
  EXPECT_GT(positive.rtt_low_ns, 0);
  EXPECT_LT(positive.rtt_low_ns, positive.rtt_ns);
  EXPECT_GT(positive.rtt_high_ns, positive.rtt_ns);
  runs.resize(1);
  runs[0].timed_trips = 0;
  const MatrixCell none = CellFromRuns(runs, absl::UnavailableError("peer gone"));
  EXPECT_EQ(none.status, PairStatus::kFailed);
  EXPECT_EQ(none.error, "peer gone");
}

}  // namespace
}  // namespace tickbench::harness
