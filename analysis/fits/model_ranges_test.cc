// The ranges of the size parameters from fine profiles (analysis/fits/model_fit.h, "Ranges"):
// on noiseless tables a value fits exactly when its layout counts the same buffers at every
// measured size as the truth's, so each range is checked against that, computed here by
// brute force.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "analysis/fits/model_fit.h"
#include "analysis/models/synthetic_sweep.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::analysis {
namespace {

using ::testing::HasSubstr;

const ParameterRange* Find(const FamilyFit& fit, const std::string& name) {
  for (const ParameterRange& range : fit.ranges) {
    if (range.name == name) return &range;
  }
  return nullptr;
}

// The spans of the values v in [low, high] (every `step`) whose model, `with(v)`, has the
// same count columns as `truth` at every size.
std::vector<std::pair<int64_t, int64_t>> SameColumns(
    const BufferModel& truth, const std::vector<double>& sizes, int64_t low, int64_t high,
    int64_t step, const std::function<BufferModel(int64_t)>& with) {
  const std::vector<std::vector<double>> want = DesignColumns(truth, sizes);
  std::vector<std::pair<int64_t, int64_t>> spans;
  bool open = false;
  for (int64_t v = low; v <= high; v += step) {
    const bool same = DesignColumns(with(v), sizes) == want;
    if (same && open) spans.back().second = v;
    if (same && !open) spans.push_back({v, v});
    open = same;
  }
  return spans;
}

std::vector<std::pair<int64_t, int64_t>> Spans(const ParameterRange& range) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const ParameterSpan& span : range.spans) out.push_back({span.low, span.high});
  return out;
}

const BufferModel kClassicBsd{ModelFamily::kBsdSocket, 1024, 512, 112, 0};
const std::vector<double> kBsdCosts = {1.5e6, 250, 300e3, 150e3};

// s every byte over 16..min(C − 1, 512): on the classic table's 11 sizes exactly the s that
// count the same small buffers as 112 fit (109–116), the reported s is 112, and the range
// covers a small share of the grid, so it is determined.
TEST(ModelRangesTest, FineProfileOfSHoldsExactlyTheValuesThatCountTheSameBuffers) {
  const std::vector<double> sizes = ClassicTableSizes();
  const Sweep sweep = MakeSweep(sizes, LayoutTruth(kClassicBsd, kBsdCosts), {}, 1);
  const absl::StatusOr<ModelComparison> fits = FitBufferModels(sweep);
  ASSERT_TRUE(fits.ok()) << fits.status();
  ASSERT_EQ(fits->best, ModelFamily::kBsdSocket) << fits->verdict;
  const FamilyFit& bsd = fits->best_fit();
  EXPECT_EQ(bsd.model.small_bytes, 112);
  const ParameterRange* s = Find(bsd, "s");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->profiled);
  EXPECT_EQ(s->grid_low, 16);
  EXPECT_EQ(s->grid_high, 512);
  EXPECT_EQ(s->grid_step, 1);
  const auto want = SameColumns(kClassicBsd, sizes, 16, 512, 1, [](int64_t v) {
    BufferModel m = kClassicBsd;
    m.small_bytes = v;
    return m;
  });
  EXPECT_EQ(Spans(*s), want);
  EXPECT_EQ(want, (std::vector<std::pair<int64_t, int64_t>>{{109, 116}}));
  EXPECT_EQ(s->low, 109);
  EXPECT_EQ(s->high, 116);
  EXPECT_TRUE(s->determined);
  EXPECT_LT(s->share, 0.05);
  EXPECT_EQ(DescribeRanges(bsd), "C=1024, t=512, s in 109–116");
}

