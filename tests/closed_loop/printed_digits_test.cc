// Tables written with few digits: the rounding of the printed cells is noise the analysis
// must not read as steps. A straight machine (1500 µs + 250 ns/B, throughput 2n / RTT)
// printed as whole kB/s rounds its 32-byte throughput by 1 % and its 4096-byte one by
// 0.015 %; without the printed resolution as a floor under each size's variance, the
// neighbour-scatter noise (the median of all sizes) took the small sizes' rounding for
// fixed 128-byte chunks (ΔBIC 23.4) and 7 steps.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analysis/csv/csv_sweep_reader.h"
#include "analysis/fits/model_fit.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/fit/sweep_analysis.h"

namespace tickbench {
namespace {

using ::testing::HasSubstr;

const std::vector<double> kSizes = {32, 64, 128, 256, 512, 1024, 1536, 2048, 2560, 3072, 4096};

// The table `size_bytes,throughput_kb_per_s` of RTT 1500 µs + 250 ns/B, times `jump` from
// `jump_at` bytes on, with `digits` decimals.
std::string ThroughputTable(int digits, double jump = 1, double jump_at = 1e9) {
  std::string text = "size_bytes,throughput_kb_per_s\n";
  for (double n : kSizes) {
    const double rtt_s = (1500e-6 + 250e-9 * n) * (n >= jump_at ? jump : 1);
    absl::StrAppendFormat(&text, "%.0f,%.*f\n", n, digits, 2 * n / rtt_s / 1000);
  }
  return text;
}

harness::SweepAnalysis AnalyzeText(const std::string& csv, std::string* report) {
  absl::StatusOr<analysis::Sweep> read = analysis::ParseSweepCsv(csv);
  EXPECT_TRUE(read.ok()) << read.status();
  absl::StatusOr<analysis::Sweep> rtt = analysis::RttFromThroughput(*read);
  EXPECT_TRUE(rtt.ok()) << rtt.status();
  harness::SweepAnalysis result = harness::AnalyzeSweep(*rtt, {}, /*explain=*/true);
  *report = harness::FormatSweepAnalysis(*rtt, {}, result);
  return result;
}

TEST(PrintedDigitsTest, StraightLineInWholeKbPerSecondHasNoStepsAndNoLayout) {
  for (int digits : {0, 1, 2}) {
    std::string report;
    const harness::SweepAnalysis result = AnalyzeText(ThroughputTable(digits), &report);
    ASSERT_TRUE(result.steps.ok()) << result.steps.status();
    ASSERT_TRUE(result.fits.ok()) << result.fits.status();
    EXPECT_TRUE(result.steps->steps.empty()) << digits << " decimals:\n" << report;
    EXPECT_TRUE(result.implied_steps.empty()) << digits << " decimals:\n" << report;
    EXPECT_FALSE(result.fits->beats_line) << digits << " decimals:\n" << report;
    EXPECT_THAT(report, HasSubstr("none: the curve follows its trend within the noise"));
    EXPECT_THAT(report, HasSubstr("no model beats the straight line"));
  }
}

TEST(PrintedDigitsTest, WholeKbPerSecondFloorsTheSmallSizesVariance) {
  absl::StatusOr<analysis::Sweep> read = analysis::ParseSweepCsv(ThroughputTable(0));
  ASSERT_TRUE(read.ok());
  absl::StatusOr<analysis::Sweep> rtt = analysis::RttFromThroughput(*read);
  ASSERT_TRUE(rtt.ok());
  // 32 bytes: 42 kB/s ± 0.5 → RTT 64/42000 s, +64/(42000·41500) s = 36.7 µs above.
  EXPECT_NEAR(rtt->points[0].resolution, 64 * 500.0 / (42000.0 * 41500.0) * 1e9, 1e-6);
  // The floor sets at least the smallest size's variance: (36.7 µs)²/3.
  absl::StatusOr<analysis::StepDetection> steps = analysis::DetectSteps(*rtt);
  ASSERT_TRUE(steps.ok());
  EXPECT_GE(steps->noise.resolution_floored, 1);
  EXPECT_GE(steps->noise.mean_variance[0],
            rtt->points[0].resolution * rtt->points[0].resolution / 3 * (1 - 1e-12));
}

TEST(PrintedDigitsTest, RealFifteenPercentStepInWholeKbPerSecondIsStillFound) {
  std::string report;
  const harness::SweepAnalysis result =
      AnalyzeText(ThroughputTable(0, /*jump=*/1.15, /*jump_at=*/1536), &report);
  ASSERT_TRUE(result.steps.ok()) << result.steps.status();
  ASSERT_EQ(result.steps->steps.size(), 1u) << report;
  const analysis::Step& step = result.steps->steps[0];
  EXPECT_EQ(step.kind, analysis::StepKind::kJump) << report;
  EXPECT_EQ(step.direction, analysis::StepDirection::kUp);
  EXPECT_EQ(step.size_before, 1024);
  EXPECT_EQ(step.size_after, 1536);
  // The smallest discontinuity over the gap, at 1024 bytes: 15 % of 1756 µs, 263 µs.
  EXPECT_NEAR(step.magnitude, 0.15 * 1756e3, 0.05 * 0.15 * 1756e3) << report;
  EXPECT_THAT(report, HasSubstr("jump up between 1024 and 1536 bytes"));
}

}  // namespace
}  // namespace tickbench
