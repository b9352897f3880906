// The contract of analysis/fits/cross_validation.h, clause by clause.
#include "analysis/fits/cross_validation.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "analysis/fits/model_fit.h"
#include "analysis/models/buffer_models.h"
#include "analysis/models/synthetic_sweep.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::analysis {
namespace {

// The classic UNIX-socket machine: 4.3BSD buffers (C = 1024, t = 512, s = 112), 1.5 ms
// fixed, 250 ns a byte, 150 µs a cluster, 75 µs a small buffer (each way: the
// simulation's costs, tests/closed_loop/classic_tables_test.cc).
double ClassicRtt(double n) {
  BufferModel bsd;
  bsd.family = ModelFamily::kBsdSocket;
  bsd.cluster_bytes = 1024;
  bsd.threshold_bytes = 512;
  bsd.small_bytes = 112;
  const std::vector<std::vector<double>> c = DesignColumns(bsd, {n});
  return 1.5e6 + 250 * n + 150e3 * c[2][0] + 75e3 * c[3][0];
}

Sweep ClassicTable(double relative_sd, uint64_t seed) {
  NoiseSpec noise;
  noise.relative_sd = relative_sd;
  return MakeSweep(ClassicTableSizes(), ClassicRtt, noise, seed);
}

TEST(CrossValidationTest, ElevenSizesAreLeftOutOneAtATime) {
  absl::StatusOr<CrossValidation> cv =
      CrossValidate(ClassicTable(0, 1), ModelFamily::kBsdSocket, {});
  ASSERT_TRUE(cv.ok()) << cv.status();
  EXPECT_TRUE(cv->leave_one_out);
  EXPECT_EQ(cv->folds, 11);
  EXPECT_EQ(cv->interpolation.predicted, 11);
  EXPECT_EQ(cv->line.predicted, 11);
}

TEST(CrossValidationTest, ManySizesAreSplitIntoMaxFoldsFolds) {
  NoiseSpec noise;
  const Sweep sweep = MakeSweep(
      EvenSizes(100, 4000, 100), [](double n) { return 1e5 + 10 * n; }, noise, 1);
  absl::StatusOr<CrossValidation> cv = CrossValidate(sweep, ModelFamily::kLinear, {}, 7);
  ASSERT_TRUE(cv.ok()) << cv.status();
  EXPECT_FALSE(cv->leave_one_out);
  EXPECT_EQ(cv->folds, 7);
  EXPECT_EQ(cv->line.predicted, 40);  // every size predicted once
  // An exact line: the refitted line and the interpolation predict every size exactly.
  EXPECT_LT(cv->line.rms_relative, 1e-9);
  EXPECT_LT(cv->interpolation.rms_relative, 1e-9);
}

// The interpolation draws through the nearest kept sizes: on a parabola it is off by
// exactly what the chord misses, hand-computed here for the first and an inner size.
TEST(CrossValidationTest, InterpolationUsesTheNeighboursAndExtrapolatesAtTheEnds) {
  NoiseSpec noise;
  const std::vector<double> sizes = {1, 2, 3, 4, 5, 6, 7, 8};
  const Sweep sweep = MakeSweep(
      sizes, [](double n) { return 100 + n * n; }, noise, 1);
  absl::StatusOr<CrossValidation> cv = CrossValidate(sweep, ModelFamily::kLinear, {});
  ASSERT_TRUE(cv.ok()) << cv.status();
  // Inner size n: (n-1)² and (n+1)² average to n² + 1, error 1. Size 1: extrapolated from
  // 2 and 3 (104, 109) to 99, error -2; size 8: from 6 and 7 (136, 149) to 162, error -2.
  double squared = 0;
  for (double n : sizes) {
    const double error = (n == 1 || n == 8) ? 2 : 1;
    squared += (error / (100 + n * n)) * (error / (100 + n * n));
  }
  EXPECT_NEAR(cv->interpolation.rms_relative, std::sqrt(squared / 8), 1e-12);
  EXPECT_NEAR(cv->interpolation.rms, std::sqrt((6 * 1.0 + 2 * 4.0) / 8), 1e-12);
}

// The done-when of the classic table: the BSD layout, refitted without each size (its
// sizes searched again), predicts the left-out size better than the straight line and the
// interpolation, with and without 1% noise.
TEST(CrossValidationTest, ClassicTableLayoutPredictsLeftOutSizes) {
  int beats = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    absl::StatusOr<CrossValidation> cv =
        CrossValidate(ClassicTable(seed == 1 ? 0 : 0.01, seed), ModelFamily::kBsdSocket, {});
    ASSERT_TRUE(cv.ok()) << cv.status();
    if (seed == 1) {
      EXPECT_TRUE(cv->beats_line_and_interpolation) << FormatCrossValidation(*cv);
    }
    beats += cv->beats_line_and_interpolation;
  }
  EXPECT_GE(beats, 9);
}

