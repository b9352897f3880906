#include "analysis/fits/least_squares.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace tickbench::analysis {
namespace {

TEST(WeightedLeastSquaresTest, RecoversAnExactLine) {
  std::vector<double> x, y;
  for (int i = 0; i < 10; ++i) {
    x.push_back(64.0 * (i + 1));
    y.push_back(20000 + 2.5 * x.back());
  }
  absl::StatusOr<LeastSquaresFit> fit =
      WeightedLeastSquares({std::vector<double>(10, 1), x}, y, std::vector<double>(10, 1));
  ASSERT_TRUE(fit.ok()) << fit.status();
  EXPECT_NEAR(fit->coefficients[0], 20000, 1e-7);
  EXPECT_NEAR(fit->coefficients[1], 2.5, 1e-11);
  EXPECT_NEAR(fit->weighted_rss, 0, 1e-12);
}

TEST(WeightedLeastSquaresTest, CovarianceOfTheMeanAndWeightedRss) {
  // One column of ones with weights w: the estimate is the weighted mean, its variance
  // 1/Σw, and the RSS Σ w (y − mean)².
  const std::vector<double> y = {1, 2, 4};
  const std::vector<double> w = {1, 2, 1};
  absl::StatusOr<LeastSquaresFit> fit = WeightedLeastSquares({{1, 1, 1}}, y, w);
  ASSERT_TRUE(fit.ok()) << fit.status();
  EXPECT_NEAR(fit->coefficients[0], 9.0 / 4.0, 1e-12);
  EXPECT_NEAR(fit->covariance[0], 0.25, 1e-12);
  EXPECT_NEAR(fit->weighted_rss, 1.5625 + 2 * 0.0625 + 3.0625, 1e-12);
}

TEST(WeightedLeastSquaresTest, LineCovarianceMatchesTheTextbook) {
  // Unit weights: Var(slope) = 1/Sxx, Var(intercept) = 1/n + x̄²/Sxx.
  const std::vector<double> x = {1, 2, 3, 4};
  absl::StatusOr<LeastSquaresFit> fit =
      WeightedLeastSquares({{1, 1, 1, 1}, x}, {2, 4, 5, 8}, {1, 1, 1, 1});
  ASSERT_TRUE(fit.ok()) << fit.status();
  EXPECT_NEAR(fit->covariance[3], 1 / 5.0, 1e-12);
  EXPECT_NEAR(fit->covariance[0], 0.25 + 2.5 * 2.5 / 5.0, 1e-12);
  EXPECT_NEAR(fit->coefficients[1], 1.9, 1e-12);
}

TEST(WeightedLeastSquaresTest, ConditioningOfLargeSizes) {
  // Sizes to 65536 next to a constant column: condition number ~1e5.
  std::vector<double> ones, x, staircase, y;
  for (int i = 1; i <= 2048; ++i) {
    ones.push_back(1);
    x.push_back(32.0 * i);
    staircase.push_back(std::ceil(x.back() / 1500));
    y.push_back(1e5 + 3 * x.back() + 700 * staircase.back());
  }
  absl::StatusOr<LeastSquaresFit> fit =
      WeightedLeastSquares({ones, x, staircase}, y, std::vector<double>(x.size(), 1));
  ASSERT_TRUE(fit.ok()) << fit.status();
  EXPECT_NEAR(fit->coefficients[0], 1e5, 1e-5);
  EXPECT_NEAR(fit->coefficients[1], 3, 1e-10);
  EXPECT_NEAR(fit->coefficients[2], 700, 1e-6);
}

TEST(WeightedLeastSquaresTest, DependentColumnsAreRefused) {
  // ceil(n/32) on a 32-byte grid is n/32: a combination of the other columns.
  std::vector<double> ones, x, chunks, y;
  for (int i = 1; i <= 100; ++i) {
    ones.push_back(1);
    x.push_back(32.0 * i);
    chunks.push_back(std::ceil(x.back() / 32));
    y.push_back(i);
  }
  EXPECT_EQ(WeightedLeastSquares({ones, x, chunks}, y, ones).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(WeightedLeastSquares({ones, ones}, y, ones).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(WeightedLeastSquaresTest, BadShapesAndWeights) {
  EXPECT_EQ(WeightedLeastSquares({}, {1}, {1}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(WeightedLeastSquares({{1, 1}}, {1, 2}, {1}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(WeightedLeastSquares({{1, 1}, {1, 2}, {3, 4}}, {1, 2}, {1, 1}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(WeightedLeastSquares({{1, 1}}, {1, 2}, {1, 0}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(WeightedLeastSquares({{1, 1}, {1}}, {1, 2}, {1, 1}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tickbench::analysis
