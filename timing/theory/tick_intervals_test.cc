// The contract of timing/theory/tick_intervals.h, clause by clause.
#include "timing/theory/tick_intervals.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "timing/stats/confidence.h"

namespace tickbench::timing {
namespace {

constexpr double kPeriod = 1e7;  // T = 10 ms

// Back-to-back readings of `count` intervals of `d` ns by a tick of kPeriod at a random
// phase: each reading ends where the next starts (they tile time).
std::vector<double> TiledReadings(double d, int count, std::mt19937_64& random) {
  std::uniform_real_distribution<double> phase(0, kPeriod);
  double t = phase(random);
  std::vector<double> readings;
  for (int i = 0; i < count; ++i) {
    readings.push_back(kPeriod * (std::floor((t + d) / kPeriod) - std::floor(t / kPeriod)));
    t += d;
  }
  return readings;
}

TEST(TickIntervalsTest, PredictedFiguresOfAFixedDurationAreTheBernoulli) {
  const std::vector<double> d(100, 1.3 * kPeriod);  // n = 1, f = 0.3
  const TickFigures p = PredictTickFigures(d, kPeriod, 1);
  EXPECT_NEAR(p.share, 0.3, 1e-12);
  EXPECT_EQ(p.zero_share, 0);
  EXPECT_NEAR(p.sd_ns, kPeriod * std::sqrt(0.3 * 0.7), 1e-3);
  // Moved by a tenth of a tick: f = 0.4.
  EXPECT_NEAR(PredictTickFigures(d, kPeriod, 1, 0.1 * kPeriod).share, 0.4, 1e-12);
}

TEST(TickIntervalsTest, ObservedFiguresCountTicks) {
  const std::vector<double> readings = {0, 0, kPeriod, 0, 2 * kPeriod};
  const TickFigures o = ObserveTickFigures(readings, kPeriod, 0);
  EXPECT_DOUBLE_EQ(o.share, 0.4);
  EXPECT_DOUBLE_EQ(o.zero_share, 0.6);
  EXPECT_NEAR(o.sd_ns, kPeriod * 0.8, 1e-6);  // population SD of 0, 0, 1, 0, 2
}

// Like with like: the observed SD is a population SD, as the prediction is. Readings of 0
// and 1 tick half and half (a round trip of T/2) have the SD T/2 that the theory predicts,
// never above it (a sample SD, divisor N - 1, put it above T/2 and outside an interval as
// narrow as such readings give: "DISAGREES" in every such cell).
TEST(TickIntervalsTest, ObservedSdIsThePopulationSdAsPredicted) {
  std::vector<double> readings;
  for (int i = 0; i < 400; ++i) readings.push_back(i % 2 == 0 ? 0 : kPeriod);
  const std::vector<double> truth(400, kPeriod / 2);
  const std::vector<int64_t> groups = {100, 100, 100, 100};
  EXPECT_DOUBLE_EQ(ObserveTickFigures(readings, kPeriod, 0).sd_ns, kPeriod / 2);
  EXPECT_DOUBLE_EQ(PredictTickFigures(truth, kPeriod, 0).sd_ns, kPeriod / 2);
  const TickFigureIntervals observed = ObservedTickIntervals(readings, groups, kPeriod, 0);
  EXPECT_TRUE(observed.sd_ns.Contains(kPeriod / 2))
      << observed.sd_ns.low << " " << observed.sd_ns.high;
}

TEST(TickIntervalsTest, GroupsAreTheRunsSplitToAtLeastFour) {
  EXPECT_EQ(TickGroupSizes({}), std::vector<int64_t>{});
  EXPECT_EQ(TickGroupSizes({1000}), (std::vector<int64_t>{250, 250, 250, 250}));
  EXPECT_EQ(TickGroupSizes({10, 11}), (std::vector<int64_t>{5, 5, 5, 6}));
  EXPECT_EQ(TickGroupSizes({7, 7, 7, 7, 7}), (std::vector<int64_t>{7, 7, 7, 7, 7}));
  EXPECT_EQ(TickGroupSizes({3}), (std::vector<int64_t>{1, 1, 1}));
}

TEST(TickIntervalsTest, FewerThanTwoGroupsGiveNoInterval) {
  const std::vector<double> readings(10, kPeriod);
  EXPECT_FALSE(ObservedTickIntervals(readings, {10}, kPeriod, 0).share.valid);
  EXPECT_FALSE(PredictedTickIntervals(readings, {10}, kPeriod, 0, 1).sd_ns.valid);
}

// Tiled readings: each run's share errs by about one reading, not sqrt(N) of them. The
// groups' interval holds the truth and is far narrower than Clopper-Pearson's, which
// treats the 4000 readings as independent.
TEST(TickIntervalsTest, TiledReadingsGetAnIntervalAsNarrowAsTheirError) {
  std::mt19937_64 random(7);
  std::vector<double> readings;
  for (int run = 0; run < 4; ++run) {
    const std::vector<double> r = TiledReadings(0.3 * kPeriod, 1000, random);
    readings.insert(readings.end(), r.begin(), r.end());
  }
  const TickFigureIntervals i =
      ObservedTickIntervals(readings, {1000, 1000, 1000, 1000}, kPeriod, 0);
  ASSERT_TRUE(i.share.valid);
  EXPECT_TRUE(i.share.Contains(0.3)) << i.share.low << " " << i.share.high;
  EXPECT_TRUE(i.zero_share.Contains(0.7)) << i.zero_share.low << " " << i.zero_share.high;
  EXPECT_TRUE(i.sd_ns.Contains(kPeriod * std::sqrt(0.21)));
  const int64_t above = std::llround(i.share.estimate * 4000);
  EXPECT_LT(i.share.half_width(), ProportionInterval(above, 4000).half_width() / 5);
}

// Groups that read the same figure still get an interval: the floor of their grid.
TEST(TickIntervalsTest, IdenticalGroupsGetTheirQuantizationFloor) {
  std::vector<double> readings;
  for (int g = 0; g < 4; ++g) {
    for (int i = 0; i < 10; ++i) readings.push_back(i < 3 ? kPeriod : 0);  // 3 of 10 above
  }
  const TickFigureIntervals i = ObservedTickIntervals(readings, {10, 10, 10, 10}, kPeriod, 0);
  ASSERT_TRUE(i.share.valid);
  EXPECT_DOUBLE_EQ(i.share.estimate, 0.3);
  EXPECT_GT(i.share.half_width(), 0);
  EXPECT_TRUE(i.share.floored);
  EXPECT_GT(i.sd_ns.half_width(), 0);
}

// A 2-tick reading in thousands of 0s and 1s: the SD's interval holds the SD at the ends of
// the exact binomial interval of its count, and where none was read but a duration reaches 2
// ticks, the SD with up to about 3 / N of them; a count no duration reaches adds nothing.
TEST(TickIntervalsTest, RareTickCountsWidenTheSdWhereDurationsReachThem) {
  std::vector<double> readings;
  for (int i = 0; i < 4000; ++i) readings.push_back(i % 2 == 0 ? kPeriod : 0);
  const std::vector<int64_t> groups = {1000, 1000, 1000, 1000};
  const std::vector<double> short_trips(4000, 0.49 * kPeriod);
  std::vector<double> one_long = short_trips;
  one_long[17] = 1.2 * kPeriod;
  const TickFigureIntervals none =
      ObservedTickIntervals(readings, groups, kPeriod, 0, kConfidence95, short_trips);
  const TickFigureIntervals reach =
      ObservedTickIntervals(readings, groups, kPeriod, 0, kConfidence95, one_long);
  ASSERT_TRUE(none.sd_ns.valid && reach.sd_ns.valid);
  // Every group's SD is T/2: the floor of its grid, far below what a 2-tick share of 3 / N adds.
  EXPECT_LT(none.sd_ns.high, 0.5005 * kPeriod);
  // SD with a share p of 2 ticks taken from the 0s: sqrt(1/4 + 2 p - 4 p^2) T, p about 3.7 / 4000.
  const double p = ProportionInterval(0, 4000).high;
  EXPECT_NEAR(reach.sd_ns.high, kPeriod * std::sqrt(0.25 + 2 * p - 4 * p * p), 1e-6 * kPeriod);
  EXPECT_DOUBLE_EQ(reach.sd_ns.estimate, none.sd_ns.estimate);

  // One 2-tick reading read: its count's binomial interval, with or without durations.
  readings[0] = 2 * kPeriod;
  const TickFigureIntervals one = ObservedTickIntervals(readings, groups, kPeriod, 0);
  const double q = ProportionInterval(1, 4000).high;
  EXPECT_GT(one.sd_ns.high, kPeriod * std::sqrt(0.25 + 2 * q - 4 * q * q) - 1e-3 * kPeriod);
}

// The predicted interval holds the prediction at durations a reference resolution away,
// and comes from the groups' spread: durations that vary from group to group widen it.
TEST(TickIntervalsTest, PredictionHoldsTheReferenceResolutionAndTheGroupsSpread) {
  const std::vector<double> fixed(400, 0.48 * kPeriod);
  const std::vector<int64_t> groups = {100, 100, 100, 100};
  const TickFigureIntervals exact = PredictedTickIntervals(fixed, groups, kPeriod, 0, 0);
  EXPECT_EQ(exact.share.half_width(), 0);  // every group predicts the same
  const TickFigureIntervals coarse =
      PredictedTickIntervals(fixed, groups, kPeriod, 0, 0.05 * kPeriod);
  EXPECT_NEAR(coarse.share.low, 0.43, 1e-12);
  EXPECT_NEAR(coarse.share.high, 0.53, 1e-12);
  EXPECT_NEAR(coarse.zero_share.high, 0.57, 1e-12);
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> jitter(0, kPeriod);
  std::vector<double> varied;
  for (int i = 0; i < 400; ++i) varied.push_back(2 * kPeriod + jitter(random));
  const TickFigureIntervals spread = PredictedTickIntervals(varied, groups, kPeriod, 2, 0);
  EXPECT_GT(spread.sd_ns.half_width(), 0);
  EXPECT_TRUE(spread.sd_ns.Contains(kPeriod / 2)) << spread.sd_ns.low << " " << spread.sd_ns.high;
}

// Durations that vary but never fell below T in these trips predict a zero share of 0 in
// every group; it is rare, not known to be 0: the interval holds the exact binomial bound of
// none in 400. A fixed d predicts exactly.
TEST(TickIntervalsTest, ARarePredictedShareThatDidNotComeUpIsNotAPoint) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> length(1.5 * kPeriod, 3.5 * kPeriod);
  std::vector<double> varied;
  for (int i = 0; i < 400; ++i) varied.push_back(length(random));
  const std::vector<int64_t> groups = {100, 100, 100, 100};
  const TickFigureIntervals rare = PredictedTickIntervals(varied, groups, kPeriod, 2, 0);
  EXPECT_EQ(rare.zero_share.estimate, 0);
  EXPECT_NEAR(rare.zero_share.high, 1 - std::pow(0.025, 1.0 / 400), 1e-6);
  const std::vector<double> fixed(400, 2.5 * kPeriod);
  EXPECT_EQ(PredictedTickIntervals(fixed, groups, kPeriod, 2, 0).zero_share.high, 0);
}

}  // namespace
}  // namespace tickbench::timing
