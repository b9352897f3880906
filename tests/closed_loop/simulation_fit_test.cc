// --fit_sim's printed flags are the replayed model: every value parses back exactly, the
// stated residuals are the parsed-back model's, and a winner the simulation cannot replay
// is named with the reason.
#include "harness/fit/simulation_fit.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "analysis/fits/model_fit.h"
#include "analysis/models/synthetic_sweep.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "transport/sim/sim_rtt_model.h"

namespace tickbench {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The value of `--name=` in `flags`.
std::string Flag(const std::string& flags, const std::string& name) {
  for (absl::string_view word : absl::StrSplit(flags, ' ')) {
    if (absl::ConsumePrefix(&word, "--" + name + "=")) return std::string(word);
  }
  return "";
}

TEST(SimulationFitTest, FlagsParseBackToTheReplayedModelAndItsResidual) {
  // A per-byte cost with more digits than %.6g keeps: 250.123456789 ns/B over 4000 bytes is
  // 0.5 ns off at 6 digits, and a 40-size table made that the stated residual's error.
  const std::vector<double> sizes = analysis::EvenSizes(100, 4000, 100);
  const analysis::Sweep sweep = analysis::MakeSweep(
      sizes, [](double n) { return 1500000.3 + 250.123456789 * n; }, {}, 1);
  absl::StatusOr<analysis::ModelComparison> fits = analysis::FitBufferModels(sweep);
  ASSERT_TRUE(fits.ok()) << fits.status();
  absl::StatusOr<harness::SimulationFit> fit = harness::FitSimulation(sweep, *fits);
  ASSERT_TRUE(fit.ok()) << fit.status();
  double per_byte = 0;
  ASSERT_TRUE(absl::SimpleAtod(Flag(fit->flags, "sim_per_byte_ns"), &per_byte)) << fit->flags;
  EXPECT_EQ(per_byte, fit->model.per_byte_ns) << fit->flags;
  // More digits than 250.123 (1.8 ns off at 4000 bytes), no more than the replay needs.
  EXPECT_NEAR(per_byte, 250.123456789, 1e-4) << fit->flags;
  EXPECT_LE(Flag(fit->flags, "sim_per_byte_ns").size(), 12u) << fit->flags;
  absl::Duration fixed;
  ASSERT_TRUE(absl::ParseDuration(Flag(fit->flags, "sim_fixed"), &fixed)) << fit->flags;
  EXPECT_EQ(fixed, fit->model.fixed);
  // The residual of the model the flags give, replayed as the binary replays it.
  transport::SimRttModel parsed = fit->model;
  parsed.per_byte_ns = per_byte;
  parsed.fixed = fixed;
  double largest = 0;
  for (const analysis::SweepPoint& point : sweep.points) {
    const double replay = static_cast<double>(
        transport::ModelRttNanos(parsed, static_cast<int64_t>(std::llround(point.size_bytes))));
    largest = std::max(largest, std::fabs(replay - analysis::PointMean(point)));
  }
  EXPECT_DOUBLE_EQ(fit->max_residual, largest);
  // Printed as a bound: never below the largest residual.
  const std::string text = harness::FormatSimulationFit(*fit);
  const size_t at = text.find(" ns RMS, ");
  ASSERT_NE(at, std::string::npos) << text;
  double printed = 0;
  std::string rest = text.substr(at + 9);
  ASSERT_TRUE(absl::SimpleAtod(rest.substr(0, rest.find(' ')), &printed)) << text;
  EXPECT_GE(printed, largest) << text;
}

TEST(SimulationFitTest, AWinnerTheSimulationCannotReplayIsNamedWithTheReason) {
  // A 15 % jump at 2000 bytes: a segmentation wins; the simulation replays the line.
  const std::vector<double> sizes = analysis::EvenSizes(100, 4000, 100);
  const analysis::Sweep sweep = analysis::MakeSweep(
      sizes, [](double n) { return (1500e3 + 250 * n) * (n >= 2000 ? 1.15 : 1); }, {}, 1);
  analysis::ModelFitOptions options;
  options.segmentations = {{2000}};
  absl::StatusOr<analysis::ModelComparison> fits = analysis::FitBufferModels(sweep, options);
  ASSERT_TRUE(fits.ok()) << fits.status();
  ASSERT_EQ(fits->best, analysis::ModelFamily::kSegmented) << fits->verdict;
  absl::StatusOr<harness::SimulationFit> fit = harness::FitSimulation(sweep, *fits);
  ASSERT_TRUE(fit.ok()) << fit.status();
  const std::string text = harness::FormatSimulationFit(*fit);
  EXPECT_THAT(text, HasSubstr("note: the ranking's winner, segmented(cuts at 2000), is not a "
                              "layout the simulation replays"));
  EXPECT_THAT(text, HasSubstr("is replayed instead"));
}

// With the ranking's options, the replayed layout is cross-validated and the report says
// how well it predicts left-out sizes; without them, nothing is claimed.
TEST(SimulationFitTest, OutOfSampleErrorIsReportedWhenOptionsAreGiven) {
  const analysis::Sweep sweep = analysis::MakeSweep(
      analysis::EvenSizes(100, 2000, 100), [](double n) { return 1e6 + 300 * n; }, {}, 1);
  absl::StatusOr<analysis::ModelComparison> fits = analysis::FitBufferModels(sweep);
  ASSERT_TRUE(fits.ok()) << fits.status();
  absl::StatusOr<harness::SimulationFit> plain = harness::FitSimulation(sweep, *fits);
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(plain->out_of_sample, "");
  EXPECT_THAT(harness::FormatSimulationFit(*plain), Not(HasSubstr("out of sample")));
  const analysis::ModelFitOptions options;
  absl::StatusOr<harness::SimulationFit> checked = harness::FitSimulation(sweep, *fits, &options);
  ASSERT_TRUE(checked.ok()) << checked.status();
  EXPECT_THAT(checked->out_of_sample,
              HasSubstr("leave-one-out error (20 sizes), RMS of the left-out sizes' relative "
                        "errors: straight line 0%"));
  EXPECT_THAT(harness::FormatSimulationFit(*checked), HasSubstr("  out of sample: leave-one-out"));
}

}  // namespace
}  // namespace tickbench
