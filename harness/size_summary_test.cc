#include "harness/size_summary.h"

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
  const timing::ConfidenceInterval& ci = SummarizeSizes(runs)[0].averaged_rtt_ns;
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
