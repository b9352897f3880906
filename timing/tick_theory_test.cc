#include "timing/tick_theory.h"

#include <cmath>
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

// d known to within [0.45 T, 0.53 T]: f and the zero share at the interval's ends, the SD
// up to its maximum T/2 at f = 1/2 inside the interval, not at either end.
TEST(TickTheoryTest, PredictionIntervalReachesTheSdMaximumAtHalfATick) {
  const double period = 1e7;
  const std::vector<double> d(100, 0.48 * period);
  const TickPrediction p = PredictTickReadings(d, period);
  const TickPredictionIntervals i =
      PredictTickIntervals(d, p, Interval(0.48 * period, 0.45 * period, 0.53 * period));
  ASSERT_TRUE(i.sd_ns.valid);
  EXPECT_NEAR(i.f.low, 0.45, 1e-12);
  EXPECT_NEAR(i.f.high, 0.53, 1e-12);
  EXPECT_NEAR(i.zero_share.low, 0.47, 1e-12);
  EXPECT_NEAR(i.zero_share.high, 0.55, 1e-12);
  EXPECT_NEAR(p.zero_share, 0.52, 1e-12);
  EXPECT_NEAR(i.sd_ns.high, period / 2, 1e-6);  // the ends give 0.4975 T and 0.4991 T
  EXPECT_NEAR(i.sd_ns.low, period * std::sqrt(0.45 * 0.55), 1e-6);
  EXPECT_EQ(i.sd_ns.estimate, p.sd_ns);
  EXPECT_NEAR(i.mean_ns.low, 0.45 * period, 1e-6);

  // Just below the maximum on one side: the SD's interval is its ends, the top excluded.
  const TickPredictionIntervals below =
      PredictTickIntervals(d, p, Interval(0.48 * period, 0.46 * period, 0.49 * period));
  EXPECT_NEAR(below.sd_ns.high, period * std::sqrt(0.49 * 0.51), 1e-6);
  EXPECT_LT(below.sd_ns.high, period / 2);
}

// d within [0.95 T, 1.05 T] around a whole tick: the SD reaches 0 inside, f saturates at 1.
TEST(TickTheoryTest, PredictionIntervalReachesZeroSdAtAWholeTick) {
  const double period = 1e7;
  const std::vector<double> d(100, 0.98 * period);
  const TickPrediction p = PredictTickReadings(d, period);
  ASSERT_EQ(p.n, 0);
  const TickPredictionIntervals i =
      PredictTickIntervals(d, p, Interval(0.98 * period, 0.95 * period, 1.05 * period));
  EXPECT_NEAR(i.sd_ns.low, 0, 1e-6);
  EXPECT_NEAR(i.sd_ns.high, period * std::sqrt(0.05 * 0.95), 1e-3);
  EXPECT_NEAR(i.f.low, 0.95, 1e-12);
  EXPECT_EQ(i.f.high, 1);
  EXPECT_EQ(i.zero_share.low, 0);
  EXPECT_NEAR(i.zero_share.high, 0.05, 1e-12);
  EXPECT_FALSE(PredictTickIntervals(d, p, ConfidenceInterval()).sd_ns.valid);
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

}  // namespace
}  // namespace tickbench::timing
