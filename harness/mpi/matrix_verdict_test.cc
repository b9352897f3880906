#include "harness/mpi/matrix_verdict.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/mpi/matrix_test_cells.h"

namespace tickbench::harness {
namespace {

// Three ranks: 1 -> 2 far the slowest, 2 -> 0 failed; four runs of +-100 ns each.
Matrix ThreeRanks() {
  Matrix matrix = EmptyMatrix("mpi", "rdtsc", 64, {"alpha", "alpha", "beta"});
  const struct {
    int client, server;
    double rtt_ns;
  } kMeasured[] = {{0, 1, 3000}, {0, 2, 50000}, {1, 0, 3100}, {1, 2, 90000}, {2, 1, 49000}};
  for (const auto& m : kMeasured) matrix.at(m.client, m.server) = FourRuns(m.rtt_ns, 100);
  matrix.at(2, 0).status = PairStatus::kFailed;
  return matrix;
}

TEST(MatrixVerdictTest, CellIntervalGivesBackTheStandardErrorOfTheRuns) {
  const MatrixCell cell = CellOfRuns({1000, 1100, 1200, 1300});
  const timing::ConfidenceInterval ci = CellInterval(cell);
  ASSERT_TRUE(ci.valid);
  EXPECT_DOUBLE_EQ(ci.estimate, 1150);
  EXPECT_EQ(ci.degrees_of_freedom, 3);
  // The sample SD of 1000..1300 in steps of 100 is sqrt(50000/3); over sqrt(4).
  EXPECT_NEAR(ci.standard_error, std::sqrt(50000.0 / 3) / 2, 1e-9);
  EXPECT_FALSE(CellInterval(CellOfRuns({1000})).valid);
  EXPECT_FALSE(CellInterval(MatrixCell{}).valid);
}

TEST(MatrixVerdictTest, FastestPairIsTheMeasuredOneOfTheLowestRtt) {
  const std::optional<RankPair> fastest = FastestPair(ThreeRanks());
  ASSERT_TRUE(fastest.has_value());
  EXPECT_EQ(fastest->client, 0);
  EXPECT_EQ(fastest->server, 1);
  EXPECT_FALSE(FastestPair(EmptyMatrix("mpi", "rdtsc", 64, {"a", "b"})).has_value());
}

TEST(MatrixVerdictTest, TheSlowestIsDistinctWhenEveryTestRejects) {
  const SlowestVerdict verdict = TestSlowestPair(ThreeRanks());
  ASSERT_TRUE(verdict.tested) << verdict.why_untested;
  EXPECT_TRUE(verdict.distinct);
  EXPECT_EQ(verdict.slowest.client, 1);
  EXPECT_EQ(verdict.slowest.server, 2);
  // The closest is the runner-up, 0 -> 2, and its p-value is tiny.
  EXPECT_EQ(verdict.closest.client, 0);
  EXPECT_EQ(verdict.closest.server, 2);
  EXPECT_LT(verdict.p_value, 1e-4);
}

TEST(MatrixVerdictTest, ASlowestWithinNoiseOfAnotherIsNotDistinct) {
  Matrix matrix = ThreeRanks();
  matrix.at(1, 0) = FourRuns(89950, 100);  // 50 ns under the slowest, spread +-100
  const SlowestVerdict verdict = TestSlowestPair(matrix);
  ASSERT_TRUE(verdict.tested);
  EXPECT_FALSE(verdict.distinct);
  EXPECT_EQ(verdict.closest.client, 1);
  EXPECT_EQ(verdict.closest.server, 0);
  EXPECT_GT(verdict.p_value, 0.05);
}

// A cell of a wide interval below the runner-up: the slowest beats the runner-up but not
// it, so it is not distinct from every other pair.
TEST(MatrixVerdictTest, EveryOtherPairIsTestedNotOnlyTheRunnerUp) {
  Matrix matrix = ThreeRanks();
  matrix.at(0, 1) = FourRuns(45000, 44000);  // runs from 1 to 89 us
  const SlowestVerdict verdict = TestSlowestPair(matrix);
  ASSERT_TRUE(verdict.tested);
  EXPECT_FALSE(verdict.distinct);
  EXPECT_EQ(verdict.closest.client, 0);
  EXPECT_EQ(verdict.closest.server, 1);
}

TEST(MatrixVerdictTest, NoVerdictWithOnePairMeasuredOrACellOfOneRun) {
  Matrix two = EmptyMatrix("mpi", "rdtsc", 64, {"a", "b"});
  two.at(0, 1) = FourRuns(3000, 100);
  EXPECT_FALSE(TestSlowestPair(two).tested);
  EXPECT_EQ(TestSlowestPair(two).why_untested, "fewer than two pairs were measured");
  two.at(1, 0) = CellOfRuns({3000});
  const SlowestVerdict one_run = TestSlowestPair(two);
  EXPECT_FALSE(one_run.tested);
  EXPECT_FALSE(one_run.distinct);
  EXPECT_TRUE(absl::StrContains(one_run.why_untested, "1->0 (b -> a) has one valid run"))
      << one_run.why_untested;
}

// How often a matrix of `ranks` ranks, every pair alike (runs normal around 10 us, SD
// 0.5 us), is called distinct; `shift_sd` raises pair 0->1's true RTT by that many SDs.
double DistinctShare(int ranks, int runs, double shift_sd, int trials, std::mt19937_64& rng) {
  std::normal_distribution<double> run_rtt(10000, 500);
  int distinct = 0;
  for (int t = 0; t < trials; ++t) {
    Matrix matrix = EmptyMatrix("mpi", "rdtsc", 64, std::vector<std::string>(ranks, "h"));
    for (int c = 0; c < ranks; ++c) {
      for (int s = 0; s < ranks; ++s) {
        if (c == s) continue;
        std::vector<double> rtts(runs);
        for (double& rtt : rtts) rtt = run_rtt(rng) + (c == 0 && s == 1 ? shift_sd * 500 : 0);
        matrix.at(c, s) = CellOfRuns(rtts);
      }
    }
    distinct += TestSlowestPair(matrix).distinct ? 1 : 0;
  }
  return static_cast<double>(distinct) / trials;
}

// The promise of the header: with every pair alike, at most 5% of matrices are called
// distinct (within 3 binomial SEs of the simulation), though the slowest is chosen after
// the fact; and a pair truly slower by 10 run SDs is found nearly always.
TEST(MatrixVerdictTest, WithEveryPairAlikeAtMostFivePercentOfMatricesAreCalledDistinct) {
  std::mt19937_64 rng(20240611);
  constexpr int kTrials = 2000;
  const double three_se = 3 * std::sqrt(0.05 * 0.95 / kTrials);
  for (int ranks : {2, 3, 4}) {
    for (int runs : {2, 4, 8}) {
      SCOPED_TRACE(absl::StrCat(ranks, " ranks, ", runs, " runs"));
      EXPECT_LE(DistinctShare(ranks, runs, 0, kTrials, rng), 0.05 + three_se);
    }
    EXPECT_GE(DistinctShare(ranks, 4, 10, 500, rng), 0.95) << ranks << " ranks";
  }
}

}  // namespace
}  // namespace tickbench::harness
