#include "timing/stats/confidence.h"

#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace tickbench::timing {
namespace {

TEST(ConfidenceTest, IncompleteBetaMatchesClosedForms) {
  // I_x(2, 3) = sum_{j=2}^{4} C(4, j) x^j (1 - x)^(4 - j): 11/16 at 1/2.
  EXPECT_NEAR(RegularizedIncompleteBeta(2, 3, 0.5), 0.6875, 1e-14);
  // I_x(1, 1) = x; I_x(a, 1) = x^a.
  EXPECT_NEAR(RegularizedIncompleteBeta(1, 1, 0.3), 0.3, 1e-14);
  EXPECT_NEAR(RegularizedIncompleteBeta(4.5, 1, 0.8), std::pow(0.8, 4.5), 1e-13);
  EXPECT_EQ(RegularizedIncompleteBeta(2, 3, 0), 0);
  EXPECT_EQ(RegularizedIncompleteBeta(2, 3, 1), 1);
  EXPECT_TRUE(std::isnan(RegularizedIncompleteBeta(0, 3, 0.5)));
}

TEST(ConfidenceTest, NormalQuantileMatchesTables) {
  EXPECT_NEAR(NormalQuantile(0.975), 1.959963984540054, 1e-13);
  EXPECT_NEAR(NormalQuantile(0.999), 3.090232306167813, 1e-12);
  EXPECT_NEAR(NormalQuantile(1e-10), -6.361340902404056, 1e-10);
  EXPECT_EQ(NormalQuantile(0.5), 0);
  EXPECT_TRUE(std::isinf(NormalQuantile(1)));
  EXPECT_TRUE(std::isnan(NormalQuantile(1.5)));
}

TEST(ConfidenceTest, StudentTQuantileMatchesTables) {
  // Reference values from R's qt().
  struct Case {
    double p, df, t;
  };
  const Case cases[] = {
      {0.975, 1, 12.7062047361747},    {0.975, 2, 4.30265272974946},  {0.975, 3, 3.18244630528371},
      {0.975, 4, 2.77644510519779},    {0.975, 9, 2.2621571627982},   {0.975, 19, 2.09302405440831},
      {0.975, 30, 2.04227245630124},   {0.995, 5, 4.03214298355523},  {0.95, 10, 1.81246112281168},
      {0.975, 1000, 1.96233908082641}, {0.025, 4, -2.77644510519779}, {0.9995, 3, 12.9239786367866},
  };
  for (const Case& c : cases) {
    EXPECT_NEAR(StudentTQuantile(c.p, c.df), c.t, 1e-9 * std::abs(c.t)) << c.p << " " << c.df;
    EXPECT_NEAR(StudentTCdf(c.t, c.df), c.p, 1e-12) << c.p << " " << c.df;
  }
  // Fractional degrees of freedom (Welch) invert their own CDF.
  for (double df : {1.5, 2.7, 7.5, 55.25}) {
    for (double p : {0.6, 0.9, 0.975, 0.999}) {
      EXPECT_NEAR(StudentTCdf(StudentTQuantile(p, df), df), p, 1e-12) << df << " " << p;
    }
  }
  EXPECT_NEAR(StudentTQuantile(0.975, std::numeric_limits<double>::infinity()), 1.959963984540054,
              1e-13);
  EXPECT_TRUE(std::isnan(StudentTQuantile(0.975, 0)));
  EXPECT_TRUE(std::isnan(StudentTQuantile(1, 5)));
}

TEST(ConfidenceTest, TIntervalAndFloor) {
  const ConfidenceInterval ci = AcrossRunsInterval(std::vector<double>{10, 12, 14, 16});
  // mean 13, sd sqrt(20/3), se = sd / 2, t(0.975, 3) = 3.182.
  const double se = std::sqrt(20.0 / 3) / 2;
  EXPECT_DOUBLE_EQ(ci.estimate, 13);
  EXPECT_NEAR(ci.low, 13 - 3.18244630528371 * se, 1e-9);
  EXPECT_NEAR(ci.high, 13 + 3.18244630528371 * se, 1e-9);
  EXPECT_FALSE(ci.floored);
  EXPECT_TRUE(ci.Contains(13));
  EXPECT_TRUE(ci.Excludes(20));

  // Identical runs: without a floor the interval is a point, with one it is not.
  const std::vector<double> same = {5, 5, 5, 5};
  EXPECT_EQ(AcrossRunsInterval(same).half_width(), 0);
  const ConfidenceInterval floored = AcrossRunsInterval(same, 1.0);
  EXPECT_TRUE(floored.floored);
  EXPECT_NEAR(floored.half_width(), 3.18244630528371 * 0.5, 1e-9);
  EXPECT_FALSE(AcrossRunsInterval(std::vector<double>{5}).valid);
  EXPECT_TRUE(AcrossRunsInterval(std::vector<double>{5}, 1.0).valid);
}

TEST(ConfidenceTest, QuantizedSdFloorIsTheUnseenShare) {
  EXPECT_DOUBLE_EQ(QuantizedSdFloor(1, 1), 0.5);  // capped at f = 1/2
  const double f20 = 1 - std::pow(0.05, 1.0 / 20);
  EXPECT_NEAR(QuantizedSdFloor(2, 20), 2 * std::sqrt(f20 * (1 - f20)), 1e-12);
  EXPECT_LT(QuantizedSdFloor(1, 1000), QuantizedSdFloor(1, 20));
  EXPECT_EQ(QuantizedSdFloor(0, 20), 0);
}

TEST(ConfidenceTest, BatchMeansCoverIndependentData) {
  std::mt19937_64 random(7);
  std::normal_distribution<double> normal(3, 2);
  int covered = 0;
  const int trials = 2000;
  for (int trial = 0; trial < trials; ++trial) {
    std::vector<double> series(400);
    for (double& v : series) v = normal(random);
    if (BatchMeansInterval(series).Contains(3)) ++covered;
  }
  // 95% +- 3 binomial SE (1.5%).
  EXPECT_NEAR(covered / static_cast<double>(trials), 0.95, 3 * std::sqrt(0.95 * 0.05 / trials));
}

TEST(ConfidenceTest, BatchMeansWidenForPositiveCorrelation) {
  // AR(1) with rho = 0.9: the naive SE is sqrt((1 - rho) / (1 + rho)) = 0.23 of the true
  // one; batches of 500 catch the correlation and keep the coverage.
  std::mt19937_64 random(11);
  std::normal_distribution<double> normal(0, 1);
  int covered = 0, naive_covered = 0;
  const int trials = 600;
  for (int trial = 0; trial < trials; ++trial) {
    std::vector<double> series(10000);
    double x = normal(random) / std::sqrt(1 - 0.81);
    for (double& v : series) v = x = 0.9 * x + normal(random);
    if (BatchMeansInterval(series).Contains(0)) ++covered;
    if (BatchMeansInterval(series, 0, 10000).Contains(0)) ++naive_covered;  // batches of 1
  }
  EXPECT_GT(covered, 0.91 * trials);
  EXPECT_LT(naive_covered, 0.6 * trials);
}

TEST(ConfidenceTest, BatchMeansOfTiledTickReadingsAreNeverTooNarrow) {
  // Back-to-back readings of a 1-unit tick: their errors telescope. Batch means are
  // conservative there (each batch still carries its two endpoint errors).
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> uniform(0, 1);
  int covered = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const double d = 0.37, phase = uniform(random);
    std::vector<double> readings(1000);
    for (size_t i = 0; i < readings.size(); ++i) {
      const double start = phase + i * d;
      readings[i] = std::floor(start + d) - std::floor(start);
    }
    if (BatchMeansInterval(readings).Contains(d)) ++covered;
  }
  EXPECT_EQ(covered, 500);
}

