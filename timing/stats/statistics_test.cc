#include "timing/stats/statistics.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace tickbench::timing {
namespace {

TEST(StatisticsTest, SummarizesKnownValues) {
  const std::vector<double> values = {0, 0, 10, 20, 30, 40, 50, 60, 70, 80};
  const Summary s = Summarize(values);
  EXPECT_EQ(s.count, 10);
  EXPECT_DOUBLE_EQ(s.mean, 36);
  EXPECT_NEAR(s.sd, std::sqrt(7440.0 / 9), 1e-9);  // sum of squared deviations 7440
  EXPECT_EQ(s.min, 0);
  EXPECT_EQ(s.max, 80);
  EXPECT_DOUBLE_EQ(s.p50, 35);  // between 30 and 40
  EXPECT_DOUBLE_EQ(s.p90, 71);  // 0.9 * 9 = 8.1 -> 70 + 0.1 * 10
  EXPECT_DOUBLE_EQ(s.zero_fraction, 0.2);
}

TEST(StatisticsTest, WelfordKeepsPrecisionFarFromZero) {
  // Timestamps near 1e12 ns with a spread of 1 ns: a sum-of-squares variance cancels to
  // garbage in doubles; Welford gives the exact sample variance of {0, 1, 2} = 1.
  RunningStats stats;
  for (double offset : {0.0, 1.0, 2.0}) stats.Add(1e12 + offset);
  EXPECT_DOUBLE_EQ(stats.variance(), 1.0);
  EXPECT_DOUBLE_EQ(stats.mean(), 1e12 + 1);
}

TEST(StatisticsTest, EmptyAndSingleValues) {
  EXPECT_EQ(Summarize({}).count, 0);
  const Summary one = Summarize(std::vector<double>{7});
  EXPECT_EQ(one.p99, 7);
  EXPECT_EQ(one.sd, 0);
  EXPECT_EQ(Median({3, 1, 2}), 2);
  EXPECT_EQ(Median({4, 1, 2, 3}), 2.5);
}

}  // namespace
}  // namespace tickbench::timing
