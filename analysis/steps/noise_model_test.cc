#include "analysis/steps/noise_model.h"

#include <cmath>

#include "analysis/models/synthetic_sweep.h"
#include "gtest/gtest.h"

namespace tickbench::analysis {
namespace {

double Line(double n) { return 20000 + 5 * n; }

// The estimated SD of one run at `index`, against the truth.
double SdRatio(const Sweep& sweep, const NoiseModel& model, size_t index, double true_sd) {
  const double runs = static_cast<double>(sweep.points[index].values.size());
  return std::sqrt(model.mean_variance[index] * runs) / true_sd;
}

TEST(EstimateNoiseTest, RunSpreadWithConstantNoise) {
  NoiseSpec noise;
  noise.absolute_sd = 200;
  noise.runs = 4;
  const Sweep sweep = MakeSweep(EvenSizes(32, 8192, 32), Line, noise, 11);
  absl::StatusOr<NoiseModel> model = EstimateNoise(sweep);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->source, NoiseModel::Source::kRunSpread);
  EXPECT_DOUBLE_EQ(model->degrees_of_freedom, 256 * 3);
  EXPECT_LE(model->proportional_fraction, 0.2);
  // 768 degrees of freedom: the SD is known to ±2.6 % (1 SE).
  EXPECT_NEAR(SdRatio(sweep, *model, 0, 200), 1, 0.1);
  EXPECT_NEAR(SdRatio(sweep, *model, 255, 200), 1, 0.1);
}

TEST(EstimateNoiseTest, RunSpreadWithProportionalNoise) {
  NoiseSpec noise;
  noise.relative_sd = 0.01;
  noise.runs = 4;
  const Sweep sweep = MakeSweep(EvenSizes(32, 8192, 32), Line, noise, 12);
  absl::StatusOr<NoiseModel> model = EstimateNoise(sweep);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_GE(model->proportional_fraction, 0.8);
  // The values grow 3x across the sweep, and so does the noise.
  EXPECT_NEAR(SdRatio(sweep, *model, 0, 0.01 * Line(32)), 1, 0.15);
  EXPECT_NEAR(SdRatio(sweep, *model, 255, 0.01 * Line(8192)), 1, 0.15);
}

TEST(EstimateNoiseTest, NeighbourScatterOfSingleValues) {
  NoiseSpec noise;
  noise.relative_sd = 0.01;
  const Sweep sweep = MakeSweep(EvenSizes(32, 8192, 32), Line, noise, 13);
  absl::StatusOr<NoiseModel> model = EstimateNoise(sweep);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->source, NoiseModel::Source::kNeighbourScatter);
  EXPECT_NEAR(model->degrees_of_freedom, kScatterDfPerResidual * 254, 1e-9);
  // ~63 degrees of freedom: ±9 % (1 SE) on the SD.
  EXPECT_NEAR(SdRatio(sweep, *model, 128, 0.01 * Line(sweep.points[128].size_bytes)), 1, 0.3);
}

TEST(EstimateNoiseTest, NeighbourScatterIgnoresAJump) {
  NoiseSpec noise;
  noise.absolute_sd = 100;
  auto with_jump = [](double n) { return Line(n) + (n > 4096 ? 5000 : 0); };  // 50 SD
  const Sweep sweep = MakeSweep(EvenSizes(32, 8192, 32), with_jump, noise, 14);
  absl::StatusOr<NoiseModel> model = EstimateNoise(sweep);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_NEAR(SdRatio(sweep, *model, 10, 100), 1, 0.3);
}

TEST(EstimateNoiseTest, UnevenSizesOfAStraightLineHaveNoScatter) {
  // Pseudo-residuals use the interpolation weights of uneven sizes, so a noiseless line
  // leaves only the 1e-6 floor.
  const Sweep sweep = MakeSweep(ClassicTableSizes(), Line, {}, 1);
  absl::StatusOr<NoiseModel> model = EstimateNoise(sweep);
  ASSERT_TRUE(model.ok()) << model.status();
  for (size_t i = 0; i < sweep.points.size(); ++i) {
    EXPECT_LE(std::sqrt(model->mean_variance[i]), 2e-6 * Line(4096)) << i;
    EXPECT_GT(model->mean_variance[i], 0);
  }
}

