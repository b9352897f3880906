// The aggregation of runs made to order, without a transport: the averaged figure's bound
// term by term, the rate, the bias test's words against its numbers, the disturbed
// intervals' threshold.
#include "harness/study/study_aggregate.h"

#include <cmath>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

// One run whose pairs and readings are given: the clock reads the loop `error_ns` long
// per trip, the pairs have brackets of `bracket_ns` at each end.
StudyRunData ConstructedRun(double truth_per_trip, double error_per_trip, double bracket_ns,
                            int64_t n, double rate_ppm = 0) {
  StudyRunData run;
  run.iterations = n;
  run.start_before_ns = 1000;
  run.start_after_ns = 1000 + bracket_ns;
  run.start_clock_ns = 5e8 + 1000;
  run.stop_before_ns = run.start_before_ns + n * truth_per_trip;
  run.stop_after_ns = run.stop_before_ns + bracket_ns;
  run.stop_clock_ns = run.start_clock_ns + n * (truth_per_trip + error_per_trip);
  run.end_before_ns = run.start_before_ns + 3 * n * truth_per_trip;
  run.end_after_ns = run.end_before_ns + bracket_ns;
  run.end_clock_ns = run.start_clock_ns + 3 * n * truth_per_trip * (1 + 1e-6 * rate_ppm);
  for (int64_t i = 0; i < n; ++i) {
    run.readings_ns.push_back(truth_per_trip + (i % 2 == 0 ? 10 : -10));
    run.true_ns.push_back(truth_per_trip);
  }
  return run;
}

TEST(StudyAggregateTest, BoundStatesEveryTermAndBreaksPlainly) {
  StudyCell cell;
  cell.clock = "clock_gettime:monotonic";
  cell.iterations = 1000;
  cell.resolution_ns = 20;
  // Error 0.05 ns per trip = 50 ns over the loop; T = 20, reference 1 ns, no bracket:
  // bound 21 ns over the loop. Broken, and said so.
  AggregateStudyRuns({ConstructedRun(1e4, 0.05, 0, 1000)}, 1, cell);
  EXPECT_FALSE(cell.averaged_within_bound);
  EXPECT_DOUBLE_EQ(cell.averaged_bound_ns, 0.02);
  EXPECT_DOUBLE_EQ(cell.reference_bound_ns, 0.001);
  EXPECT_NEAR(cell.worst_run_bound_ratio, 50.0 / 21, 1e-6);
  std::string summary = SummarizeCell(cell);
  EXPECT_NE(summary.find("BEYOND its bound (bound 0.021 ns = T/N 0.020 + pairing 0 + reference "
                         "0.0010 + rate 0)"),
            std::string::npos)
      << summary;
  // The same error with 20 ns brackets at both ends (the clock read anywhere in them):
  // pairing adds 20 ns over the loop, 41 ns in all: still broken; with 40 ns brackets kept.
  StudyCell wider = cell;
  AggregateStudyRuns({ConstructedRun(1e4, 0.05, 20, 1000)}, 1, wider);
  EXPECT_DOUBLE_EQ(wider.pair_skew_ns, 20);
  EXPECT_FALSE(wider.averaged_within_bound);
  StudyCell widest = cell;
  AggregateStudyRuns({ConstructedRun(1e4, 0.05, 40, 1000)}, 1, widest);
  EXPECT_TRUE(widest.averaged_within_bound) << SummarizeCell(widest);
  EXPECT_NE(SummarizeCell(widest).find("within its bound"), std::string::npos);
}

TEST(StudyAggregateTest, ABiasSmallerThanOneReadIsAttributedToTheReadOrder) {
  StudyCell cell;
  cell.clock = "clock_gettime:monotonic";
  cell.iterations = 1000;
  cell.resolution_ns = 1;
  cell.read_cost_ns = 25;
  StudyRunData run = ConstructedRun(1e4, 0, 0, 1000);
  for (double& r : run.readings_ns) r -= 10;  // every reading 10 ns short
  AggregateStudyRuns({run}, 1, cell);
  EXPECT_TRUE(cell.biased);
  const std::string summary = SummarizeCell(cell);
  EXPECT_NE(summary.find("mean biased by -10"), std::string::npos) << summary;
  EXPECT_NE(summary.find("within one read of the clock (25 ns)"), std::string::npos) << summary;
  cell.read_cost_ns = 5;
  EXPECT_EQ(SummarizeCell(cell).find("within one read"), std::string::npos);
}