TEST(ConfidenceTest, QuantileIntervalUsesBinomialRanks) {
  std::vector<double> values;
  for (int i = 1; i <= 100; ++i) values.push_back(i);
  const ConfidenceInterval median = QuantileInterval(values, 0.5);
  // The classic 95% ranks for the median of 100: the 40th and the 61st value.
  EXPECT_EQ(median.low, 40);
  EXPECT_EQ(median.high, 61);
  EXPECT_DOUBLE_EQ(median.estimate, 50.5);
  // Too few values for 95% at p99: the interval runs to the extremes.
  const ConfidenceInterval p99 = QuantileInterval(values, 0.99);
  EXPECT_EQ(p99.high, 100);
  EXPECT_GE(p99.low, 95);
  EXPECT_LE(p99.low, 98);

  // Coverage of the true median of an exponential distribution, log 2.
  std::mt19937_64 random(5);
  std::exponential_distribution<double> exponential(1);
  int covered = 0;
  const int trials = 2000;
  for (int trial = 0; trial < trials; ++trial) {
    std::vector<double> sample(200);
    for (double& v : sample) v = exponential(random);
    if (QuantileInterval(sample, 0.5).Contains(std::log(2.0))) ++covered;
  }
  // Discrete ranks: at least 95% (minus 3 SE), at most the ranks' exact level plus 3 SE.
  EXPECT_GE(covered, (0.95 - 3 * std::sqrt(0.95 * 0.05 / trials)) * trials);
  EXPECT_LE(covered, 0.975 * trials);
}

