#include "timing/stats/log_histogram.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "timing/stats/statistics.h"

namespace tickbench::timing {
namespace {

constexpr double kPrecision = LogHistogram::kRelativePrecision;

TEST(LogHistogramTest, PrecisionIsBelowOnePercent) { EXPECT_DOUBLE_EQ(kPrecision, 1.0 / 256); }

TEST(LogHistogramTest, EmptyIsAllZero) {
  LogHistogram h;
  EXPECT_EQ(h.count(), 0);
  EXPECT_EQ(h.min(), 0);
  EXPECT_EQ(h.max(), 0);
  EXPECT_EQ(h.Percentile(0.5), 0);
}

TEST(LogHistogramTest, CountMinMaxAreExact) {
  LogHistogram h;
  for (double v : {10'100.3, 7.25, 1e9 + 1, 0.0, 42.0}) h.Add(v);
  EXPECT_EQ(h.count(), 5);
  EXPECT_EQ(h.min(), 0);
  EXPECT_EQ(h.max(), 1e9 + 1);
  EXPECT_EQ(h.Percentile(0), 0);
  EXPECT_EQ(h.Percentile(1), 1e9 + 1);
}

TEST(LogHistogramTest, ZeroStaysExactlyZero) {
  // A coarse clock reads 0 for most intervals: its median must be 0, not a bucket's
  // midpoint near it.
  LogHistogram h;
  for (int i = 0; i < 870; ++i) h.Add(0);
  for (int i = 0; i < 130; ++i) h.Add(1e7);
  EXPECT_EQ(h.Percentile(0.5), 0);
  EXPECT_NEAR(h.Percentile(0.99), 1e7, 1e7 * kPrecision);  // a midpoint: not exact
}

TEST(LogHistogramTest, EverySingleValueIsWithinPrecision) {
  // The median of {v/2, v, 2v} is v's bucket midpoint: min and max (ranks 0 and 2) are far
  // enough away that the clamp to [min, max] does not hide the midpoint's error.
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> exponent(-19.5, 43.5);
  int inexact = 0;
  for (int i = 0; i < 10'000; ++i) {
    const double v = std::exp2(exponent(random));
    LogHistogram h;
    for (double x : {v / 2, v, 2 * v}) h.Add(x);
    const double p = h.Percentile(0.5);
    EXPECT_LE(std::abs(p - v), kPrecision * v) << v;
    inexact += p != v;
  }
  // A random value is almost never its bucket's midpoint: the check above saw real errors.
  EXPECT_GT(inexact, 9'900);
}

TEST(LogHistogramTest, BucketEdgesAndPowersOfTwo) {
  // 2^k opens a bucket of width 2^k / 128, midpoint 2^k (1 + 0.5/128): the largest error,
  // exactly the precision. 2^k (1 + 127.5/128) is the last bucket's midpoint below 2^(k+1).
  // The median of {v/2, v, v, 2v} is v's bucket midpoint, not clamped.
  for (int k : {0, 1, 10, -20, 43}) {
    const double v = std::ldexp(1.0, k);
    LogHistogram h;
    for (double x : {v / 2, v, v, 2 * v}) h.Add(x);
    EXPECT_DOUBLE_EQ(h.Percentile(0.5), v * (1 + 0.5 / 128)) << v;
    EXPECT_LE(std::abs(h.Percentile(0.5) - v), kPrecision * v * (1 + 1e-12)) << v;
  }
  const double below_two = std::nextafter(2.0, 0.0);
  LogHistogram h;
  for (double x : {1.0, below_two, below_two, 4.0}) h.Add(x);
  EXPECT_DOUBLE_EQ(h.Percentile(0.5), 1 + 127.5 / 128);
}

TEST(LogHistogramTest, NegativeValuesSortBelowZero) {
  // A clock that steps back gives negative intervals; they must rank below 0 and below
  // the positive ones, largest magnitude first.
  LogHistogram h;
  for (double v : {-1000.0, -10.0, 0.0, 10.0, 1000.0}) h.Add(v);
  EXPECT_EQ(h.Percentile(0), -1000);
  EXPECT_NEAR(h.Percentile(0.25), -10, 10 * kPrecision);
  EXPECT_EQ(h.Percentile(0.5), 0);
  EXPECT_NEAR(h.Percentile(0.75), 10, 10 * kPrecision);
}

TEST(LogHistogramTest, OutOfRangeMagnitudesKeepExactExtremes) {
  LogHistogram h;
  h.Add(1e-30);
  h.Add(1e30);
  h.Add(std::numeric_limits<double>::infinity());
  EXPECT_EQ(h.min(), 1e-30);
  EXPECT_EQ(h.Percentile(0), 1e-30);
  EXPECT_EQ(h.Percentile(1), std::numeric_limits<double>::infinity());
}

TEST(LogHistogramTest, PercentilesMatchSortedValuesWithinPrecision) {
  // Round-trip-like data: 20 us plus exponential jitter with a heavy tail.
  std::mt19937_64 random(1);
  std::exponential_distribution<double> jitter(1.0 / 3000);
  std::vector<double> values;
  LogHistogram h;
  for (int i = 0; i < 100'000; ++i) {
    values.push_back(20'000 + jitter(random) * (i % 100 == 0 ? 50 : 1));
    h.Add(values.back());
  }
  std::sort(values.begin(), values.end());
  for (double q : {0.0, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 0.99999, 1.0}) {
    const double exact = QuantileOfSorted(values, q);
    EXPECT_LE(std::abs(h.Percentile(q) - exact), kPrecision * exact) << q;
  }
}

TEST(LogHistogramTest, ClearForgetsEverything) {
  LogHistogram h;
  h.Add(5);
  h.Clear();
  EXPECT_EQ(h.count(), 0);
  h.Add(3);
  EXPECT_EQ(h.min(), 3);
  EXPECT_EQ(h.Percentile(0.5), 3);
}

TEST(StreamingSummaryTest, MatchesSummarizeExactlyExceptPercentiles) {
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> rtt(9'000, 31'000);
  std::vector<double> values;
  StreamingSummary streaming;
  for (int i = 0; i < 50'000; ++i) {
    values.push_back(i % 7 == 0 ? 0 : rtt(random));
    streaming.Add(values.back());
  }
  const Summary exact = Summarize(values);
  const Summary folded = streaming.ToSummary();
  EXPECT_EQ(folded.count, exact.count);
  EXPECT_EQ(folded.mean, exact.mean);
  EXPECT_EQ(folded.sd, exact.sd);
  EXPECT_EQ(folded.min, exact.min);
  EXPECT_EQ(folded.max, exact.max);
  EXPECT_EQ(folded.zero_fraction, exact.zero_fraction);
  EXPECT_LE(std::abs(folded.p50 - exact.p50), kPrecision * exact.p50);
  EXPECT_LE(std::abs(folded.p90 - exact.p90), kPrecision * exact.p90);
  EXPECT_LE(std::abs(folded.p99 - exact.p99), kPrecision * exact.p99);
  streaming.Clear();
  EXPECT_EQ(streaming.ToSummary().count, 0);
}

}  // namespace
}  // namespace tickbench::timing
