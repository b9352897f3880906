#include "harness/report/size_summary.h"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

RunRecord MakeRun(size_t size, double rtt_ns, int attempt = 1, int64_t timed = 1000) {
  RunRecord r;
  r.size_bytes = size;
  r.attempt = attempt;
  r.completed = 1000;
  r.timed_trips = timed;
  r.averaged_rtt_ns = rtt_ns;
  r.throughput_bytes_per_s = rtt_ns > 0 ? 2.0 * size / (rtt_ns * 1e-9) : 0;
  r.quantum_ns = 1;
  return r;
}

TEST(SizeSummaryTest, TwoRunsGiveTheLogScaleStudentTIntervalAcrossRuns) {
  const std::vector<SizeSummary> sizes = SummarizeSizes({MakeRun(64, 1000), MakeRun(64, 1010)});
  ASSERT_EQ(sizes.size(), 1u);
  const timing::ConfidenceInterval& ci = sizes[0].averaged_rtt_ns;
  ASSERT_TRUE(ci.valid);
  EXPECT_DOUBLE_EQ(ci.estimate, 1005);
  // SD 7.071, standard error 5, t(0.975; 1 df) = 12.706: 1005 / f to 1005 f, f = exp(t 5 / 1005).
  const double f = std::exp(12.706 * 5 / 1005);
  EXPECT_NEAR(ci.high, 1005 * f, 0.01);
  EXPECT_NEAR(ci.low, 1005 / f, 0.01);
  EXPECT_NEAR(sizes[0].relative_half_width, f - 1, 1e-5);
}

TEST(SizeSummaryTest, ThroughputIsTotalBytesOverTotalTimeAndAgreesWithTheRtt) {
  // Runs of unequal length and very different RTTs: the pooled RTT is their time over
  // their trips, and the throughput is 2n over it, not the mean of the runs' throughputs.
  std::vector<RunRecord> runs = {MakeRun(512, 9'000, 1, 1000), MakeRun(512, 62'000, 1, 1000),
                                 MakeRun(512, 73'000, 1, 1000), MakeRun(512, 68'000, 1, 3000)};
  const SizeSummary s = SummarizeSizes(runs)[0];
  const double pooled = (9e3 + 62e3 + 73e3 + 3 * 68e3) / 6;
  EXPECT_NEAR(s.averaged_rtt_ns.estimate, pooled, 1e-9);
  EXPECT_NEAR(s.throughput_bytes_per_s.estimate, 2 * 512 / (pooled * 1e-9), 1e-3);
  ASSERT_TRUE(s.throughput_bytes_per_s.valid);
  // The throughput's interval is the RTT's through 2n/x: the ends swap, and neither is 0.
  EXPECT_NEAR(s.throughput_bytes_per_s.low, 2 * 512 / (s.averaged_rtt_ns.high * 1e-9), 1e-3);
  EXPECT_NEAR(s.throughput_bytes_per_s.high, 2 * 512 / (s.averaged_rtt_ns.low * 1e-9), 1e-3);
  EXPECT_GT(s.throughput_bytes_per_s.low, 0);
  EXPECT_GT(s.averaged_rtt_ns.low, 0);
}

TEST(SizeSummaryTest, OneRunHasAnIntervalFromItsBatchMeans) {
  RunRecord r = MakeRun(64, 10'000);
  r.per_iteration_mean_ci95 = timing::ConfidenceInterval{};
  r.per_iteration_mean_ci95.valid = true;
  r.per_iteration_mean_ci95.estimate = 10'000;
  r.per_iteration_mean_ci95.standard_error = 50;
  r.per_iteration_mean_ci95.degrees_of_freedom = 19;
  const SizeSummary s = SummarizeSizes({r})[0];
  ASSERT_TRUE(s.averaged_rtt_ns.valid);
  const double t = timing::StudentTQuantile(0.975, 19);
  EXPECT_NEAR(s.averaged_rtt_ns.high,
              10'000 * std::exp(t * std::hypot(50, 1 / std::sqrt(6.0)) / 10'000), 1e-6);
  EXPECT_TRUE(s.throughput_bytes_per_s.valid);
}

