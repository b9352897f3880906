#include "timing/theory/tick_theory.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace tickbench::timing {
namespace {

TEST(TickTheoryTest, FixedIntervalGivesTheBernoulliPrediction) {
  const std::vector<double> d(1000, 1.3e6);  // 1.3 ms with T = 10 ms: f = 0.13
  const TickPrediction p = PredictTickReadings(d, 1e7);
  EXPECT_EQ(p.n, 0);
  EXPECT_NEAR(p.f, 0.13, 1e-12);
  EXPECT_NEAR(p.mean_ns, 1.3e6, 1e-6);
  EXPECT_NEAR(p.sd_ns, 1e7 * std::sqrt(0.13 * 0.87), 1e-3);
  EXPECT_NEAR(p.share_standard_error, std::sqrt(0.13 * 0.87 / 1000), 1e-12);
  ASSERT_EQ(p.histogram.size(), 2u);
  EXPECT_NEAR(p.histogram[0], 870, 1e-9);
  EXPECT_NEAR(p.histogram[1], 130, 1e-9);
}

TEST(TickTheoryTest, RandomPhaseReadingsAgreeAndBiasedOnesDoNot) {
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> phase(0, 1);
  const double period = 1e7, d = 2.35e7;  // n = 2, f = 0.35
  std::vector<double> truth(5000, d), readings, locked;
  for (size_t i = 0; i < truth.size(); ++i) {
    const double u = phase(random);
    readings.push_back(period * (std::floor(u + d / period) - std::floor(u)));
    locked.push_back(2 * period);  // a frozen phase that always reads n
  }
  const TickPrediction p = PredictTickReadings(truth, period);
  EXPECT_TRUE(JudgeTickReadings(ObserveTickReadings(readings, p), p).agrees());
  const TickVerdict bad = JudgeTickReadings(ObserveTickReadings(locked, p), p);
  EXPECT_FALSE(bad.share_agrees);
  EXPECT_FALSE(bad.mean_agrees);
  EXPECT_FALSE(bad.sd_agrees);
  // The observed share's binomial interval holds the predicted f = 0.35 for random phases
  // (about ±0.013 for 5000 readings) and excludes it for the frozen phase (0 of 5000).
  const TickObservation good = ObserveTickReadings(readings, p);
  EXPECT_TRUE(good.share_ci95.Contains(p.f)) << good.share_ci95.low << " " << good.share_ci95.high;
  EXPECT_LT(good.share_ci95.half_width(), 0.02);
  const TickObservation frozen = ObserveTickReadings(locked, p);
  EXPECT_EQ(frozen.share_ci95.low, 0);
  EXPECT_TRUE(frozen.share_ci95.Excludes(p.f));
  EXPECT_FALSE(ObserveTickReadings({}, p).share_ci95.valid);
}

ConfidenceInterval Interval(double estimate, double low, double high) {
  ConfidenceInterval ci;
  ci.estimate = estimate;
  ci.low = low;
  ci.high = high;
  ci.valid = true;
  return ci;
}

// The interval verdict: agreement where the intervals overlap, each check on its own.
TEST(TickTheoryTest, IntervalVerdictAgreesWhereTheIntervalsOverlap) {
  TickIntervals observed{Interval(0.3, 0.28, 0.32), Interval(10, 9, 11), Interval(4, 3, 5)};
  TickIntervals predicted{Interval(0.33, 0.31, 0.35), Interval(12, 11, 13), Interval(6, 5.5, 7)};
  const TickVerdict v = JudgeTickIntervals(observed, predicted);
  EXPECT_TRUE(v.share_agrees);  // [0.28, 0.32] and [0.31, 0.35] share [0.31, 0.32]
  EXPECT_TRUE(v.mean_agrees);   // touching at 11
  EXPECT_FALSE(v.sd_agrees);    // [3, 5] and [5.5, 7] are apart
  EXPECT_FALSE(v.agrees());
  observed.share.valid = false;
  EXPECT_FALSE(JudgeTickIntervals(observed, predicted).share_agrees);
}

TEST(TickTheoryTest, ChiSquareTailMatchesKnownValues) {
  // chi-square upper tails: df 1 at 3.841 is 0.05; df 19 at 30.14 is 0.05; df 2 at x is
  // exp(-x/2).
  EXPECT_NEAR(UpperIncompleteGammaRatio(0.5, 3.841 / 2), 0.05, 2e-4);
  EXPECT_NEAR(UpperIncompleteGammaRatio(9.5, 30.14 / 2), 0.05, 2e-4);
  EXPECT_NEAR(UpperIncompleteGammaRatio(1, 1.7), std::exp(-1.7), 1e-12);
}

TEST(TickTheoryTest, UniformityTestTellsRandomFromLockedPhases) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> phase(0, 1);
  std::vector<double> uniform, locked;
  for (int i = 0; i < 2000; ++i) {
    uniform.push_back(phase(random));
    locked.push_back(0.25 + 0.001 * phase(random));
  }
  EXPECT_GT(TestUniformPhases(uniform).p_value, 0.001);
  EXPECT_LT(TestUniformPhases(locked).p_value, 1e-12);
}

