#include "analysis/models/synthetic_sweep.h"

#include <cmath>

#include "gtest/gtest.h"

namespace tickbench::analysis {
namespace {

TEST(NormalSourceTest, SameSeedSameSequence) {
  NormalSource a(42), b(42), c(43);
  for (int i = 0; i < 10; ++i) {
    const double x = a.Next();
    EXPECT_EQ(x, b.Next());
    EXPECT_NE(x, c.Next());
  }
}

TEST(NormalSourceTest, StandardMoments) {
  NormalSource normal(7);
  constexpr int kCount = 200000;
  double sum = 0, sum_squares = 0;
  int beyond_three = 0;
  for (int i = 0; i < kCount; ++i) {
    const double z = normal.Next();
    sum += z;
    sum_squares += z * z;
    beyond_three += std::fabs(z) > 3;
  }
  // Standard errors: mean 1/sqrt(2e5) = 0.0022, variance sqrt(2/2e5) = 0.0032; P(|z| > 3) is
  // 0.27 %, 540 ± 23 of 2e5.
  EXPECT_NEAR(sum / kCount, 0, 0.011);
  EXPECT_NEAR(sum_squares / kCount, 1, 0.016);
  EXPECT_NEAR(beyond_three, 540, 120);
}

TEST(MakeSweepTest, RunsAndNoiseAsAsked) {
  const Sweep clean = MakeSweep(
      {32, 64}, [](double n) { return 1000 + n; }, {}, 1);
  ASSERT_EQ(clean.points.size(), 2u);
  EXPECT_EQ(clean.points[1].values, (std::vector<double>{1064}));
  NoiseSpec noise;
  noise.relative_sd = 0.01;
  noise.runs = 4;
  const Sweep noisy = MakeSweep(
      {32, 64}, [](double n) { return 1000 + n; }, noise, 1);
  EXPECT_EQ(noisy.points[0].values.size(), 4u);
  EXPECT_NE(noisy.points[0].values[0], 1032);
  EXPECT_NEAR(noisy.points[0].values[0], 1032, 1032 * 0.05);
}

TEST(SizesTest, GridsHaveTheDocumentedLengths) {
  EXPECT_EQ(EvenSizes(32, 8192, 32).size(), 256u);
  EXPECT_EQ(EvenSizes(50, 2000, 50).size(), 40u);
  EXPECT_EQ(EvenSizes(50, 2000, 50).back(), 2000);
  EXPECT_EQ(ClassicTableSizes().size(), 11u);
}

}  // namespace
}  // namespace tickbench::analysis