TEST(EstimateNoiseTest, NeedsRunsOrThreeSizes) {
  Sweep sweep;
  sweep.points = {{32, {1}}, {64, {2}}};
  EXPECT_EQ(EstimateNoise(sweep).status().code(), absl::StatusCode::kInvalidArgument);
  sweep.points[0].values = {1, 1.1};
  EXPECT_TRUE(EstimateNoise(sweep).ok());
  sweep.points[0].size_bytes = 64;
  EXPECT_EQ(EstimateNoise(sweep).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(EstimateNoiseTest, IdenticalQuantizedRunsWeighAsTheQuantum) {
  // A 20 ms tick over N = 20 round trips: every run reads a multiple of q = 1 ms, and the
  // 4 runs of each size read the same one. The spread is 0; the weights are q²/6 per run.
  const double q = 1e6;
  Sweep sweep;
  for (int i = 0; i < 11; ++i) {
    SweepPoint point;
    point.size_bytes = 64.0 * (i + 1);
    const double value = q * std::round((2.3e6 + 1e5 * i) / q);
    point.values.assign(4, value);
    sweep.points.push_back(point);
  }
  absl::StatusOr<NoiseModel> unknown = EstimateNoise(sweep);
  ASSERT_TRUE(unknown.ok());
  EXPECT_LT(unknown->mean_variance[0], 1e-6 * q * q);  // without the quantum: near exact
  EXPECT_EQ(unknown->quantization_floored, 0);
  for (SweepPoint& point : sweep.points) point.quantum = q;
  absl::StatusOr<NoiseModel> known = EstimateNoise(sweep);
  ASSERT_TRUE(known.ok());
  EXPECT_EQ(known->quantization_floored, 11);
  for (double variance : known->mean_variance) EXPECT_DOUBLE_EQ(variance, q * q / 6 / 4);
}

TEST(EstimateNoiseTest, QuantizationFloorLeavesLargerNoiseAlone) {
  NoiseSpec noise;
  noise.absolute_sd = 200;
  noise.runs = 4;
  Sweep sweep = MakeSweep(EvenSizes(32, 8192, 32), Line, noise, 11);
  for (SweepPoint& point : sweep.points) point.quantum = 20;  // q²/6 = 67 ns², SD 8 ns
  absl::StatusOr<NoiseModel> model = EstimateNoise(sweep);
  ASSERT_TRUE(model.ok());
  EXPECT_EQ(model->quantization_floored, 0);
  EXPECT_NEAR(SdRatio(sweep, *model, 0, 200), 1, 0.1);
}

TEST(EstimateNoiseTest, PrintedResolutionFloorsEachPointAtItsOwnRounding) {
  // One value per size on an exact line: the scatter is ~0, so each point's variance is its
  // rounding's r²/3, larger at the sizes written with fewer digits, and counted as such.
  Sweep sweep;
  for (int i = 0; i < 11; ++i) {
    SweepPoint point;
    point.size_bytes = 64.0 * (i + 1);
    point.values = {Line(point.size_bytes)};
    point.resolution = i < 3 ? 50 : 0.5;
    point.quantum = i == 10 ? 1000 : 0;  // q²/6 beats r²/3 here: the quantum's floor
    sweep.points.push_back(point);
  }
  absl::StatusOr<NoiseModel> model = EstimateNoise(sweep);
  ASSERT_TRUE(model.ok());
  EXPECT_EQ(model->resolution_floored, 10);
  EXPECT_EQ(model->quantization_floored, 1);
  EXPECT_DOUBLE_EQ(model->mean_variance[0], 50.0 * 50 / 3);
  EXPECT_DOUBLE_EQ(model->mean_variance[5], 0.5 * 0.5 / 3);
  EXPECT_DOUBLE_EQ(model->mean_variance[10], 1000.0 * 1000 / 6);
}

TEST(ScatterExceedsRunSpreadTest, OneSidedOnePercentFTest) {
  // F(36, 120) has its 99th percentile near 1.8.
  EXPECT_FALSE(ScatterExceedsRunSpread(36, 36, 120));
  EXPECT_FALSE(ScatterExceedsRunSpread(1.6 * 36, 36, 120));
  EXPECT_TRUE(ScatterExceedsRunSpread(2.0 * 36, 36, 120));
  // 7 residual and 33 run degrees of freedom (11 sizes of 4 runs): about 3.3, not χ²'s 2.6.
  EXPECT_FALSE(ScatterExceedsRunSpread(3.0 * 7, 7, 33));
  EXPECT_TRUE(ScatterExceedsRunSpread(3.5 * 7, 7, 33));
  // Two run degrees of freedom say too little about the noise to reject anything.
  EXPECT_FALSE(ScatterExceedsRunSpread(1000, 7, 2));
  EXPECT_FALSE(ScatterExceedsRunSpread(10, 0, 33));
}

}  // namespace
}  // namespace tickbench::analysis