// Pearson's chi-square over 20 bins, counting the phases as independent.
double PearsonP(const std::vector<double>& phases) {
  std::vector<double> counts(20, 0);
  for (double u : phases) counts[std::min(19, static_cast<int>(u * 20))] += 1;
  const double expected = static_cast<double>(phases.size()) / 20;
  double chi_square = 0;
  for (double c : counts) chi_square += (c - expected) * (c - expected) / expected;
  return UpperIncompleteGammaRatio(19 / 2.0, chi_square / 2);
}

// Back-to-back round trips of 0.99 T with normal jitter of 0.198 T (the 9.9 ms loop on a
// 10 ms tick): each phase is the last one moved by the trip, uniform on its own but
// wandering. Pearson's statistic, counting them as independent, fires far above its level;
// the batch test holds it (within twice the level at 5% and 1%, 1000 runs of 1000 trips).
TEST(TickTheoryTest, UniformityTestHoldsItsLevelForWanderingPhases) {
  std::mt19937_64 random(11);
  std::normal_distribution<double> jitter(0, 0.198);
  std::uniform_real_distribution<double> start(0, 1);
  int below5 = 0, below1 = 0, uncorrected1 = 0;
  constexpr int kRuns = 1000;
  for (int run = 0; run < kRuns; ++run) {
    std::vector<double> phases;
    double u = start(random);
    for (int i = 0; i < 1000; ++i) {
      phases.push_back(u - std::floor(u));
      u += 0.99 + jitter(random);
    }
    const UniformityTest test = TestUniformPhases(phases);
    below5 += test.p_value < 0.05;
    below1 += test.p_value < 0.01;
    uncorrected1 += PearsonP(phases) < 0.01;
  }
  std::printf("p < 0.05 in %d, p < 0.01 in %d of %d (uncorrected %d)\n", below5, below1, kRuns,
              uncorrected1);
  EXPECT_LE(below5, 2 * 0.05 * kRuns);
  EXPECT_LE(below1, 2 * 0.01 * kRuns);
  EXPECT_GT(uncorrected1, 4 * 0.01 * kRuns);  // what the correction is for
}

// A lock puts every batch's means at the same point: the test sees it at once.
TEST(TickTheoryTest, UniformityCorrectionNeverWeakensALock) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> phase(0, 1);
  std::vector<double> locked;
  for (int i = 0; i < 4000; ++i) locked.push_back(0.25 + 0.1 * phase(random));
  EXPECT_LT(TestUniformPhases(locked).p_value, 1e-12);
}

// Phases that cycle evenly (round trips of 1.3 T back to back: ten points, 0.3 T apart) in
// batches of a multiple of ten have batch means of 0 and no spread: as uniform as two
// harmonics can see, not a lock (the bare covariance was singular and said p = 0). A
// frozen phase, with no spread either, is still a lock.
TEST(TickTheoryTest, UniformityTestIsDefinedWhereBatchMeansHaveNoSpread) {
  std::vector<double> cycling, frozen(1000, 0.37);
  double u = 0.123;
  for (int i = 0; i < 1000; ++i) {
    cycling.push_back(u - std::floor(u));
    u += 1.3;
  }
  const UniformityTest even = TestUniformPhases(cycling);
  EXPECT_EQ(even.batches, 20);
  EXPECT_GT(even.p_value, 0.5) << even.statistic;
  EXPECT_LT(TestUniformPhases(frozen).p_value, 1e-12);
  // Two points half a tick apart (2.5 T) cancel the first harmonic, not the second.
  std::vector<double> two;
  for (int i = 0; i < 1000; ++i) two.push_back(i % 2 == 0 ? 0.1 : 0.6);
  EXPECT_LT(TestUniformPhases(two).p_value, 1e-12);
}

}  // namespace
}  // namespace tickbench::timing