// C every 8 bytes, t following it by the chosen divisor: t's range is C's divided by it.
TEST(ModelRangesTest, TheThresholdFollowsTheClusterByTheChosenDivisor) {
  const std::vector<double> sizes = EvenSizes(64, 4096, 64);
  const Sweep sweep = MakeSweep(sizes, LayoutTruth(kClassicBsd, kBsdCosts), {}, 1);
  const absl::StatusOr<ModelComparison> fits = FitBufferModels(sweep);
  ASSERT_TRUE(fits.ok()) << fits.status();
  const FamilyFit& bsd = fits->families[static_cast<int>(ModelFamily::kBsdSocket)];
  const ParameterRange* c = Find(bsd, "C");
  const ParameterRange* t = Find(bsd, "t");
  ASSERT_NE(c, nullptr);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(c->grid_low, 64);
  EXPECT_EQ(c->grid_step, 8);
  EXPECT_EQ(c->grid_high, 2 * 4096 + 8);  // t = C / 2 stays within the sizes' reach
  ASSERT_EQ(t->spans.size(), c->spans.size());
  for (size_t i = 0; i < c->spans.size(); ++i) {
    EXPECT_EQ(t->spans[i].low, c->spans[i].low / 2);
    EXPECT_EQ(t->spans[i].high, c->spans[i].high / 2);
  }
  EXPECT_EQ(Spans(*c), SameColumns(kClassicBsd, sizes, 64, 2 * 4096 + 8, 8, [](int64_t v) {
              BufferModel m = kClassicBsd;
              m.cluster_bytes = v;
              m.threshold_bytes = v / 2;
              return m;
            }));
}

// An MTU every byte: on 100-byte steps the first fragment boundary is known to 100 bytes,
// and every MTU that packs the sizes as 1500 does fits: several spans.
TEST(ModelRangesTest, FineProfileOfTheMtuHoldsEveryMtuThatPacksTheSizesAlike) {
  const BufferModel truth{ModelFamily::kIpv4Fragments, 0, 0, 0, 1500};
  const std::vector<double> sizes = EvenSizes(100, 4000, 100);
  const Sweep sweep = MakeSweep(sizes, LayoutTruth(truth, {1e6, 250, 400e3}), {}, 1);
  const absl::StatusOr<ModelComparison> fits = FitBufferModels(sweep);
  ASSERT_TRUE(fits.ok()) << fits.status();
  const FamilyFit& fragments = fits->families[static_cast<int>(ModelFamily::kIpv4Fragments)];
  const ParameterRange* mtu = Find(fragments, "MTU");
  ASSERT_NE(mtu, nullptr);
  EXPECT_EQ(mtu->grid_low, 68);
  EXPECT_EQ(mtu->grid_high, 4000 + 28 + 8);
  const auto want = SameColumns(truth, sizes, 68, 4036, 1, [&](int64_t v) {
    BufferModel m = truth;
    m.mtu_bytes = v;
    return m;
  });
  EXPECT_EQ(Spans(*mtu), want);
  EXPECT_LE(mtu->low, 1500);
  EXPECT_GE(mtu->high, 1500);
  EXPECT_TRUE(mtu->determined);
}

// The fine profile describes the ranges only: the reported candidate, its BIC, the ranking
// and the verdict are the coarse grid's, and with fine_ranges off the ranges are the coarse
// candidates' spans as before.
TEST(ModelRangesTest, TheReportedCandidateAndRankingAreTheCoarseGrids) {
  NoiseSpec noise;
  noise.relative_sd = 0.01;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const Sweep sweep =
        MakeSweep(ClassicTableSizes(), LayoutTruth(kClassicBsd, kBsdCosts), noise, seed);
    ModelFitOptions coarse;
    coarse.fine_ranges = false;
    const absl::StatusOr<ModelComparison> fine_fit = FitBufferModels(sweep);
    const absl::StatusOr<ModelComparison> coarse_fit = FitBufferModels(sweep, coarse);
    ASSERT_TRUE(fine_fit.ok() && coarse_fit.ok());
    EXPECT_EQ(fine_fit->best, coarse_fit->best);
    EXPECT_EQ(fine_fit->verdict, coarse_fit->verdict);
    for (size_t f = 0; f < fine_fit->families.size(); ++f) {
      EXPECT_EQ(DescribeModel(fine_fit->families[f].model),
                DescribeModel(coarse_fit->families[f].model));
      EXPECT_EQ(fine_fit->families[f].bic, coarse_fit->families[f].bic);
      for (const ParameterRange& range : coarse_fit->families[f].ranges) {
        EXPECT_FALSE(range.profiled);
        EXPECT_TRUE(range.spans.empty());
      }
    }
  }
  const Sweep exact = MakeSweep(ClassicTableSizes(), LayoutTruth(kClassicBsd, kBsdCosts), {}, 1);
  ModelFitOptions coarse;
  coarse.fine_ranges = false;
  const absl::StatusOr<ModelComparison> fit = FitBufferModels(exact, coarse);
  ASSERT_TRUE(fit.ok());
  EXPECT_EQ(DescribeRanges(fit->best_fit()), "C=1024, t=512, s=112");
}

