#include "harness/report/size_summary.h"

#include <cmath>
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

TEST(SizeSummaryTest, TwoRunsGiveTheStudentTIntervalAcrossRuns) {
  const std::vector<SizeSummary> sizes = SummarizeSizes({MakeRun(64, 1000), MakeRun(64, 1010)});
  ASSERT_EQ(sizes.size(), 1u);
  const timing::ConfidenceInterval& ci = sizes[0].averaged_rtt_ns;
  ASSERT_TRUE(ci.valid);
  EXPECT_DOUBLE_EQ(ci.estimate, 1005);
  // SD 7.071, standard error 5, t(0.975; 1 df) = 12.706.
  EXPECT_NEAR(ci.half_width(), 12.706 * 5, 0.01);
  EXPECT_TRUE(sizes[0].throughput_bytes_per_s.valid);
  EXPECT_TRUE(sizes[0].throughput_bytes_per_s.Contains(2.0 * 64 / 1005e-9));
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
  EXPECT_EQ(s.averaged_rtt_ns.low, 0);
  EXPECT_GT(s.averaged_rtt_ns.high, 30000);
  EXPECT_EQ(s.throughput_bytes_per_s.low, 0);
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
