#include "timing/stats/run_groups.h"

#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace tickbench::timing {
namespace {

// k runs, each from one normal distribution (the null) or, with `two_modes`, each run in
// the slow mode with probability 1/2: the second mode `separation` SDs above the first.
std::vector<double> Runs(std::mt19937_64& bits, int k, bool two_modes, double separation) {
  std::normal_distribution<double> normal(0, 1);
  std::bernoulli_distribution slow(0.5);
  std::vector<double> runs;
  for (int i = 0; i < k; ++i) {
    runs.push_back(100 + 3 * normal(bits) + (two_modes && slow(bits) ? 3 * separation : 0));
  }
  return runs;
}

double GroupedShare(int k, bool two_modes, double separation, int trials, uint64_t seed) {
  std::mt19937_64 bits(seed);
  int grouped = 0;
  for (int t = 0; t < trials; ++t)
    grouped += TestRunGroups(Runs(bits, k, two_modes, separation)).grouped;
  return static_cast<double>(grouped) / trials;
}

TEST(RunGroupsTest, FalseAlarmRateOnNormalRunsIsAtMostTheLevel) {
  // 3000 trials: one binomial SE at 1% is 0.18%.
  for (int k : {4, 5, 8, 12, 20}) {
    const double share = GroupedShare(k, false, 0, 3000, 77 + k);
    EXPECT_LE(share, kGroupsLevel + 3 * std::sqrt(kGroupsLevel * (1 - kGroupsLevel) / 3000))
        << k << " runs";
    // Not a test that never fires: near its level (the Monte Carlo p-value is exact in law).
    EXPECT_GE(share, 0.002) << k << " runs";
  }
}

TEST(RunGroupsTest, PowerOnTwoModeRuns) {
  // Each run in either mode with probability 1/2 (a split with fewer than SmallestGroup
  // runs on one side is no group by definition). Measured (1000 trials): modes 10 SDs apart
  // are found 86% of the time at 8 runs, 7 SDs apart 89% at 12 and 98% at 16; 4 runs have
  // almost no power (10% at 10 SDs: the SD has 2 degrees of freedom).
  EXPECT_GE(GroupedShare(8, true, 10, 1000, 5), 0.8);
  EXPECT_GE(GroupedShare(12, true, 7, 1000, 6), 0.83);
  EXPECT_GE(GroupedShare(16, true, 7, 1000, 7), 0.94);
  // Power grows with the separation and the number of runs.
  EXPECT_LT(GroupedShare(8, true, 4, 1000, 8), GroupedShare(8, true, 10, 1000, 8));
  EXPECT_LT(GroupedShare(4, true, 10, 1000, 9), GroupedShare(8, true, 10, 1000, 9));
}

TEST(RunGroupsTest, NamesTheVirtualMachinesTwoGroups) {
  // The first run a user made on a 2-vCPU VM: one run at 9 us, three at 62-73 us; four
  // runs alone are not enough to call that groups at 1% ...
  const RunGroups four = TestRunGroups(std::vector<double>{62.1, 9.2, 73.0, 68.4});
  ASSERT_TRUE(four.tested);
  EXPECT_FALSE(four.grouped);
  // ... eight runs of the same two modes are.
  const RunGroups g =
      TestRunGroups(std::vector<double>{62.1, 9.2, 73.0, 68.4, 10.4, 66.0, 8.8, 70.5});
  ASSERT_TRUE(g.tested);
  EXPECT_TRUE(g.grouped);
  EXPECT_LT(g.p_value, kGroupsLevel);
  EXPECT_EQ(g.low.runs, 3);
  EXPECT_NEAR(g.low.mean, (9.2 + 10.4 + 8.8) / 3, 1e-9);
  EXPECT_EQ(g.high.runs, 5);
  EXPECT_DOUBLE_EQ(g.high.min, 62.1);
  EXPECT_DOUBLE_EQ(g.high.max, 73.0);
}

TEST(RunGroupsTest, TooFewRunsAreNotTested) {
  EXPECT_FALSE(TestRunGroups(std::vector<double>{1, 2, 100}).tested);
  EXPECT_FALSE(TestRunGroups(std::vector<double>{1, 2, NAN, 100}).tested);
}

TEST(RunGroupsTest, IdenticalQuantizedRunsAreNotGroups) {
  // Runs of a coarse clock that all read 2 quanta but one that read 3: compatible with one
  // distribution on the grid, so not groups once the SD is floored.
  EXPECT_FALSE(TestRunGroups(std::vector<double>{20, 20, 30, 30}, 10).grouped);
  // Without the floor the pairs of identical values have SD 0 and any gap is infinite.
  EXPECT_TRUE(TestRunGroups(std::vector<double>{20, 20, 30, 30}, 0).grouped);
}

TEST(RunGroupsTest, OneDisturbedRunIsATailNotAGroup) {
  // Twelve runs about 21.7 us and one disturbed run at 33 us (measured on a loaded VM): no
  // group may be smaller than a fifth of the runs.
  EXPECT_EQ(SmallestGroup(13), 3);
  EXPECT_FALSE(TestRunGroups(std::vector<double>{21.1, 21.5, 21.5, 21.6, 21.6, 21.7, 21.8, 22.0,
                                                 22.5, 22.6, 22.9, 24.2, 33.3})
                   .grouped);
}

TEST(LogScaleIntervalTest, PositiveAndFirstOrderStudentT) {
  const ConfidenceInterval narrow = LogScaleInterval(100, 1, 9);
  const double t = StudentTQuantile(0.975, 9);
  EXPECT_NEAR(narrow.high - 100, t, 0.03 * t);
  EXPECT_NEAR(100 - narrow.low, t, 0.03 * t);
  // A standard error as large as the estimate: a Student t interval would go below 0.
  const ConfidenceInterval wide = LogScaleInterval(100, 100, 3);
  ASSERT_TRUE(wide.valid);
  EXPECT_GT(wide.low, 0);
  EXPECT_NEAR(wide.low * wide.high, 100 * 100, 1e-6);
  EXPECT_FALSE(LogScaleInterval(0, 1, 3).valid);
  EXPECT_FALSE(LogScaleInterval(10, NAN, 3).valid);
}

TEST(LogScaleIntervalTest, RateIntervalMapsOntoTheTimeInterval) {
  const ConfidenceInterval rtt = LogScaleInterval(20'000, 3'000, 3);
  const double bytes = 2.0 * 512 * 1e9;  // 2n bytes per round trip, per second
  const ConfidenceInterval rate = RateInterval(rtt, bytes);
  ASSERT_TRUE(rate.valid);
  EXPECT_DOUBLE_EQ(rate.estimate, bytes / rtt.estimate);
  EXPECT_DOUBLE_EQ(rate.low, bytes / rtt.high);
  EXPECT_DOUBLE_EQ(rate.high, bytes / rtt.low);
  EXPECT_NEAR(IntervalFactor(rate), IntervalFactor(rtt), 1e-12);
}

TEST(LogScaleIntervalTest, CoversAPositiveMeanAtItsLevel) {
  // Means of 5 exponential-ish (skewed) runs: the log-scale interval of the arithmetic
  // mean, on the across-runs SE, covers near 95% and never reaches 0.
  std::mt19937_64 bits(11);
  std::gamma_distribution<double> skewed(4, 25);  // mean 100
  int covered = 0;
  const int trials = 4000;
  for (int t = 0; t < trials; ++t) {
    double sum = 0, sum_sq = 0;
    for (int i = 0; i < 5; ++i) {
      const double v = skewed(bits);
      sum += v;
      sum_sq += v * v;
    }
    const double mean = sum / 5, sd = std::sqrt((sum_sq - 5 * mean * mean) / 4);
    const ConfidenceInterval ci = LogScaleInterval(mean, sd / std::sqrt(5.0), 4);
    covered += ci.Contains(100);
    ASSERT_GT(ci.low, 0);
  }
  EXPECT_NEAR(static_cast<double>(covered) / trials, 0.95, 0.03);
}

}  // namespace
}  // namespace tickbench::timing