TEST(StudyAggregateTest, RateIsMeasuredAndEntersTheBoundOnlyBeyondItsOwnBound) {
  StudyCell cell;
  cell.clock = "clock_gettime:monotonic";
  cell.iterations = 100000;
  cell.resolution_ns = 1;
  // 100 ppm fast over 3 x 100000 x 10 us = 3 s: 300 us against a bound of 3 ns / 3 s.
  AggregateStudyRuns({ConstructedRun(1e4, 1e4 * 1e-4, 0, 100000, 100)}, 1, cell);
  EXPECT_NEAR(cell.rate_ppm, 100, 0.01);
  EXPECT_LT(cell.rate_bound_ppm, 0.01);
  EXPECT_GT(cell.rate_shown_ppm, 99.9);
  EXPECT_NEAR(cell.rate_bound_ns, 1.0, 0.01);  // 100 ppm of 10 us
  EXPECT_TRUE(cell.averaged_within_bound) << SummarizeCell(cell);
  // The rate to the digits of its bound (0.00067 ppm here).
  EXPECT_NE(SummarizeCell(cell).find("rate vs reference +100.00000 ± 0.00067 ppm"),
            std::string::npos)
      << SummarizeCell(cell);
}

TEST(StudyAggregateTest, RateIsPrintedToTheDigitsOfItsBound) {
  StudyCell cell;
  cell.clock = "clock_gettime:monotonic";
  cell.iterations = 1000;
  cell.resolution_ns = 44;
  // -0.0098 ppm against a bound of (T 44 + reference 1) / (3 x 1000 x 10 us) = 1.5 ppm.
  AggregateStudyRuns({ConstructedRun(1e4, 0, 0, 1000, -0.0098)}, 1, cell);
  EXPECT_NEAR(cell.rate_ppm, -0.0098, 1e-6);
  EXPECT_NEAR(cell.rate_bound_ppm, 1.5, 1e-9);
  const std::string summary = SummarizeCell(cell);
  EXPECT_NE(summary.find("rate vs reference 0.0 ± 1.5 ppm"), std::string::npos) << summary;
}

// A run of 1000 intervals of 10 us whose readings differ from the reference's by
// `differences` (plus `shift`), with 200 ns brackets (an undisturbed pair may differ by
// 1 + 1 + 2 x 200 ns on a 1 ns clock).
StudyRunData RunWithDifferences(const std::vector<double>& differences, double shift = 0) {
  StudyRunData run = ConstructedRun(1e4, 0, 200, static_cast<int64_t>(differences.size()));
  for (size_t i = 0; i < differences.size(); ++i) {
    run.readings_ns[i] = run.true_ns[i] + differences[i] + shift;
  }
  return run;
}

// Differences spread uniformly over [-100, 100] ns around `mean` (a fixed seed).
std::vector<double> Noise(uint32_t seed, double mean, int count = 1000) {
  std::mt19937 random(seed);
  std::vector<double> out(count);
  for (double& d : out) d = mean + static_cast<double>(random() % 2001) / 10 - 100;
  return out;
}

StudyCell FineCell() {
  StudyCell cell;
  cell.clock = "clock_gettime:monotonic";
  cell.iterations = 1000;
  cell.resolution_ns = 1;
  return cell;
}

StudyCell Aggregate(const std::vector<StudyRunData>& runs) {
  StudyCell cell = FineCell();
  AggregateStudyRuns(runs, 1, cell);
  cell.summary = SummarizeCell(cell);
  return cell;
}

// Decimals printed in a number's text.
int DecimalsOf(const std::string& number) {
  const size_t dot = number.find('.');
  return dot == std::string::npos ? 0 : static_cast<int>(number.size() - dot - 1);
}