// The SD's chi-square interval against tabulated quantiles: chi2(0.025, 10) = 3.2470,
// chi2(0.975, 10) = 20.4832; chi2(0.025, 99) = 73.361, chi2(0.975, 99) = 128.422.
TEST(ConfidenceTest, SdIntervalUsesChiSquareQuantiles) {
  const ConfidenceInterval ten = SdInterval(2.0, 10);
  ASSERT_TRUE(ten.valid);
  EXPECT_EQ(ten.estimate, 2.0);
  EXPECT_NEAR(ten.low, 2.0 * std::sqrt(10 / 20.4832), 0.01 * ten.low);
  EXPECT_NEAR(ten.high, 2.0 * std::sqrt(10 / 3.2470), 0.01 * ten.high);
  const ConfidenceInterval many = SdInterval(1.0, 99);
  EXPECT_NEAR(many.low, std::sqrt(99 / 128.422), 1e-3);
  EXPECT_NEAR(many.high, std::sqrt(99 / 73.361), 1e-3);
  EXPECT_GT(many.low, ten.low / 2);  // narrower with more degrees of freedom
  EXPECT_LT(many.high - many.low, (ten.high - ten.low) / 2);
  EXPECT_EQ(SdInterval(0, 5).high, 0);
  EXPECT_FALSE(SdInterval(1, 0).valid);
  EXPECT_FALSE(SdInterval(-1, 5).valid);
}

// The floor raises the upper end only: identical readings (SD 0) get [0, floor].
TEST(ConfidenceTest, SdIntervalWithFloorFoldsInTheQuantization) {
  const ConfidenceInterval zero = SdIntervalWithFloor(0, 19, 3.0);
  ASSERT_TRUE(zero.valid);
  EXPECT_EQ(zero.estimate, 0);
  EXPECT_EQ(zero.low, 0);
  EXPECT_EQ(zero.high, 3.0);
  EXPECT_TRUE(zero.floored);
  const ConfidenceInterval wide = SdIntervalWithFloor(10, 19, 3.0);
  const ConfidenceInterval plain = SdInterval(10, 19);
  EXPECT_EQ(wide.low, plain.low);
  EXPECT_EQ(wide.high, plain.high);
  EXPECT_FALSE(wide.floored);
  const ConfidenceInterval between = SdIntervalWithFloor(1, 19, 3.0);
  EXPECT_EQ(between.low, SdInterval(1, 19).low);
  EXPECT_EQ(between.high, 3.0);
  EXPECT_GE(between.low, 0);
  EXPECT_FALSE(SdIntervalWithFloor(1, 0, 3.0).valid);
}