TEST(SizeSummaryTest, TheLogScaleIntervalCoversAtItsLevelWithTheStudentTWidth) {
  // Simulated runs with the truth known: 6 runs of a 10 us figure with a 4% run-to-run SD.
  std::mt19937_64 bits(11);
  std::normal_distribution<double> noise(0, 400);
  int covered = 0;
  double width_ratio = 0;
  const int trials = 4000;
  for (int t = 0; t < trials; ++t) {
    std::vector<RunRecord> runs;
    for (int k = 0; k < 6; ++k) runs.push_back(MakeRun(64, 10'000 + noise(bits)));
    const SizeSummary s = SummarizeSizes(runs)[0];
    covered += s.averaged_rtt_ns.Contains(10'000);
    std::vector<double> values;
    for (const RunRecord& r : runs) values.push_back(r.averaged_rtt_ns);
    width_ratio += (s.averaged_rtt_ns.high - s.averaged_rtt_ns.low) /
                   (2 * timing::AcrossRunsInterval(values).half_width()) / trials;
  }
  const double se = std::sqrt(0.95 * 0.05 / trials);
  EXPECT_NEAR(static_cast<double>(covered) / trials, 0.95, 3 * se);
  // No wider than the Student t interval it replaces (to first order the same).
  EXPECT_NEAR(width_ratio, 1.0, 0.01);
}

TEST(SizeSummaryTest, RunsInTwoGroupsAreNamed) {
  std::vector<RunRecord> runs;
  for (double rtt : {62.1, 9.2, 73.0, 68.4, 10.4, 66.0, 8.8, 70.5})
    runs.push_back(MakeRun(512, rtt * 1e3));
  const SizeSummary s = SummarizeSizes(runs)[0];
  EXPECT_TRUE(s.groups.grouped);
  EXPECT_EQ(s.groups.low.runs, 3);
  runs.resize(4);
  EXPECT_FALSE(SummarizeSizes(runs)[0].groups.grouped);  // four runs cannot tell
}

TEST(SizeSummaryTest, RunsForPrecisionScalesWithTheSquare) {
  SizeSummary s;
  s.valid_runs = 4;
  s.relative_half_width = 0.04;
  EXPECT_EQ(RunsForPrecision(s, 0.02), 16);
  EXPECT_EQ(RunsForPrecision(s, 0.08), 4);
  s.relative_half_width = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(RunsForPrecision(s, 0.02), 0);
}

TEST(SizeSummaryTest, AFaultyRunNeverEntersTheFigure) {
  RunRecord lost = MakeRun(64, 0, 2, 0);  // retried, nothing timed
  lost.integrity.lost = 1000;
  const std::vector<SizeSummary> sizes = SummarizeSizes({MakeRun(64, 1000), lost});
  ASSERT_EQ(sizes.size(), 1u);
  EXPECT_EQ(sizes[0].runs, 2);
  EXPECT_EQ(sizes[0].valid_runs, 1);
  EXPECT_EQ(sizes[0].retried_runs, 1);
  EXPECT_DOUBLE_EQ(sizes[0].averaged_rtt_ns.estimate, 1000);
  EXPECT_FALSE(sizes[0].averaged_rtt_ns.valid);  // one run: no interval
  EXPECT_DOUBLE_EQ(sizes[0].loss_rate, 0.5);
}

TEST(SizeSummaryTest, ASizeWithoutAValidRunHasNoNumber) {
  const std::vector<SizeSummary> sizes = SummarizeSizes({MakeRun(64, 0, 1, 0), MakeRun(128, 500)});
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[0].size_bytes, 64u);
  EXPECT_TRUE(std::isnan(sizes[0].averaged_rtt_ns.estimate));
  EXPECT_FALSE(sizes[0].averaged_rtt_ns.valid);
  EXPECT_EQ(sizes[1].size_bytes, 128u);
}

TEST(SizeSummaryTest, IdenticalQuantizedRunsStillHaveAWidth) {
  std::vector<RunRecord> runs;
  for (int i = 0; i < 4; ++i) {
    runs.push_back(MakeRun(64, 20000));
    runs.back().quantum_ns = 20000;  // a 20 ms tick over 1000 round trips
  }
  const timing::ConfidenceInterval ci = SummarizeSizes(runs)[0].averaged_rtt_ns;
  ASSERT_TRUE(ci.valid);
  EXPECT_GT(ci.half_width(), 1000);  // never the point the identical readings suggest
  EXPECT_TRUE(SummarizeSizes(runs)[0].throughput_bytes_per_s.half_width() > 0);
}

}  // namespace
}  // namespace tickbench::harness

