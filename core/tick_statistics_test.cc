#include "core/tick_statistics.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace tickbench::core {
namespace {

constexpr double kT = 10e6;  // 10 ms

TEST(TickStatisticsTest, ZeroShareIsOneMinusDOverT) {
  EXPECT_DOUBLE_EQ(TickZeroShare(744e3, kT), 1 - 744e3 / kT);  // 0.9256
  EXPECT_DOUBLE_EQ(TickZeroShare(100e3, 20e6), 0.995);
  EXPECT_EQ(TickZeroShare(0, kT), 1);
  EXPECT_EQ(TickZeroShare(-5, kT), 1);
  EXPECT_EQ(TickZeroShare(kT, kT), 0);
  EXPECT_EQ(TickZeroShare(3 * kT, kT), 0);
}

TEST(TickStatisticsTest, SingleReadingIsBernoulliScaledByT) {
  const TickReading half = PredictTickReading(2.5 * kT, kT);
  EXPECT_EQ(half.n, 2);
  EXPECT_DOUBLE_EQ(half.f, 0.5);
  EXPECT_DOUBLE_EQ(half.mean_ns, 2.5 * kT);
  EXPECT_DOUBLE_EQ(half.sd_ns, kT / 2);  // the largest SD: T/2 at f = 1/2
  const TickReading quarter = PredictTickReading(0.25 * kT, kT);
  EXPECT_EQ(quarter.n, 0);
  EXPECT_DOUBLE_EQ(quarter.sd_ns, kT * std::sqrt(0.25 * 0.75));
  EXPECT_EQ(TickReadingSd(3 * kT, kT), 0);  // a whole number of ticks reads exactly
}

TEST(TickStatisticsTest, AveragedBoundIsTOverN) {
  EXPECT_DOUBLE_EQ(AveragedBound(20e6, 1000), 20e3);  // 20 ms over 1000 trips: 20 us
  EXPECT_DOUBLE_EQ(AveragedBound(kT, 1), kT);
}

TEST(TickStatisticsTest, MixtureOfEqualLengthsIsTheSingleReading) {
  const std::vector<double> d(100, 0.3 * kT);
  const TickMixture m = PredictTickMixture(d.data(), d.size(), kT);
  EXPECT_EQ(m.count, 100);
  EXPECT_EQ(m.n, 0);
  EXPECT_NEAR(m.f, 0.3, 1e-12);
  EXPECT_NEAR(m.zero_share, 0.7, 1e-12);
  EXPECT_NEAR(m.mean_ns, 0.3 * kT, 1e-3);
  EXPECT_NEAR(m.sd_ns, kT * std::sqrt(0.21), 1e-3);
  EXPECT_NEAR(m.share_standard_error, std::sqrt(100 * 0.21) / 100, 1e-12);
}

TEST(TickStatisticsTest, MixtureOfTwoLengths) {
  // Half the intervals 0.2 T, half 1.6 T: mean 0.9 T, n = 0. Above 0 ticks: 0.2 for the
  // short ones, always for the long ones; zero: 0.8 for the short ones, never for the long.
  std::vector<double> d;
  for (int i = 0; i < 50; ++i) {
    d.push_back(0.2 * kT);
    d.push_back(1.6 * kT);
  }
  const TickMixture m = PredictTickMixture(d.data(), d.size(), kT);
  EXPECT_EQ(m.n, 0);
  EXPECT_NEAR(m.f, (0.2 + 1.0) / 2, 1e-12);
  EXPECT_NEAR(m.zero_share, 0.8 / 2, 1e-12);
  EXPECT_NEAR(m.mean_ns, 0.9 * kT, 1e-3);
  // E[R^2] = mean of (T^2 f(1-f) + d^2); Var = E[R^2] - mean^2.
  const double second = (kT * kT * 0.16 + 0.04 * kT * kT + kT * kT * 0.24 + 2.56 * kT * kT) / 2;
  EXPECT_NEAR(m.sd_ns, std::sqrt(second - 0.81 * kT * kT), 1e-3);
}

TEST(TickStatisticsTest, EmptyMixture) {
  const TickMixture m = PredictTickMixture(nullptr, 0, kT);
  EXPECT_EQ(m.count, 0);
  EXPECT_EQ(m.period_ns, kT);
  EXPECT_EQ(m.mean_ns, 0);
}

}  // namespace
}  // namespace tickbench::core