// Every interval the bias words print is "<whose> <level>% CI [a, b] excludes|covers 0":
// the relation to 0 of the printed ends is the word's; the level and the ends are those of
// the cell's test intervals (to the printed digits); the verdict word is "biased" exactly
// when the cell is, and then some printed interval excludes 0; the test's error rate is
// stated.
void ExpectBiasWordsMatchTheirNumbers(const StudyCell& c) {
  const std::string& text = c.summary;
  const std::regex interval(
      R"((pooled|its own) ([0-9.]+)% CI \[(-?[0-9.]+), (-?[0-9.]+)\] (excludes|covers) 0)");
  int excluding = 0, covering = 0;
  for (std::sregex_iterator m(text.begin(), text.end(), interval), end; m != end; ++m) {
    const std::string low_text = (*m)[3], high_text = (*m)[4];
    const double low = std::stod(low_text), high = std::stod(high_text);
    const bool excludes = (*m)[5] == "excludes";
    if (excludes) {
      ++excluding;
      EXPECT_TRUE(low > 0 || high < 0) << m->str() << "\n" << text;
    } else {
      ++covering;
      EXPECT_TRUE(low <= 0 && high >= 0) << m->str() << "\n" << text;
    }
    const timing::ConfidenceInterval* ci = &c.bias_test_ci;
    double level = c.bias_test_confidence;
    if ((*m)[1] == "its own") {
      std::smatch run;
      ASSERT_TRUE(std::regex_search(text, run, std::regex(R"(\(run ([0-9]+) by)"))) << text;
      ci = &c.run_bias_cis.at(std::stoi(run[1]) - 1);
      level = c.run_bias_confidence;
    }
    EXPECT_NEAR(std::stod((*m)[2]), 100 * level, 1e-6) << m->str();
    EXPECT_LE(std::abs(low - ci->low), 0.5001 * std::pow(10, -DecimalsOf(low_text))) << m->str();
    EXPECT_LE(std::abs(high - ci->high), 0.5001 * std::pow(10, -DecimalsOf(high_text))) << m->str();
    EXPECT_EQ(excludes, ci->Excludes(0)) << m->str();
  }
  const bool says_biased = text.find("mean biased") != std::string::npos;
  const bool says_unbiased = text.find("no bias shown") != std::string::npos;
  EXPECT_EQ(says_biased, c.biased) << text;
  EXPECT_NE(says_unbiased, c.biased) << text;
  EXPECT_GT(excluding + covering, 0) << text;
  if (c.biased) {
    EXPECT_GT(excluding, 0) << text;
  }
  if (!c.biased) {
    EXPECT_EQ(excluding, 0) << text;
  }
  EXPECT_NE(text.find("at most 5% of unbiased cells are called biased"), std::string::npos) << text;
}

TEST(StudyBiasWordsTest, OneRunBiasedOnItsOwnWhileThePooledIntervalCoversZero) {
  // Run 1 reads 6 ns long every time; runs 2 to 4 scatter over +-100 ns around -2 ns.
  const StudyCell c =
      Aggregate({RunWithDifferences(std::vector<double>(1000, 6)), RunWithDifferences(Noise(2, -2)),
                 RunWithDifferences(Noise(3, -2)), RunWithDifferences(Noise(4, -2))});
  ASSERT_TRUE(c.biased);
  ASSERT_FALSE(c.bias_test_ci.Excludes(0)) << c.summary;
  ASSERT_EQ(c.runs_biased, 1) << c.summary;
  ASSERT_TRUE(c.run_bias_cis[0].Excludes(0));
  EXPECT_NEAR(c.run_bias_confidence, 0.99375, 1e-12);
  ExpectBiasWordsMatchTheirNumbers(c);
  EXPECT_NE(c.summary.find("mean biased in 1 of 4 runs on their own (run 1 by 6.0"),
            std::string::npos)
      << c.summary;
  EXPECT_NE(c.summary.find("its own 99.375% CI ["), std::string::npos) << c.summary;
}

// The pooled interval of noise around 0 shifted by `shift`.
std::vector<StudyRunData> ShiftedNoise(double shift) {
  std::vector<StudyRunData> runs;
  for (uint32_t seed = 11; seed < 15; ++seed)
    runs.push_back(RunWithDifferences(Noise(seed, 0), shift));
  return runs;
}

TEST(StudyBiasWordsTest, PooledIntervalExcludingZeroNarrowlyPrintsTheDigitsThatShowIt) {
  // Shift the same noise until the pooled interval's low end sits 1% of a half-width above
  // 0: at two significant digits of the half-width it would print as 0.
  const StudyCell unshifted = Aggregate(ShiftedNoise(0));
  const timing::ConfidenceInterval& ci = unshifted.bias_test_ci;
  const double h = ci.half_width();
  const StudyCell c = Aggregate(ShiftedNoise(h - ci.estimate + 0.01 * h));
  ASSERT_TRUE(c.bias_test_ci.Excludes(0)) << c.summary;
  ASSERT_GT(c.bias_test_ci.low, 0);
  ASSERT_EQ(timing::RoundToInterval(c.bias_test_ci.low, h), 0);
  ASSERT_TRUE(c.biased);
  ExpectBiasWordsMatchTheirNumbers(c);
  EXPECT_NE(c.summary.find("mean biased by"), std::string::npos) << c.summary;
  EXPECT_NE(c.summary.find("pooled 97.5% CI ["), std::string::npos) << c.summary;
}