// On a straight line with noise, a layout searched among hundreds of candidates fits the
// noise: refitted without each size it predicts that size no better than the line (in at
// least 9 of 10 noisy tables), so the comparison can say no.
TEST(CrossValidationTest, LayoutFittedToNoiseDoesNotBeatTheLine) {
  int beats = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    NoiseSpec noise;
    noise.relative_sd = 0.01;
    const Sweep sweep = MakeSweep(
        ClassicTableSizes(), [](double n) { return 1.5e6 + 700 * n; }, noise, seed);
    absl::StatusOr<CrossValidation> cv = CrossValidate(sweep, ModelFamily::kBsdSocket, {});
    ASSERT_TRUE(cv.ok()) << cv.status();
    beats += cv->beats_line_and_interpolation;
  }
  EXPECT_LE(beats, 1);
}

// The ranking's "explains" stands only where the out-of-sample check agrees.
TEST(CrossValidationTest, ExplanationStandsOnlyWhereItPredictsBetter) {
  absl::StatusOr<ModelComparison> fits = FitBufferModels(ClassicTable(0, 1));
  ASSERT_TRUE(fits.ok()) << fits.status();
  ASSERT_EQ(fits->best, ModelFamily::kBsdSocket);
  ASSERT_THAT(fits->verdict, ::testing::HasSubstr("explains the sweep"));
  CrossValidation cv;
  cv.family = ModelFamily::kBsdSocket;
  cv.explanation.rms_relative = 0.01;
  cv.line.rms_relative = 0.10;
  cv.interpolation.rms_relative = 0.08;
  cv.beats_line_and_interpolation = true;
  ModelComparison confirmed = *fits;
  EXPECT_TRUE(ConfirmOutOfSample(cv, confirmed));
  EXPECT_EQ(confirmed.verdict, fits->verdict);

  cv.explanation.rms_relative = 0.09;  // better than the line, worse than the interpolation
  cv.beats_line_and_interpolation = false;
  ModelComparison refuted = *fits;
  EXPECT_FALSE(ConfirmOutOfSample(cv, refuted));
  EXPECT_THAT(refuted.verdict, ::testing::HasSubstr("is not called the explanation"));
  EXPECT_THAT(refuted.verdict, ::testing::HasSubstr("no better than the interpolation"));
  EXPECT_THAT(refuted.verdict, ::testing::Not(::testing::HasSubstr("explains the sweep")));

  cv.explanation.rms_relative = 0.2;  // worse than both: the line is named
  ModelComparison worse = *fits;
  EXPECT_FALSE(ConfirmOutOfSample(cv, worse));
  EXPECT_THAT(worse.verdict, ::testing::HasSubstr("no better than the straight line"));
}

// Where the ranking itself does not say "explains", nothing is confirmed or changed.
TEST(CrossValidationTest, NoExplanationNothingToConfirm) {
  NoiseSpec noise;
  const Sweep line = MakeSweep(
      ClassicTableSizes(), [](double n) { return 1e6 + 500 * n; }, noise, 1);
  absl::StatusOr<ModelComparison> fits = FitBufferModels(line);
  ASSERT_TRUE(fits.ok()) << fits.status();
  CrossValidation cv;
  cv.family = fits->best;
  cv.beats_line_and_interpolation = true;
  ModelComparison copy = *fits;
  EXPECT_FALSE(ConfirmOutOfSample(cv, copy));
  EXPECT_EQ(copy.verdict, fits->verdict);
}

TEST(CrossValidationTest, FewerThanEightSizesAreRefused) {
  NoiseSpec noise;
  const Sweep sweep = MakeSweep(
      {1, 2, 3, 4, 5, 6, 7}, [](double n) { return n; }, noise, 1);
  EXPECT_EQ(CrossValidate(sweep, ModelFamily::kLinear, {}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(CrossValidationTest, FormatNamesTheSchemeAndEachError) {
  absl::StatusOr<CrossValidation> cv =
      CrossValidate(ClassicTable(0, 1), ModelFamily::kBsdSocket, {});
  ASSERT_TRUE(cv.ok()) << cv.status();
  const std::string text = FormatCrossValidation(*cv);
  EXPECT_THAT(text, ::testing::HasSubstr("leave-one-out error (11 sizes)"));
  EXPECT_THAT(text, ::testing::HasSubstr("straight line"));
  EXPECT_THAT(text, ::testing::HasSubstr("interpolation of the neighbours"));
  EXPECT_THAT(text, ::testing::HasSubstr("the whole ranking rerun"));
}

}  // namespace
}  // namespace tickbench::analysis