// Clopper-Pearson bounds against their closed forms at the edges (0 of n: upper
// 1 - (alpha/2)^(1/n); n of n: lower (alpha/2)^(1/n)) and a tabulated 5 of 10.
TEST(ConfidenceTest, ProportionIntervalIsClopperPearson) {
  const ConfidenceInterval none = ProportionInterval(0, 10);
  ASSERT_TRUE(none.valid);
  EXPECT_EQ(none.estimate, 0);
  EXPECT_EQ(none.low, 0);
  EXPECT_NEAR(none.high, 1 - std::pow(0.025, 0.1), 1e-9);  // 0.30850
  const ConfidenceInterval all = ProportionInterval(10, 10);
  EXPECT_NEAR(all.low, std::pow(0.025, 0.1), 1e-9);  // 0.69150
  EXPECT_EQ(all.high, 1);
  const ConfidenceInterval half = ProportionInterval(5, 10);
  EXPECT_EQ(half.estimate, 0.5);
  EXPECT_NEAR(half.low, 0.187086, 1e-6);
  EXPECT_NEAR(half.high, 0.812914, 1e-6);
  // By the beta-binomial identity, P(B >= k | p = low) = alpha/2 at the lower bound.
  const ConfidenceInterval c = ProportionInterval(37, 200);
  EXPECT_NEAR(RegularizedIncompleteBeta(37, 164, c.low), 0.025, 1e-9);
  EXPECT_NEAR(1 - RegularizedIncompleteBeta(38, 163, c.high), 0.025, 1e-9);
  EXPECT_FALSE(ProportionInterval(0, 0).valid);
  EXPECT_FALSE(ProportionInterval(11, 10).valid);
  EXPECT_FALSE(ProportionInterval(-1, 10).valid);
}

TEST(ConfidenceTest, DifferenceUsesWelch) {
  ConfidenceInterval a, b;
  a.valid = b.valid = true;
  a.estimate = 10;
  b.estimate = 7;
  a.standard_error = b.standard_error = 1;
  a.degrees_of_freedom = b.degrees_of_freedom = 9;
  const ConfidenceInterval d = DifferenceInterval(a, b);
  EXPECT_DOUBLE_EQ(d.estimate, 3);
  EXPECT_NEAR(d.degrees_of_freedom, 18, 1e-9);
  EXPECT_NEAR(d.half_width(), std::sqrt(2.0) * StudentTQuantile(0.975, 18), 1e-9);
  EXPECT_TRUE(d.Excludes(0));
  b.valid = false;
  EXPECT_FALSE(DifferenceInterval(a, b).valid);
}

// The p-value and the interval are the same test: at the 95% interval's edge p is 5%.
TEST(ConfidenceTest, TwoSidedPValueIsFivePercentWhereTheIntervalTouchesZero) {
  ConfidenceInterval a = TInterval(10, 2, 4), b = TInterval(8, 3, 5);
  const ConfidenceInterval d = DifferenceInterval(a, b);
  const double edge = d.estimate - d.low;  // t_{0.975, df} SE
  ConfidenceInterval at_edge = d;
  at_edge.estimate = edge;
  EXPECT_NEAR(TwoSidedPValue(at_edge), 0.05, 1e-9);
  at_edge.estimate = -edge;  // two-sided: the sign does not matter
  EXPECT_NEAR(TwoSidedPValue(at_edge), 0.05, 1e-9);
  at_edge.estimate = edge * 1.5;
  EXPECT_LT(TwoSidedPValue(at_edge), 0.05);
  at_edge.estimate = edge * 0.5;
  EXPECT_GT(TwoSidedPValue(at_edge), 0.05);
  ConfidenceInterval exact;
  exact.valid = true;
  EXPECT_EQ(TwoSidedPValue(exact), 1);
  exact.estimate = 3;
  EXPECT_EQ(TwoSidedPValue(exact), 0);
  EXPECT_TRUE(std::isnan(TwoSidedPValue(ConfidenceInterval{})));
}

TEST(ConfidenceTest, APValueHasTwoSignificantDigitsAndNoExponent) {
  EXPECT_EQ(FormatPValue(0.01234), "0.012");
  EXPECT_EQ(FormatPValue(0.41), "0.41");
  EXPECT_EQ(FormatPValue(0.000123), "0.00012");
  EXPECT_EQ(FormatPValue(0.00003), "<0.0001");
  EXPECT_EQ(PValueWords(0.01234), "p = 0.012");
  EXPECT_EQ(PValueWords(0.00003), "p < 0.0001");
}

