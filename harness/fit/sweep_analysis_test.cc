#include "harness/fit/sweep_analysis.h"

#include <cmath>
#include <cstdlib>
#include <random>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::vector<RunRecord> Records(double step_at, double step_ns, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> noise(0, 50);
  std::vector<RunRecord> records;
  for (int run = 1; run <= 4; ++run) {
    for (size_t size = 50; size <= 2000; size += 50) {
      RunRecord r;
      r.size_bytes = size;
      r.run = run;
      r.completed = r.timed_trips = 1000;
      r.averaged_rtt_ns = 20'000 + 2.0 * size + (size > step_at ? step_ns : 0) + noise(random);
      records.push_back(r);
    }
  }
  return records;
}

TEST(SweepAnalysisTest, FindsAFragmentationStepAndNamesTheMtu) {
  const analysis::Sweep sweep = RttSweepFromRecords(Records(1472, 3000, 7));
  ASSERT_EQ(sweep.points.size(), 40u);
  EXPECT_EQ(sweep.points[0].values.size(), 4u);
  const analysis::SizeFacts facts = {{"largest unfragmented UDP payload (MTU - 28)", 1472}};
  const SweepAnalysis result = AnalyzeSweep(sweep, facts, /*explain=*/false);
  ASSERT_TRUE(result.steps.ok());
  ASSERT_EQ(result.steps->steps.size(), 1u);
  EXPECT_EQ(result.steps->steps[0].size_before, 1450);
  EXPECT_EQ(result.steps->steps[0].size_after, 1500);
  const std::string text = FormatSweepAnalysis(sweep, facts, result);
  EXPECT_THAT(text, HasSubstr("jump up between 1450 and 1500 bytes"));
  EXPECT_THAT(text, HasSubstr("near largest unfragmented UDP payload"));
}

// The in-process analysis gets the quantization floor the CSV reader takes from
// averaged_quantum_ns: the largest T/N of a size's runs; invalid runs count for nothing.
TEST(SweepAnalysisTest, EachPointCarriesTheLargestQuantumOfItsRuns) {
  std::vector<RunRecord> records = Records(1e9, 0, 3);
  for (RunRecord& r : records) r.quantum_ns = r.size_bytes == 100 ? 10.0 * r.run : 0;
  RunRecord invalid;
  invalid.size_bytes = 100;
  invalid.quantum_ns = 1e6;
  records.push_back(invalid);
  const analysis::Sweep sweep = RttSweepFromRecords(records);
  ASSERT_EQ(sweep.points.size(), 40u);
  EXPECT_EQ(sweep.points[0].quantum, 0);
  EXPECT_EQ(sweep.points[1].size_bytes, 100);
  EXPECT_EQ(sweep.points[1].values.size(), 4u);
  EXPECT_EQ(sweep.points[1].quantum, 40);
}

TEST(SweepAnalysisTest, CleanLineHasNoStepAndTheLineExplainsIt) {
  const analysis::Sweep sweep = RttSweepFromRecords(Records(1e9, 0, 11));
  const SweepAnalysis result = AnalyzeSweep(sweep, {}, /*explain=*/true);
  ASSERT_TRUE(result.steps.ok());
  EXPECT_TRUE(result.steps->steps.empty());
  ASSERT_TRUE(result.explanation.ok()) << result.explanation.status();
  EXPECT_THAT(*result.explanation, HasSubstr("straight line"));
  EXPECT_THAT(FormatSweepAnalysis(sweep, {}, result),
              HasSubstr("none: the curve follows its trend"));
}

// Issue 32: "+142809 ns" steps from a table given to 10 us. A step is a difference of two
// printed values: its digits stop at their rounding, and its interval is never narrower.
TEST(SweepAnalysisTest, AStepHasNoDigitsFinerThanTheValuesItComesFrom) {
  analysis::Sweep sweep;
  sweep.value_name = "rtt_us";
  sweep.unit = "ns";
  const double rtt_us[] = {100, 100, 100, 240, 240, 240, 240};
  const double sizes[] = {64, 128, 256, 512, 1024, 2048, 4096};
  for (int i = 0; i < 7; ++i) {
    analysis::SweepPoint p;
    p.size_bytes = sizes[i];
    p.values = {rtt_us[i] * 1e3 + (i % 2 == 0 ? 9 : -9)};  // "100" us is 99500 to 100500 ns
    p.resolution = 500;                                    // half a unit of "100" us, in ns
    sweep.points.push_back(p);
  }
  const SweepAnalysis result = AnalyzeSweep(sweep, {}, /*explain=*/false);
  ASSERT_TRUE(result.steps.ok());
  ASSERT_EQ(result.steps->steps.size(), 1u);
  const std::string text = FormatSweepAnalysis(sweep, {}, result);
  EXPECT_THAT(text, HasSubstr("jump up between 256 and 512 bytes: +140000 ± 1000 ns")) << text;
}