TEST(StudyBiasWordsTest, NoBiasWhereThePooledTestCoversZeroAndNoRunIsBiased) {
  // Halfway between the 95% and the 97.5% half-widths: the 95% interval excludes 0, the
  // test's 97.5% one does not, and the words print the one that decided.
  const StudyCell unshifted = Aggregate(ShiftedNoise(0));
  const double h95 = unshifted.bias_ci.half_width(), h975 = unshifted.bias_test_ci.half_width();
  const StudyCell c = Aggregate(ShiftedNoise((h95 + h975) / 2 - unshifted.bias_test_ci.estimate));
  ASSERT_TRUE(c.bias_ci.Excludes(0)) << c.summary;
  ASSERT_FALSE(c.bias_test_ci.Excludes(0)) << c.summary;
  ASSERT_EQ(c.runs_biased, 0) << c.summary;
  ASSERT_FALSE(c.biased);
  ExpectBiasWordsMatchTheirNumbers(c);
  EXPECT_NE(c.summary.find("no bias shown (mean - reference"), std::string::npos) << c.summary;
  EXPECT_NE(c.summary.find(", as does each run's own 99.375% CI"), std::string::npos) << c.summary;
  // And plain noise around 0.
  const StudyCell plain = Aggregate(ShiftedNoise(0));
  ASSERT_FALSE(plain.biased) << plain.summary;
  ExpectBiasWordsMatchTheirNumbers(plain);
}

TEST(StudyBiasWordsTest, EveryRunBiasedPooledOrNotTheWordsMatch) {
  // Runs biased in opposite directions (a locked phase per run): each run's own interval
  // excludes 0; the pooled one may or may not.
  const StudyCell opposite = Aggregate({RunWithDifferences(std::vector<double>(1000, 30)),
                                        RunWithDifferences(std::vector<double>(1000, -30)),
                                        RunWithDifferences(std::vector<double>(1000, 31)),
                                        RunWithDifferences(std::vector<double>(1000, -29))});
  EXPECT_EQ(opposite.runs_biased, 4);
  EXPECT_FALSE(opposite.bias_test_ci.Excludes(0)) << opposite.summary;
  ExpectBiasWordsMatchTheirNumbers(opposite);
  const StudyCell same = Aggregate(
      {RunWithDifferences(std::vector<double>(1000, 30)), RunWithDifferences(Noise(5, 30))});
  EXPECT_TRUE(same.bias_test_ci.Excludes(0)) << same.summary;
  ExpectBiasWordsMatchTheirNumbers(same);
  EXPECT_NE(same.summary.find("; 2 of 2 runs' own 98.75% CIs exclude 0 too"), std::string::npos)
      << same.summary;
}

TEST(StudyDisturbedTest, ThresholdIsTPlusReferencePlusTwiceTheRunsPairSkew) {
  // 1 ns clock, 1 ns reference, 200 ns brackets at both ends: pair skew 200 ns, threshold
  // 1 + 1 + 400 = 402 ns (and the rate bound x 10 us, about 0.02 ns).
  std::vector<double> differences(1000, 0);
  differences[10] = 401;   // kept
  differences[20] = -401;  // kept
  differences[30] = 403;   // disturbed
  differences[40] = -500;  // disturbed (a 500 ns preemption: kept by a fixed T + 1 us)
  differences[50] = 1e5;   // disturbed
  StudyCell c = Aggregate({RunWithDifferences(differences)});
  EXPECT_DOUBLE_EQ(c.pair_skew_ns, 200);
  EXPECT_DOUBLE_EQ(c.disturbed_threshold_ns, 402);
  EXPECT_EQ(c.disturbed_intervals, 3);
  // The mean test keeps them all: a bias beyond the threshold is not hidden.
  EXPECT_TRUE(c.bias_test_ci.Contains(1e5 / 1000)) << c.summary;
  // Narrower brackets, a tighter threshold: 20 ns brackets leave 1 + 1 + 40 = 42 ns.
  StudyRunData narrow = RunWithDifferences(differences);
  narrow.start_after_ns = narrow.start_before_ns + 20;
  narrow.stop_after_ns = narrow.stop_before_ns + 20;
  c = Aggregate({narrow});
  EXPECT_DOUBLE_EQ(c.disturbed_threshold_ns, 42);
  EXPECT_EQ(c.disturbed_intervals, 5);
  // A uniqtime tick's readings may sit T - 1 us above their edge: T = 10 us adds 9 us.
  StudyCell uniq = FineCell();
  uniq.resolution_ns = 1e4;
  uniq.timestamp_offset_ns = 9e3;
  AggregateStudyRuns({narrow}, 1, uniq);
  EXPECT_DOUBLE_EQ(uniq.disturbed_threshold_ns, 1e4 + 9e3 + 1 + 40);
  EXPECT_EQ(uniq.disturbed_intervals, 1);  // only the 100 us one
  const std::string words = SummarizeCell(uniq);
  EXPECT_NE(words.find("1 disturbed intervals left out of the theory's check (clock and "
                       "reference readings apart by over T + uniqtime's T - 1 us + reference "
                       "resolution + twice the run's pair skew, at most 19041 ns"),
            std::string::npos)
      << words;
}

}  // namespace
}  // namespace tickbench::harness
