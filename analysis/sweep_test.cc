#include "analysis/sweep.h"

#include <cmath>
#include <limits>
#include <string>

#include "gtest/gtest.h"

namespace tickbench::analysis {
namespace {

Sweep TwoPoints() {
  Sweep sweep;
  sweep.points = {{32, {100, 110}}, {64, {120}}};
  return sweep;
}

TEST(ValidateSweepTest, AcceptsIncreasingSizesWithValues) {
  EXPECT_TRUE(ValidateSweep(TwoPoints()).ok());
  EXPECT_TRUE(ValidateSweep(Sweep{}).ok());
}

TEST(ValidateSweepTest, RejectsUnsortedOrRepeatedSizes) {
  Sweep sweep = TwoPoints();
  sweep.points[1].size_bytes = 32;
  EXPECT_EQ(ValidateSweep(sweep).code(), absl::StatusCode::kInvalidArgument);
  sweep.points[1].size_bytes = 16;
  EXPECT_EQ(ValidateSweep(sweep).code(), absl::StatusCode::kInvalidArgument);
}

TEST(ValidateSweepTest, RejectsMissingAndNonFiniteValues) {
  Sweep sweep = TwoPoints();
  sweep.points[1].values.clear();
  EXPECT_EQ(ValidateSweep(sweep).code(), absl::StatusCode::kInvalidArgument);
  sweep = TwoPoints();
  sweep.points[0].values[1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(ValidateSweep(sweep).code(), absl::StatusCode::kInvalidArgument);
  sweep = TwoPoints();
  sweep.points[0].size_bytes = -1;
  EXPECT_EQ(ValidateSweep(sweep).code(), absl::StatusCode::kInvalidArgument);
}

TEST(ValidateSweepTest, RefusesValuesOutsideTheAnalysisRangeNamingIt) {
  for (const double value : {1e-200, -1e-21, 1e21, -1e300}) {
    Sweep sweep = TwoPoints();
    sweep.points[1].values[0] = value;
    const absl::Status status = ValidateSweep(sweep);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << value;
    EXPECT_NE(status.message().find("0 or a magnitude from 1e-20 to 1e+20"), std::string::npos)
        << status;
  }
  for (const double value : {0.0, 1e-20, -1e-20, 1e20, -1e20}) {
    Sweep sweep = TwoPoints();
    sweep.points[1].values[0] = value;
    EXPECT_TRUE(ValidateSweep(sweep).ok()) << value;
  }
}

TEST(ValidateSweepTest, RefusesSizesPastTheTransportsLargestMessage) {
  Sweep sweep = TwoPoints();
  sweep.points[1].size_bytes = kMaxSweepSizeBytes;
  EXPECT_TRUE(ValidateSweep(sweep).ok());
  sweep.points[1].size_bytes = kMaxSweepSizeBytes + 1;
  EXPECT_EQ(ValidateSweep(sweep).code(), absl::StatusCode::kInvalidArgument);
  sweep.points[1].size_bytes = 0x1p62;
  EXPECT_EQ(ValidateSweep(sweep).code(), absl::StatusCode::kInvalidArgument);
}

TEST(ValidateSweepTest, RefusesAQuantumOrResolutionThatWouldOverflowAVariance) {
  Sweep sweep = TwoPoints();
  sweep.points[0].quantum = 1e300;
  EXPECT_EQ(ValidateSweep(sweep).code(), absl::StatusCode::kInvalidArgument);
  sweep = TwoPoints();
  sweep.points[0].resolution = -1;
  EXPECT_EQ(ValidateSweep(sweep).code(), absl::StatusCode::kInvalidArgument);
}

TEST(PointStatisticsTest, MeanAndUnbiasedVariance) {
  const SweepPoint point{64, {1, 2, 3, 4}};
  EXPECT_DOUBLE_EQ(PointMean(point), 2.5);
  EXPECT_DOUBLE_EQ(PointVariance(point), 5.0 / 3.0);
  EXPECT_EQ(PointVariance(SweepPoint{64, {7}}), 0);
}

TEST(PointStatisticsTest, VarianceSurvivesALargeOffset) {
  // Values 1e9 + {1, 2, 3}: the one-pass formula would lose every digit of the answer 1.
  const SweepPoint point{64, {1e9 + 1, 1e9 + 2, 1e9 + 3}};
  EXPECT_NEAR(PointVariance(point), 1.0, 1e-6);
}

TEST(SweepColumnsTest, SizesAndMeansAreParallel) {
  const Sweep sweep = TwoPoints();
  EXPECT_EQ(Sizes(sweep), (std::vector<double>{32, 64}));
  EXPECT_EQ(Means(sweep), (std::vector<double>{105, 120}));
}

}  // namespace
}  // namespace tickbench::analysis