namespace tickbench::harness {
namespace {

TEST(SizeSummaryTest, TheLowerEndIsNeverBelowZero) {
  // Two runs far apart: Student t on 1 degree of freedom reaches below 0; an RTT cannot.
  std::vector<RunRecord> runs(2);
  for (int i = 0; i < 2; ++i) {
    runs[i].size_bytes = 64;
    runs[i].completed = runs[i].timed_trips = 1000;
    runs[i].averaged_rtt_ns = i == 0 ? 1000 : 30000;
    runs[i].throughput_bytes_per_s = 128 / (runs[i].averaged_rtt_ns * 1e-9);
  }
  const SizeSummary s = SummarizeSizes(runs)[0];
  ASSERT_TRUE(s.averaged_rtt_ns.valid);
  EXPECT_GT(s.averaged_rtt_ns.low, 0);
  EXPECT_LT(s.averaged_rtt_ns.low, 1000);
  EXPECT_GT(s.averaged_rtt_ns.high, 30000);
  EXPECT_GT(s.throughput_bytes_per_s.low, 0);
}

}  // namespace
}  // namespace tickbench::harness

namespace tickbench::harness {
namespace {

TEST(SizeSummaryTest, TheRateAgainstTheReferenceIsInPpmWithItsBound) {
  std::vector<RunRecord> runs(3);
  const double fast[] = {100, 120, 110};  // ppm
  for (int i = 0; i < 3; ++i) {
    runs[i].size_bytes = 64;
    runs[i].completed = runs[i].timed_trips = 1000;
    runs[i].has_reference = true;
    runs[i].reference_averaged_rtt_ns = 1e6;
    runs[i].averaged_rtt_ns = 1e6 * (1 + fast[i] * 1e-6);
    runs[i].quantum_ns = 1;  // 1 ns of 1 ms: 1 ppm
  }
  RunRecord no_reference = runs[0];
  no_reference.has_reference = false;
  no_reference.averaged_rtt_ns = 2e6;  // would be +1e6 ppm if it counted
  runs.push_back(no_reference);
  const RateSummary rate = SummarizeRate(runs);
  EXPECT_EQ(rate.runs, 3);
  ASSERT_TRUE(rate.ppm.valid);
  EXPECT_NEAR(rate.ppm.estimate, 110, 1e-6);
  // SD 10, standard error 10/sqrt(3), t(0.975; 2) = 4.3027.
  EXPECT_NEAR(rate.ppm.half_width(), 4.3027 * 10 / std::sqrt(3.0), 0.01);
  EXPECT_NEAR(rate.bound_ppm, 1, 1e-9);
  // A rate may be negative: no clipping at 0.
  for (RunRecord& r : runs) r.averaged_rtt_ns = 1e6 * (1 - 100e-6);
  EXPECT_LT(SummarizeRate(runs).ppm.high, 0);
  EXPECT_EQ(SummarizeRate({}).runs, 0);
}

}  // namespace
}  // namespace tickbench::harness