TEST(ConfidenceTest, DigitsFollowTheHalfWidth) {
  EXPECT_EQ(FormatWithHalfWidth(20000, 4400), "20000 ± 4400");
  EXPECT_EQ(FormatWithHalfWidth(12.3456, 0.0234), "12.346 ± 0.023");
  EXPECT_EQ(FormatWithHalfWidth(-17.792, 109.6), "-20 ± 110");
  EXPECT_EQ(FormatRounded(1234.5678, 0.9), "1234.57");
  EXPECT_EQ(FormatRounded(-0.001, 1), "0.0");
  EXPECT_EQ(FormatRounded(932071410799.9, 0), "932071000000");  // 6 digits without an interval
  EXPECT_DOUBLE_EQ(RoundToInterval(19876.5, 1234), 19900);
  EXPECT_EQ(DecimalsForHalfWidth(0.0024), 4);
  EXPECT_EQ(DecimalsForHalfWidth(4400), -2);
}

// Issue: "truth us 1300.00000000" (an exact simulated truth, 1 ns grid) and "28.00 - ?" for
// a figure on a 4 us grid; the grid's leading digit is the finest a figure carries.
TEST(ConfidenceTest, AFigureCarriesTheDigitsOfItsIntervalNeverFinerThanItsGrid) {
  EXPECT_EQ(FormatFigure(1300.0, 0, 0.001), "1300.000");        // exact, read to 1 ns (in us)
  EXPECT_EQ(FormatFigure(28.0, 0, 4), "28");                    // no interval, a 4 us grid
  EXPECT_EQ(FormatFigure(28.0, 0.1, 4), "28");                  // the grid is coarser
  EXPECT_EQ(FormatFigure(20.002, 0.000022, 0.001), "20.002");   // interval finer than the grid
  EXPECT_EQ(FormatFigure(1234.5678, 0.9), "1234.57");           // the interval alone
  EXPECT_EQ(FormatFigure(1234.5678, 0.9, 0.00001), "1234.57");  // interval coarser than grid
  EXPECT_EQ(FormatFigure(932071410799.9, 0), "932071000000");   // neither: 6 digits
  EXPECT_EQ(FormatFigure(14260, 1300), "14300");                // tens of a wide interval
  EXPECT_EQ(FigureDecimals(5, 0, 0.001), 3);
  EXPECT_EQ(FormatDecimals(-0.0004, 3), "0.000");
  // A column shares the most decimals any of its figures carries.
  EXPECT_EQ(ColumnDecimals({4, 2, 3}), 4);
  EXPECT_EQ(FormatDecimals(17.3, ColumnDecimals({3, 2})), "17.300");
}

TEST(ConfidenceTest, APositiveQuantitysIntervalIsClippedAtZero) {
  ConfidenceInterval ci;
  ci.estimate = 28.7686;
  ci.low = -1.41903;
  ci.high = 58.9561;
  ci.valid = true;
  const ConfidenceInterval clipped = ClippedAtZero(ci);
  EXPECT_EQ(clipped.low, 0);
  EXPECT_EQ(clipped.high, ci.high);
  EXPECT_EQ(clipped.estimate, ci.estimate);
}

// A positive quantity's interval on the log scale: positive, about the estimate, and the
// arithmetic one to first order where it is narrow.
TEST(ConfidenceTest, OnLogScaleStaysPositiveAndMatchesANarrowInterval) {
  const ConfidenceInterval wide = OnLogScale(AcrossRunsInterval({300, 4000, 4200}));
  ASSERT_TRUE(wide.valid);
  EXPECT_LT(AcrossRunsInterval({300, 4000, 4200}).low, 0);
  EXPECT_GT(wide.low, 0);
  EXPECT_NEAR(wide.low * wide.high, wide.estimate * wide.estimate, 1e-6 * wide.high * wide.high);
  const ConfidenceInterval narrow = AcrossRunsInterval({1000, 1001, 999, 1000.5});
  const ConfidenceInterval log = OnLogScale(narrow);
  // Apart by the second-order term, h^2 / (2 x): a thousandth of the half-width here.
  const double second_order = narrow.half_width() * narrow.half_width() / narrow.estimate;
  EXPECT_NEAR(log.low, narrow.low, second_order);
  EXPECT_NEAR(log.high, narrow.high, second_order);
  EXPECT_FALSE(OnLogScale(ConfidenceInterval()).valid);
}

}  // namespace
}  // namespace tickbench::timing