// A curve read by a coarse tick (T/N over 10% of each RTT) is not "within the noise": its
// noise is the quantization, which says nothing of steps smaller than it.
TEST(SweepAnalysisTest, AnUnresolvedCurveSaysSoNotWithinTheNoise) {
  std::vector<RunRecord> records = Records(1e9, 0, 11);
  for (RunRecord& r : records) r.quantum_ns = 20'000;  // a 20 ms tick over 1000 round trips
  const analysis::Sweep sweep = RttSweepFromRecords(records);
  const SweepAnalysis result = AnalyzeSweep(sweep, {}, /*explain=*/false);
  ASSERT_TRUE(result.steps.ok());
  ASSERT_TRUE(result.steps->steps.empty());
  const std::string text = FormatSweepAnalysis(sweep, {}, result);
  EXPECT_THAT(text, HasSubstr("none found, and none could be: the averaged RTT is unresolved at "
                              "40 of 40 sizes"));
  EXPECT_THAT(text, Not(HasSubstr("within the noise")));
}

// --explain's fitted costs carry 95% intervals: t on the fit's degrees of freedom times the
// standard error, rounded to two digits of the half-width; the old "+/-" SE form is gone.
TEST(SweepAnalysisTest, FittedCostsArePrintedWithTheirIntervals) {
  const analysis::Sweep sweep = RttSweepFromRecords(Records(1e9, 0, 11));
  const SweepAnalysis result = AnalyzeSweep(sweep, {}, /*explain=*/true);
  ASSERT_TRUE(result.fits.ok()) << result.fits.status();
  const analysis::FamilyFit* line = nullptr;
  for (const analysis::FamilyFit& family : result.fits->families) {
    if (family.model.family == analysis::ModelFamily::kLinear) line = &family;
  }
  ASSERT_NE(line, nullptr);
  ASSERT_EQ(line->costs.size(), 2u);
  EXPECT_GT(line->cost_degrees_of_freedom, 0);
  const double half_width =
      timing::StudentTQuantile(0.975, line->cost_degrees_of_freedom) * line->cost_stderrs[1];
  EXPECT_GT(half_width, 0);
  // The line's per-byte slope is 2 ns/B; its interval holds it.
  EXPECT_LT(std::abs(line->costs[1] - 2.0), half_width);
  const std::string cost = FormatFittedCost(*line, 1);
  EXPECT_EQ(cost, absl::StrCat(line->cost_names[1], " ",
                               timing::FormatWithHalfWidth(line->costs[1], half_width)));
  EXPECT_THAT(cost, HasSubstr(" ± "));
  ASSERT_TRUE(result.explanation.ok());
  EXPECT_THAT(*result.explanation, HasSubstr(cost));
  EXPECT_THAT(*result.explanation, Not(HasSubstr("+/-")));
}

// A cost whose 95% interval includes 0 is said so ("per_cluster 490000 ± 520000 (interval
// includes 0)"); one whose interval does not, and one fixed at 0, are not.
TEST(SweepAnalysisTest, ACostWhoseIntervalIncludesZeroIsSaidSo) {
  analysis::FamilyFit fit;
  fit.cost_names = {"fixed", "per_cluster", "per_small_buffer"};
  fit.costs = {1.5e6, 490000, 0};
  fit.cost_degrees_of_freedom = 7;
  const double t = timing::StudentTQuantile(0.975, 7);
  fit.cost_stderrs = {1000, 520000 / t, 0};
  EXPECT_EQ(FormatFittedCost(fit, 0), "fixed 1500000 ± 2400");
  EXPECT_EQ(FormatFittedCost(fit, 1), "per_cluster 490000 ± 520000 (interval includes 0)");
  EXPECT_EQ(FormatFittedCost(fit, 2), "per_small_buffer 0");
  fit.costs[1] = -400000;  // either sign
  EXPECT_THAT(FormatFittedCost(fit, 1), HasSubstr("(interval includes 0)"));
  fit.costs[1] = 530000;
  EXPECT_THAT(FormatFittedCost(fit, 1), Not(HasSubstr("includes 0")));
  // What rounding the inputs to their printed resolution can move a cost widens its interval.
  fit.cost_rounding_bounds = {5000, 0, 0};
  EXPECT_EQ(FormatFittedCost(fit, 0), "fixed 1500000 ± 7400");
}

