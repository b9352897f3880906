// A dip at one size of a short table: too short for the step detector's segments of at
// least 3 sizes, found as an excursion (analysis/models/buffer_models.h, kExcursion) under the
// same BIC and noise estimate as the layouts; and never found on a smooth curve's noise.
#include <cmath>
#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analysis/fits/model_fit.h"
#include "analysis/models/buffer_models.h"
#include "analysis/models/synthetic_sweep.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/fit/sweep_analysis.h"

namespace tickbench {
namespace {

using ::testing::HasSubstr;

const std::vector<double> kSizes = {32, 64, 128, 256, 512, 1024, 1536, 2048, 2560, 3072, 4096};

// RTT of the straight machine, 1500 µs + 250 ns/B, with the throughput 2n/RTT down by
// `dip` (0.15 = 15 %) at `dip_at` bytes only.
double Rtt(double n, double dip, double dip_at) {
  const double rtt = 1500e3 + 250 * n;
  return n == dip_at ? rtt / (1 - dip) : rtt;
}

analysis::Sweep Table(double dip, double dip_at, double relative_sd, uint64_t seed) {
  analysis::NoiseSpec noise;
  noise.relative_sd = relative_sd;
  analysis::Sweep sweep = analysis::MakeSweep(
      kSizes, [&](double n) { return Rtt(n, dip, dip_at); }, noise, seed);
  sweep.value_name = "implied_rtt_ns";
  sweep.unit = "ns";
  return sweep;
}

struct Analyzed {
  harness::SweepAnalysis result;
  std::string text;
};

Analyzed Analyze(const analysis::Sweep& sweep) {
  Analyzed out;
  out.result = harness::AnalyzeSweep(sweep, {}, /*explain=*/true);
  out.text = harness::FormatSweepAnalysis(sweep, {}, out.result);
  return out;
}

bool ReportsExcursionAt(const harness::SweepAnalysis& result, double size) {
  if (!result.fits.ok() || !result.fits->beats_line) return false;
  const analysis::FamilyFit& best = result.fits->best_fit();
  return best.model.family == analysis::ModelFamily::kExcursion &&
         best.model.excursion_sizes == std::vector<double>{size};
}

TEST(OneSizeDipTest, NoiselessDipIsReportedAsADipAtItsSize) {
  for (double at : {64.0, 1536.0, 3072.0}) {
    const Analyzed a = Analyze(Table(0.15, at, 0, 1));
    ASSERT_TRUE(ReportsExcursionAt(a.result, at)) << at << "\n" << a.text;
    EXPECT_THAT(a.text, HasSubstr(absl::StrCat("excursion up at ", at, " bytes")));
    // Read back as throughput: down 15 % (the RTT up 1/0.85 − 1 = 17.6 %).
    EXPECT_THAT(a.text, HasSubstr("17.647059")) << a.text;
    EXPECT_THAT(a.text, HasSubstr("(a throughput dip of 15.0000")) << a.text;
    // A dip is not a step: none listed.
    ASSERT_TRUE(a.result.steps.ok());
    EXPECT_TRUE(a.result.steps->steps.empty()) << a.text;
    EXPECT_TRUE(a.result.implied_steps.empty()) << a.text;
  }
}

TEST(OneSizeDipTest, FifteenPercentDipAtOnePercentNoiseIsFoundInEverySeed) {
  int found = 0, covered = 0;
  constexpr int kSeeds = 200;
  const std::regex dip("a throughput dip of ([0-9.]+) ± ([0-9.]+)%");
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const Analyzed a = Analyze(Table(0.15, 1536, 0.01, seed));
    found += ReportsExcursionAt(a.result, 1536);
    std::smatch m;
    if (std::regex_search(a.text, m, dip)) {
      covered += std::fabs(std::stod(m[1]) - 15) <= std::stod(m[2]);
    }
    if (seed <= 3) {
      EXPECT_TRUE(ReportsExcursionAt(a.result, 1536)) << seed << "\n" << a.text;
    }
  }
  // 15 SDs of the 1 % noise: a miss would be a failure of the method, not bad luck.
  EXPECT_GE(found, kSeeds * 99 / 100) << found << " of " << kSeeds;
  // The printed 95 % interval holds the true 15 % in 174 of these 200 seeds (87 %): short
  // of 95 %, as the noise's shape (constant or proportional, ρ) is itself estimated from the
  // same 11 values; this guards the interval from getting any narrower.
  EXPECT_GE(covered, 170) << covered << " of " << kSeeds;
}

TEST(OneSizeDipTest, SmoothCurveAtOnePercentNoiseCriesNoDip) {
  int dips = 0;
  constexpr int kSeeds = 400;
  std::string example;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const Analyzed a = Analyze(Table(0, 0, 0.01, seed));
    ASSERT_TRUE(a.result.fits.ok());
    const bool dip =
        a.result.fits->beats_line && a.result.fits->best == analysis::ModelFamily::kExcursion;
    dips += dip;
    if (dip && example.empty()) example = a.text;
  }
  // At most 5 %: at 400 seeds a true rate of 5 % gives more than 28 with probability 0.05.
  EXPECT_LE(dips, 28) << dips << " of " << kSeeds << "; e.g.\n" << example;
}

TEST(OneSizeDipTest, PowerLineSaysWhatCannotBeFound) {
  const Analyzed a = Analyze(Table(0, 0, 0.01, 7));
  EXPECT_THAT(a.text, HasSubstr("blind spots: no step among the first 3 sizes (32 to 128 bytes) "
                                "or the last 3 (2560 to 4096 bytes), nor an excursion at the "
                                "first or last size, can be found"))
      << a.text;
}

}  // namespace
}  // namespace tickbench
