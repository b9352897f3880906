#include "analysis/fits/model_fit.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/models/synthetic_sweep.h"
#include "gtest/gtest.h"

namespace tickbench::analysis {
namespace {

constexpr int kSeeds = 50;

NoiseSpec Relative(double sd, int runs) {
  NoiseSpec noise;
  noise.relative_sd = sd;
  noise.runs = runs;
  return noise;
}

// The rankings and verdicts over hundreds of seeds; the ranges' fine profiles, which these
// tests do not read and which would take most of their time, are off
// (analysis/fits/model_ranges_test.cc has them).
ModelComparison Fit(const Sweep& sweep, ModelFitOptions options = {}) {
  options.fine_ranges = false;
  absl::StatusOr<ModelComparison> result = FitBufferModels(sweep, options);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *std::move(result) : ModelComparison{};
}

struct Recovery {
  int family = 0;      // right family, beating the line and the runner-up by ΔBIC ≥ 6
  int sizes = 0;       // ... and the right C, t (BSD), chunk or MTU
  int everything = 0;  // ... and the right s
};

Recovery Recover(const BufferModel& truth, const std::vector<double>& costs,
                 const std::vector<double>& sizes, const NoiseSpec& noise, uint64_t first_seed,
                 const ModelFitOptions& options = {}) {
  Recovery r;
  for (int seed = 0; seed < kSeeds; ++seed) {
    const ModelComparison c =
        Fit(MakeSweep(sizes, LayoutTruth(truth, costs), noise, first_seed + seed), options);
    const BufferModel& m = c.best_fit().model;
    if (c.families.empty() || c.best != truth.family || !c.beats_line ||
        c.delta_bic_runner_up < options.strong_evidence_delta_bic) {
      continue;
    }
    ++r.family;
    if (m.cluster_bytes != truth.cluster_bytes || m.threshold_bytes != truth.threshold_bytes ||
        m.mtu_bytes != truth.mtu_bytes) {
      continue;
    }
    ++r.sizes;
    r.everything += m.small_bytes == truth.small_bytes;
  }
  return r;
}

// Round-trip costs in ns: 20 µs fixed, 2 ns per byte, 800 ns per cluster, 400 per small buffer.
const std::vector<double> kBsdCosts = {20000, 2, 800, 400};
const BufferModel kBsd43{ModelFamily::kBsdSocket, 1024, 512, 112, 0};
const BufferModel kBsd42{ModelFamily::kBsdSocket, 1024, 1024, 112, 0};
const BufferModel kBsdWide{ModelFamily::kBsdSocket, 2048, 1024, 128, 0};

TEST(FitBufferModelsTest, BsdRulesRecoveredExactlyAtOnePercent) {
  const std::vector<double> sizes = EvenSizes(32, 4096, 32);
  uint64_t seed = 100;
  for (const BufferModel& truth : {kBsd43, kBsd42, kBsdWide}) {
    const Recovery r = Recover(truth, kBsdCosts, sizes, Relative(0.01, 4), seed += 1000);
    EXPECT_EQ(r.everything, kSeeds) << DescribeModel(truth);
  }
}

TEST(FitBufferModelsTest, BsdRulesAtTwoPercent) {
  // At 2 % a small buffer (400 ns) is 1.4 SD of a 4-run mean near 2 KiB, and s = 96, 112
  // and 128 differ by one small buffer at only a third of the sizes: s slips in a few sweeps
  // (47–50 of 50 in simulation); the family, C and t never do.
  const std::vector<double> sizes = EvenSizes(32, 4096, 32);
  uint64_t seed = 5000;
  for (const BufferModel& truth : {kBsd43, kBsd42, kBsdWide}) {
    const Recovery r = Recover(truth, kBsdCosts, sizes, Relative(0.02, 4), seed += 1000);
    EXPECT_EQ(r.sizes, kSeeds) << DescribeModel(truth);
    EXPECT_GE(r.everything, kSeeds * 9 / 10) << DescribeModel(truth);
  }
}

TEST(FitBufferModelsTest, BsdRulesOnTheClassicTable) {
  // Eleven sizes of 4 runs: family, C and t in at least 98 % of sweeps (99–100 % over 100
  // seeds). s is not checked: the counts ceil(r/s) of s = 96, 112 and 128 differ only at one
  // or two of the four sizes 1300..1492, by one small buffer.
  uint64_t seed = 10000;
  for (const BufferModel& truth : {kBsd43, kBsd42, kBsdWide}) {
    const Recovery r =
        Recover(truth, kBsdCosts, ClassicTableSizes(), Relative(0.01, 4), seed += 1000);
    EXPECT_GE(r.sizes, kSeeds * 98 / 100) << DescribeModel(truth);
  }
}

TEST(FitBufferModelsTest, ChunksAndFragmentsRecovered) {
  const std::vector<double> costs = {20000, 2, 1500};
  // A TCP MSS on a byte-fine grid, and a page-sized chunk on a 32-byte grid.
  EXPECT_EQ(Recover({ModelFamily::kFixedChunks, 1460, 0, 0, 0}, costs, EvenSizes(8, 4500, 8),
                    Relative(0.01, 1), 20000)
                .sizes,
            kSeeds);
  EXPECT_EQ(Recover({ModelFamily::kFixedChunks, 4096, 0, 0, 0}, costs, EvenSizes(64, 16384, 64),
                    Relative(0.01, 4), 21000)
                .sizes,
            kSeeds);
  // Ethernet fragmentation needs sizes 8 bytes apart to be told from 1472- or 1480-byte
  // chunks: ceil((n + 8)/1480) and ceil(n/1480) differ only for n in 1473..1480 (mod 1480).
  EXPECT_EQ(Recover({ModelFamily::kIpv4Fragments, 0, 0, 0, 1500}, costs, EvenSizes(8, 4500, 8),
                    Relative(0.01, 1), 22000)
                .sizes,
            kSeeds);
  EXPECT_EQ(Recover({ModelFamily::kIpv4Fragments, 0, 0, 0, 576}, costs, EvenSizes(8, 3000, 8),
                    Relative(0.01, 1), 23000)
                .sizes,
            kSeeds);
}

TEST(FitBufferModelsTest, ExtraSizesWidenTheSearch) {
  const BufferModel truth{ModelFamily::kFixedChunks, 3000, 0, 0, 0};
  const std::vector<double> costs = {20000, 2, 1500};
  // Up to 16384 bytes: the extra size is also tried as a largest unfragmented payload, and
  // MTU 3028 (fragments of 3008 bytes of n + 8) departs from 3000-byte chunks by 8 bytes per
  // fragment, which a 32-byte grid resolves only from the fifth chunk on.
  const std::vector<double> sizes = EvenSizes(32, 16384, 32);
  EXPECT_EQ(Recover(truth, costs, sizes, Relative(0.01, 4), 24000).sizes, 0);
  ModelFitOptions options;
  options.extra_sizes = {3000};
  EXPECT_EQ(Recover(truth, costs, sizes, Relative(0.01, 4), 24000, options).sizes, kSeeds);
}

TEST(FitBufferModelsTest, StraightLineIsExplainedByTheLine) {
  const std::function<double(double)> line = [](double n) { return 20000 + 5 * n; };
  for (const std::vector<double>& sizes : {EvenSizes(32, 4096, 32), ClassicTableSizes()}) {
    int line_wins = 0, excursions = 0;
    for (int seed = 0; seed < kSeeds; ++seed) {
      const ModelComparison c = Fit(MakeSweep(sizes, line, Relative(0.01, 4), 30000 + seed));
      line_wins += !c.beats_line;
      if (c.best == ModelFamily::kLinear) {
        // The runner-up is the next family in the ranking, not the line itself: the
        // report's "BIC d below the runner-up" read 0.0 where the line won by 7.
        EXPECT_NE(c.runner_up, ModelFamily::kLinear);
        EXPECT_EQ(c.delta_bic_runner_up,
                  c.families[static_cast<int>(c.runner_up)].bic - c.best_fit().bic);
        for (const FamilyFit& family : c.families) {
          if (family.fitted && family.model.family != ModelFamily::kLinear) {
            EXPECT_GE(family.bic - c.best_fit().bic, c.delta_bic_runner_up);
          }
        }
        EXPECT_GT(c.delta_bic_runner_up, 0);
      }
      if (!c.beats_line) {
        EXPECT_EQ(c.verdict.rfind("no model beats the straight line", 0), 0u) << c.verdict;
      } else {
        // A layout never; an excursion (one or two sizes off the line) by chance only: on
        // the 11 sizes seed 30003's 512 bytes read +1.1..+1.8 % in all 4 runs.
        EXPECT_EQ(c.best, ModelFamily::kExcursion) << c.verdict;
        excursions += c.best == ModelFamily::kExcursion;
      }
    }
    // At most 2 of 50 (a 5 % false-alarm rate exceeds 2 of 50 with probability 0.46; 1 is
    // seen): the excursion's error rate is tested at 400 seeds in
    // tests/closed_loop/one_size_dip_test.
    EXPECT_GE(line_wins, kSeeds - 2) << sizes.size() << " sizes";
    EXPECT_EQ(line_wins + excursions, kSeeds) << sizes.size() << " sizes";
  }
}

TEST(FitBufferModelsTest, IndistinguishableFamiliesAreUndecided) {
  // On a 32-byte grid ceil((n + 8)/1480) and ceil(n/1472) agree at every size.
  const Sweep sweep =
      MakeSweep(EvenSizes(32, 4096, 32),
                LayoutTruth({ModelFamily::kIpv4Fragments, 0, 0, 0, 1500}, {2e4, 2, 3e3}),
                Relative(0.01, 4), 7);
  const ModelComparison c = Fit(sweep);
  EXPECT_TRUE(c.beats_line);
  EXPECT_LT(c.delta_bic_runner_up, 1e-6);
  EXPECT_EQ(c.verdict.rfind("undecided", 0), 0u) << c.verdict;
}

TEST(FitBufferModelsTest, ReportsEveryFamily) {
  const Sweep sweep =
      MakeSweep(EvenSizes(32, 4096, 32), LayoutTruth(kBsd43, kBsdCosts), Relative(0.01, 4), 8);
  const ModelComparison c = Fit(sweep);
  ASSERT_EQ(c.families.size(), std::size(kAllModelFamilies));
  EXPECT_TRUE(c.variance_from_runs);
  const FamilyFit& best = c.best_fit();
  EXPECT_EQ(best.cost_names, CostNames(ModelFamily::kBsdSocket));
  ASSERT_EQ(best.costs.size(), 4u);
  for (size_t j = 0; j < 4; ++j) {
    EXPECT_NEAR(best.costs[j], kBsdCosts[j], 4 * best.cost_stderrs[j]) << best.cost_names[j];
  }
  EXPECT_GT(best.r_squared, 0.99);
  EXPECT_EQ(best.parameters, 4 + 3);
  EXPECT_GT(best.candidates, 200);
  EXPECT_EQ(c.families[0].parameters, 2);
  EXPECT_GT(c.delta_bic_linear, 6);
  EXPECT_EQ(c.verdict.rfind("bsd_socket(C=1024, t=512, s=112) explains the sweep", 0), 0u)
      << c.verdict;
}

TEST(FitBufferModelsTest, TooFewSizes) {
  const Sweep sweep = MakeSweep(
      {64, 128, 256, 512, 1024, 2048}, [](double n) { return n; }, Relative(0.01, 4), 1);
  EXPECT_EQ(FitBufferModels(sweep).status().code(), absl::StatusCode::kInvalidArgument);
}

// Its speed is measured by //bench:analysis_benchmark (FitBufferModels), not asserted here:
// a CPU-time bound failed under the sanitizers on a shared machine.
// A sweep of values all near 1e-200 (or 1e160) left no weight finite, and the fit crashed:
// values outside the range the fits compute in are refused, the range named.
TEST(FitBufferModelsTest, ValuesOutsideTheComputedRangeAreRefusedNotACrash) {
  for (const double scale : {1e-200, 1e-150, 1e-21, 1e160, 1e200}) {
    Sweep sweep;
    for (int i = 1; i <= 7; ++i) sweep.points.push_back({64.0 * i, {i * scale}});
    const absl::StatusOr<ModelComparison> fits = FitBufferModels(sweep);
    ASSERT_FALSE(fits.ok()) << scale;
    EXPECT_EQ(fits.status().code(), absl::StatusCode::kInvalidArgument) << scale;
    EXPECT_NE(fits.status().message().find("1e-20 to 1e+20"), absl::string_view::npos)
        << fits.status();
  }
}

// At both ends of that range a straight line is still fitted as one, its slope scaled.
TEST(FitBufferModelsTest, TheRangesEndsFitAsTheMiddleDoes) {
  for (const double scale : {1e-20, 1.0, 1e13}) {
    Sweep sweep;
    for (int i = 1; i <= 7; ++i) {
      sweep.points.push_back({64.0 * i, {scale * (1000 + i), scale * (1001 + i)}});
    }
    const ModelComparison c = Fit(sweep);
    ASSERT_FALSE(c.families.empty()) << scale;
    EXPECT_FALSE(c.beats_line) << scale;
    EXPECT_NEAR(c.families[0].costs[1], scale / 64, 1e-9 * scale) << scale;
  }
}

TEST(FitBufferModelsTest, TwoThousandSizesAreFitted) {
  const Sweep sweep =
      MakeSweep(EvenSizes(32, 64000, 32), LayoutTruth(kBsd43, kBsdCosts), Relative(0.01, 1), 9);
  const ModelComparison c = Fit(sweep);
  EXPECT_EQ(c.best_fit().model.cluster_bytes, 1024);
  EXPECT_EQ(c.best_fit().model.threshold_bytes, 512);
}

TEST(RttFromThroughputTest, TwoNBytesPerRoundTrip) {
  Sweep throughput;
  throughput.value_name = "throughput_bytes_per_second";
  throughput.points = {{1000, {1e8, 2e8}}, {2000, {4e8}}};
  absl::StatusOr<Sweep> rtt = RttFromThroughput(throughput);
  ASSERT_TRUE(rtt.ok()) << rtt.status();
  EXPECT_EQ(rtt->unit, "ns");
  // 2000 bytes at 1e8 B/s: 20 µs.
  EXPECT_DOUBLE_EQ(rtt->points[0].values[0], 20000);
  EXPECT_DOUBLE_EQ(rtt->points[0].values[1], 10000);
  EXPECT_DOUBLE_EQ(rtt->points[1].values[0], 10000);
  throughput.points[1].values[0] = 0;
  EXPECT_EQ(RttFromThroughput(throughput).status().code(), absl::StatusCode::kInvalidArgument);
  throughput.points[1].values[0] = 1e8;
  throughput.points[0].size_bytes = 0;
  EXPECT_EQ(RttFromThroughput(throughput).status().code(), absl::StatusCode::kInvalidArgument);
}

// A throughput in range may imply a time that is not: 1e-15 B/s at 64 bytes is 1.28e26 ns.
TEST(RttFromThroughputTest, ATimeOutsideTheAnalysisRangeIsRefused) {
  Sweep throughput;
  throughput.unit = "B/s";
  throughput.points = {{64, {1e-15}}, {128, {1e6}}};
  const absl::StatusOr<Sweep> rtt = RttFromThroughput(throughput);
  ASSERT_FALSE(rtt.ok());
  EXPECT_EQ(rtt.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(rtt.status().message().find("the round-trip times the throughputs imply: point 0 "
                                        "(size 64) has the value 1.28e+26"),
            absl::string_view::npos)
      << rtt.status();
}

TEST(RttFromThroughputTest, PrintedResolutionBecomesTheLargerSideInTime) {
  Sweep throughput;
  throughput.value_name = "throughput_bytes_per_second";
  throughput.points = {{1000, {1e8, 2e8}}};
  throughput.points[0].resolution = 1e6;  // ±1 MB/s
  absl::StatusOr<Sweep> rtt = RttFromThroughput(throughput);
  ASSERT_TRUE(rtt.ok()) << rtt.status();
  // The slower run: 2000 B / (99 MB/s) − 2000 B / (100 MB/s) = 0.20202 µs.
  EXPECT_NEAR(rtt->points[0].resolution, 2000 / 99e6 * 1e9 - 20000, 1e-9);
}

}  // namespace
}  // namespace tickbench::analysis

namespace tickbench::analysis {
namespace {

// A BIC difference shows the digits that can matter against the margins of 2 and 6.
TEST(FormatDeltaBicTest, OneDecimalBelowAThousandThreeDigitsAbove) {
  EXPECT_EQ(FormatDeltaBic(65.64), "65.6");
  EXPECT_EQ(FormatDeltaBic(-5.55), "-5.5");
  EXPECT_EQ(FormatDeltaBic(3564223.2), "3.56e+06");
  EXPECT_EQ(FormatDeltaBic(932071410799.9), "9.32e+11");
}

// A table printed to 10 us: every mean rounded to a multiple of 10000 ns (resolution 5000
// ns). The noise interval comes from the residuals (or the runs), which rounding can leave
// as small as it likes; the rounding bound holds whatever they are: each cost's interval
// (t x SE + bound) holds its truth, and the bound of the fixed cost is a few resolutions at
// most (here about 8200 ns beside a noise half-width of about 2600).
TEST(ModelFitTest, ThePrintedResolutionIsInsideEveryCostInterval) {
  Sweep sweep;
  sweep.value_name = "averaged_rtt_ns";
  sweep.unit = "ns";
  for (double n : ClassicTableSizes()) {
    const double truth = 2012800 + 250 * n;
    sweep.points.push_back({n, {std::round(truth / 10000) * 10000}});
    sweep.points.back().resolution = 5000;
  }
  absl::StatusOr<ModelComparison> fits = FitBufferModels(sweep, {});
  ASSERT_TRUE(fits.ok()) << fits.status();
  const FamilyFit& line = fits->families[static_cast<int>(ModelFamily::kLinear)];
  ASSERT_EQ(line.cost_rounding_bounds.size(), 2u);
  ASSERT_EQ(line.cost_degrees_of_freedom, 9);  // 11 sizes, 2 costs, noise from the residuals
  const double t = 2.262157;                   // Student t's 97.5% quantile on 9
  const double truths[] = {2012800, 250};
  for (int j = 0; j < 2; ++j) {
    EXPECT_LE(std::abs(line.costs[j] - truths[j]),
              t * line.cost_stderrs[j] + line.cost_rounding_bounds[j])
        << line.cost_names[j];
    EXPECT_GT(line.cost_rounding_bounds[j], 0);
  }
  EXPECT_LE(line.cost_rounding_bounds[0], 3 * 5000);
}

}  // namespace
}  // namespace tickbench::analysis