// A span is a run of neighbouring tried values; low and high are the overall extremes; a
// parameter is determined exactly when at most half of what was tried fits.
TEST(ModelRangesTest, SpansAreOrderedRunsAndDeterminedMeansAtMostHalfFits) {
  NoiseSpec noise;
  noise.relative_sd = 0.01;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const Sweep sweep =
        MakeSweep(ClassicTableSizes(), LayoutTruth(kClassicBsd, kBsdCosts), noise, seed);
    const absl::StatusOr<ModelComparison> fits = FitBufferModels(sweep);
    ASSERT_TRUE(fits.ok());
    for (const FamilyFit& family : fits->families) {
      for (const ParameterRange& range : family.ranges) {
        ASSERT_TRUE(range.profiled) << FamilyName(family.model.family);
        ASSERT_FALSE(range.spans.empty()) << range.name;  // the own profile's best fits
        EXPECT_EQ(range.low, range.spans.front().low);
        EXPECT_EQ(range.high, range.spans.back().high);
        for (size_t i = 0; i < range.spans.size(); ++i) {
          EXPECT_LE(range.spans[i].low, range.spans[i].high);
          if (i > 0) EXPECT_LT(range.spans[i - 1].high + range.grid_step - 1, range.spans[i].low);
        }
        EXPECT_EQ(range.determined, range.share <= 0.5);
      }
    }
  }
}

FamilyFit WithRange(ParameterRange range, int64_t small_bytes) {
  FamilyFit fit;
  fit.model = {ModelFamily::kBsdSocket, 1024, 512, small_bytes, 0};
  range.profiled = true;
  fit.ranges.push_back(std::move(range));
  return fit;
}

TEST(ModelRangesTest, DescribeRangesListsSpansAndSaysWhatIsNotDetermined) {
  ParameterRange s;
  s.name = "s";
  s.spans = {{56, 58}, {69, 77}, {92, 116}, {138, 155}};
  s.low = 56;
  s.high = 155;
  s.grid_low = 16;
  s.grid_high = 512;
  s.share = 0.1;
  EXPECT_EQ(DescribeRanges(WithRange(s, 112)), "s in 56–58, 69–77, 92–116, 138–155");
  EXPECT_EQ(DescribeRanges(WithRange(s, 120)),
            "s in 56–58, 69–77, 92–116, 138–155, not the reported 120");
  s.spans = {{20, 20}, {30, 31}, {40, 41}, {50, 51}, {60, 61}, {70, 71}, {80, 81}, {90, 91}};
  EXPECT_THAT(DescribeRanges(WithRange(s, 20)),
              HasSubstr("s in 20, 30–31, 40–41, 50–51, 60–61, 70–71 and 2 more spans"));
  s.determined = false;
  s.share = 0.93;
  EXPECT_EQ(DescribeRanges(WithRange(s, 112)), "s not determined by the data (93% of 16–512 fits)");
}

}  // namespace
}  // namespace tickbench::analysis
