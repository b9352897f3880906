#include "core/running_stats.h"

#include <cmath>

#include "gtest/gtest.h"

namespace tickbench::core {
namespace {

TEST(RunningStatsTest, EmptyIsAllZero) {
  RunningStats stats;
  EXPECT_EQ(stats.count(), 0);
  EXPECT_EQ(stats.mean(), 0);
  EXPECT_EQ(stats.variance(), 0);
  EXPECT_EQ(stats.min(), 0);
  EXPECT_EQ(stats.max(), 0);
}

TEST(RunningStatsTest, MomentsOfKnownValues) {
  RunningStats stats;
  for (double v : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) stats.Add(v);
  EXPECT_EQ(stats.count(), 8);
  EXPECT_DOUBLE_EQ(stats.mean(), 5.0);
  EXPECT_DOUBLE_EQ(stats.variance(), 32.0 / 7.0);  // sample variance: n - 1
  EXPECT_DOUBLE_EQ(stats.sd(), std::sqrt(32.0 / 7.0));
  EXPECT_EQ(stats.min(), 2.0);
  EXPECT_EQ(stats.max(), 9.0);
}

TEST(RunningStatsTest, OneValueHasNoVariance) {
  RunningStats stats;
  stats.Add(-3.5);
  EXPECT_EQ(stats.mean(), -3.5);
  EXPECT_EQ(stats.variance(), 0);
  EXPECT_EQ(stats.min(), -3.5);
  EXPECT_EQ(stats.max(), -3.5);
}

// Sum-of-squares formulas lose everything here (1e9 + small offsets): Welford keeps it.
TEST(RunningStatsTest, NoCancellationAtLargeOffsets) {
  RunningStats stats;
  for (int i = 0; i < 1000; ++i) stats.Add(1e9 + (i % 2 == 0 ? 1.0 : -1.0));
  EXPECT_NEAR(stats.variance(), 1000.0 / 999.0, 1e-6);
  EXPECT_DOUBLE_EQ(stats.mean(), 1e9);
}

}  // namespace
}  // namespace tickbench::core