// An excursion is given as a share of the line under it only where that line is told from
// 0: off a baseline of 0 the share was round-off over round-off ("3743999999999999488 ±
// 34457268880907997594276331520% of it").
TEST(SweepAnalysisTest, AnExcursionOffAZeroBaselineGivesNoPercentageOfIt) {
  for (const double baseline : {0.0, 1.0}) {
    analysis::Sweep sweep;
    sweep.unit = "ns";
    for (int i = 1; i <= 11; ++i) {  // as read from whole numbers in a CSV: resolution 0.5
      sweep.points.push_back({64.0 * i, {i == 6 ? 1000 + baseline : baseline}, 0, 0.5});
    }
    const SweepAnalysis result = AnalyzeSweep(sweep, {}, /*explain=*/true);
    const std::string text = FormatSweepAnalysis(sweep, {}, result);
    EXPECT_THAT(text, HasSubstr("excursion up at 384 bytes")) << text;
    if (baseline == 0) {
      EXPECT_THAT(text, Not(HasSubstr("% of it"))) << text;
      EXPECT_THAT(text, Not(HasSubstr("of the median"))) << text;  // the median is 0 too
    } else {
      EXPECT_THAT(text, HasSubstr("100000 ± 25% of it")) << text;  // 1000 over 1 ± 0.00051
    }
  }
}

TEST(SweepAnalysisTest, SystemFactsIncludeThePageSizeAndTheLoopbackMtu) {
  // Set by bazel/toolchains/aarch64/qemu_aarch64.sh.
  if (std::getenv("TICKBENCH_EMULATED") != nullptr) {
    GTEST_SKIP() << "QEMU user-mode emulation does not implement getsockopt(IP_MTU)";
  }
  const analysis::SizeFacts facts =
      CollectSizeFacts("udp", transport::Endpoint::BufferSizes{4096, 8192}, "127.0.0.1");
  std::string names;
  for (const auto& fact : facts) names += fact.name + ";";
  EXPECT_THAT(names, HasSubstr("page size"));
  EXPECT_THAT(names, HasSubstr("SO_SNDBUF"));
  EXPECT_THAT(names, HasSubstr("path MTU to 127.0.0.1"));
  EXPECT_THAT(names, HasSubstr("net.core.wmem_default"));
}

// A pipe's capacity (--pipe_size) and its first multiples are candidate causes, not the
// socket buffers a pipe does not have: a 4096-byte pipe stepped at 4096, 8192 and 12288.
TEST(SweepAnalysisTest, APipesCapacityAndItsMultiplesAreCandidateCauses) {
  transport::Endpoint::BufferSizes pipe{4096, 4096, true};
  std::string names;
  for (const auto& fact : CollectSizeFacts("pipe", pipe, "")) {
    names += absl::StrCat(fact.name, "=", fact.size_bytes, ";");
  }
  EXPECT_THAT(names, HasSubstr("pipe capacity (F_GETPIPE_SZ)=4096;"));
  EXPECT_THAT(names, HasSubstr("2 x pipe capacity=8192;"));
  EXPECT_THAT(names, HasSubstr("3 x pipe capacity=12288;"));
  EXPECT_THAT(names, Not(HasSubstr("SO_SNDBUF")));
}

// Which transports have a path MTU, and to where, is asked of the registry's rows.
TEST(SweepAnalysisTest, MtuPeerAddressFollowsTheTransportsAddressFamily) {
  EXPECT_EQ(MtuPeerAddress("udp", ""), "127.0.0.1");
  EXPECT_EQ(MtuPeerAddress("tcp", ""), "127.0.0.1");
  EXPECT_EQ(MtuPeerAddress("udp6", ""), "::1");
  EXPECT_EQ(MtuPeerAddress("tcp6", ""), "::1");
  EXPECT_EQ(MtuPeerAddress("tcp", "192.0.2.7"), "192.0.2.7");
  for (const char* local : {"unix_stream", "unix_dgram", "pipe", "sim", "no_such_transport"}) {
    EXPECT_EQ(MtuPeerAddress(local, ""), "") << local;
    EXPECT_EQ(MtuPeerAddress(local, "192.0.2.7"), "") << local;
  }
}

TEST(SweepAnalysisTest, OnlyAUnixStreamTransportHasTheLargestSkbFact) {
  const transport::Endpoint::BufferSizes buffers{212992, 212992};
  auto names = [&](const char* transport_name) {
    std::string joined;
    for (const auto& fact : CollectSizeFacts(transport_name, buffers, "")) {
      joined += fact.name + ";";
    }
    return joined;
  };
  EXPECT_THAT(names("unix_stream"), HasSubstr("largest AF_UNIX stream skb"));
  EXPECT_THAT(names("unix_stream"), HasSubstr("3 x SO_SNDBUF"));
  EXPECT_THAT(names("tcp"), Not(HasSubstr("x SO_SNDBUF")));
  for (const char* other : {"unix_dgram", "tcp", "pipe", "sim"}) {
    EXPECT_THAT(names(other), Not(HasSubstr("largest AF_UNIX stream skb"))) << other;
  }
}

}  // namespace
}  // namespace tickbench::harness
