#include "harness/fit/analyze_text.h"

#include <string>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

// A step the detector finds whose segmentation the ranking cannot fit (sizes from 64 to
// 16 MiB, values from 1e-20 to 1e20): said in words, not "by only ΔBIC nan".
TEST(AnalyzeCsvTextTest, AStepTheRankingCannotFitIsSaidSoNotNan) {
  const std::string csv =
      "16777216,100\n16776216,912\n16775216,102\n16742716,103\n16773216,104\n16772213,105\n"
      "16771216,106\n16770216,107\n16769216,108\n\n64,1e-20\n128,1e20\n19384,0\n448,7e19\n"
      "512,3e-19\n576,42\n";
  const absl::StatusOr<TextAnalysis> done =
      AnalyzeCsvText(csv, "t.csv", "", /*explain=*/true, /*fit_sim=*/true);
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_THAT(done->report, HasSubstr("t.csv: 15 sizes, value\n"));
  EXPECT_THAT(done->report, HasSubstr("  not established: the segmented fit's 1 step could not be "
                                      "ranked against the straight line in the ranking's "
                                      "criterion"));
  EXPECT_THAT(done->report, Not(HasSubstr("nan")));
  // A value without a unit is not a round-trip time the simulation can replay.
  EXPECT_EQ(done->fit_sim.code(), absl::StatusCode::kInvalidArgument);
}

TEST(AnalyzeCsvTextTest, AThroughputIsReadAsTheTimeItImpliesAndSaysSo) {
  const absl::StatusOr<TextAnalysis> done = AnalyzeCsvText(
      "size_bytes,throughput_kb_per_s\n64,128\n128,256\n", "t.csv", "", false, false);
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_TRUE(absl::StartsWith(done->report,
                               "(throughput column throughput_kb_per_s read as the round-trip "
                               "time it implies, 2n / throughput)\nt.csv: 2 sizes, implied_rtt_ns"))
      << done->report;
  EXPECT_EQ(done->sweep.points[0].values[0], 1e6);  // 128 bytes per 128 kB/s: 1 ms
}

// A unitless column's jump of −0.97 is printed to the digits its interval supports and says
// it has no unit, not as a whole "-1".
TEST(AnalyzeCsvTextTest, AUnitlessJumpKeepsTheDigitsItsIntervalSupportsAndSaysNoUnit) {
  const absl::StatusOr<TextAnalysis> done = AnalyzeCsvText(
      "size_bytes,score\n100,10.01\n200,9.99\n300,10.02\n400,9.98\n500,10.00\n600,10.01\n"
      "700,9.03\n800,9.05\n900,9.02\n1000,9.04\n1100,9.03\n1200,9.05\n",
      "t.csv", "score", false, false);
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_THAT(done->report, HasSubstr("t.csv: 12 sizes, score\n"));
  EXPECT_THAT(done->report, ContainsRegex("jump down between 600 and 700 bytes: -0\\.9[0-9]+ ± "
                                          "0\\.0[0-9]+ \\(no unit\\) \\("))
      << done->report;
  EXPECT_THAT(done->report, Not(HasSubstr(": -1 ")));
}

TEST(AnalyzeCsvTextTest, ARefusalNamesTheFlagAndTheFile) {
  const absl::StatusOr<TextAnalysis> done = AnalyzeCsvText("64,-1\n", "t.csv", "", false, false);
  ASSERT_FALSE(done.ok());
  EXPECT_EQ(done.status().message(),
            "--analyze: t.csv: line 1: value '-1' is negative: a time or a throughput is not");
}

}  // namespace
}  // namespace tickbench::harness
