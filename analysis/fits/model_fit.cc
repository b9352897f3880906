#include "analysis/fits/model_fit.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <set>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analysis/fits/least_squares.h"
#include "analysis/fits/model_ranges.h"
#include "analysis/fits/model_screen.h"
#include "analysis/steps/noise_model.h"
#include "platform/stop_signal.h"

namespace tickbench::analysis {
namespace {

// Two candidates tie when their RSS agree to this relative precision: identical columns give
// identical sums up to round-off, ~1e-13 of the sum.
constexpr double kTieTolerance = 1e-9;

using model_fit_internal::Dot;
using model_fit_internal::FamilyScreen;
using model_fit_internal::Inputs;
using model_fit_internal::LineBasis;
using model_fit_internal::MakeLineBasis;
using model_fit_internal::ProfileRanges;
using model_fit_internal::Scored;
using model_fit_internal::ScreenLayouts;

// A chosen candidate with its costs (QR on the columns its screen kept).
struct FamilyResult {
  FamilyFit fit;
  std::vector<double> covariance;  // unscaled (XᵀWX)⁻¹ over all costs; 0 for a cost fixed at 0
  bool scale_known = false;
};

bool FitCosts(const Inputs& in, const BufferModel& model, unsigned keep, bool all_columns,
              FamilyResult* result) {
  FamilyFit& fit = result->fit;
  const std::vector<std::vector<double>> all = DesignColumns(model, in.sizes);
  std::vector<std::vector<double>> columns = {all[0], all[1]};
  std::vector<size_t> index = {0, 1};
  for (size_t k = 0; k + 2 < all.size(); ++k) {
    if (!all_columns && !(keep & (1u << k))) continue;
    columns.push_back(all[2 + k]);
    index.push_back(2 + k);
  }
  absl::StatusOr<LeastSquaresFit> ls = WeightedLeastSquares(columns, in.means, in.weights);
  if (!ls.ok()) return false;
  const size_t q = columns.size();
  fit.weighted_rss = ls->weighted_rss;
  fit.costs.assign(all.size(), 0);
  result->covariance.assign(all.size() * all.size(), 0);
  for (size_t a = 0; a < q; ++a) {
    fit.costs[index[a]] = ls->coefficients[a];
    for (size_t b = 0; b < q; ++b) {
      result->covariance[index[a] * all.size() + index[b]] = ls->covariance[a * q + b];
    }
  }
  fit.r_squared = in.total_weighted_ss > 0 ? 1 - fit.weighted_rss / in.total_weighted_ss : 1;
  return true;
}

struct Form {
  bool scale_known = false;
  double scale_df = 0;
};

double Bic(const Inputs& in, const Form& form, double rss, int costs, int discrete) {
  return CriterionBic(rss, static_cast<double>(in.sizes.size()), costs, discrete, form.scale_known,
                      form.scale_df, in.rss_floor);
}

// The family's reported candidate under one form of the criterion: the most plausible within
// range_delta_bic of the best (then the best BIC), its costs, and the ranges.
// The number of screened candidates other than `chosen` whose RSS ties the chosen one's.
int TiedCandidates(const FamilyScreen& screen, size_t chosen, double rss_floor) {
  int tied = 0;
  const double chosen_rss = std::max(screen.fits[chosen].screened.rss, 0.0);
  for (size_t i = 0; i < screen.fits.size(); ++i) {
    if (i != chosen && std::fabs(std::max(screen.fits[i].screened.rss, 0.0) - chosen_rss) <=
                           kTieTolerance * std::max(chosen_rss, rss_floor)) {
      ++tied;
    }
  }
  return tied;
}

// Appends to fit.ranges the range of each size parameter over the candidates in range.
void AppendRanges(ModelFamily family, const std::set<int64_t>& c_values,
                  const std::set<int64_t>& t_values, const std::set<int64_t>& s_values,
                  const std::set<int64_t>& mtu_values, FamilyFit& fit) {
  const bool chunk_like =
      family == ModelFamily::kFixedChunks || family == ModelFamily::kChunksFragments;
  for (const auto& [name, values] :
       {std::pair<const char*, const std::set<int64_t>*>{chunk_like ? "chunk" : "C", &c_values},
        {"t", &t_values},
        {"s", &s_values},
        {"MTU", &mtu_values}}) {
    if (values->empty()) continue;
    ParameterRange range;
    range.name = name;
    range.values.assign(values->begin(), values->end());
    range.low = range.values.front();
    range.high = range.values.back();
    fit.ranges.push_back(std::move(range));
  }
}

FamilyResult Choose(const FamilyScreen& screen, const Inputs& in, const Form& form,
                    const ModelFitOptions& options) {
  FamilyResult result;
  FamilyFit& fit = result.fit;
  fit.model.family = screen.family;
  fit.cost_names = CostNames(screen.family);
  fit.candidates = screen.candidates;
  fit.rejected_degenerate = screen.rejected_degenerate;
  fit.rejected_negative_cost = screen.rejected_negative_cost;
  result.scale_known = form.scale_known;
  if (screen.fits.empty()) return result;
  const int costs = static_cast<int>(fit.cost_names.size());
  const int discrete = DiscreteParameterCount(screen.family);
  std::vector<double> bics;
  double best = std::numeric_limits<double>::infinity();
  for (const Scored& s : screen.fits) {
    bics.push_back(Bic(in, form, std::max(s.screened.rss, 0.0), costs, discrete));
    best = std::min(best, bics.back());
  }
  size_t chosen = 0;
  bool have = false;
  std::set<int64_t> c_values, t_values, s_values, mtu_values;
  for (size_t i = 0; i < screen.fits.size(); ++i) {
    if (!(bics[i] <= best + options.range_delta_bic)) continue;
    ++fit.candidates_in_range;
    const BufferModel& m = screen.fits[i].model;
    if (m.cluster_bytes > 0) c_values.insert(m.cluster_bytes);
    if (m.threshold_bytes > 0) t_values.insert(m.threshold_bytes);
    if (m.small_bytes > 0) s_values.insert(m.small_bytes);
    if (m.mtu_bytes > 0) mtu_values.insert(m.mtu_bytes);
    const BufferModel& current = screen.fits[chosen].model;
    if (!have || ImplausibleSizes(m) < ImplausibleSizes(current) ||
        (ImplausibleSizes(m) == ImplausibleSizes(current) && bics[i] < bics[chosen])) {
      chosen = i;
      have = true;
    }
  }
  fit.tied_candidates += TiedCandidates(screen, chosen, in.rss_floor);
  AppendRanges(screen.family, c_values, t_values, s_values, mtu_values, fit);
  fit.best_candidate_bic = best;
  fit.model = screen.fits[chosen].model;
  fit.cost_names = CostNames(fit.model);  // kExcursion's name its sizes
  if (!FitCosts(in, fit.model, screen.fits[chosen].screened.keep, false, &result)) {
    ++fit.rejected_degenerate;  // screening and QR disagree on the rank: treat as degenerate
    return result;
  }
  fit.fitted = true;
  return result;
}

// kSegmented: each given segmentation fitted by QR, the best BIC reported.
FamilyResult ChooseSegmentation(const Inputs& in, const Form& form, const ModelFitOptions& options,
                                std::vector<double>* bics) {
  bics->assign(options.segmentations.size(), std::numeric_limits<double>::quiet_NaN());
  size_t index = 0;
  FamilyResult best;
  best.fit.model.family = ModelFamily::kSegmented;
  best.fit.cost_names = CostNames(ModelFamily::kSegmented);
  for (const std::vector<double>& cuts : options.segmentations) {
    const size_t this_index = index++;
    if (cuts.empty()) continue;
    ++best.fit.candidates;
    FamilyResult candidate;
    candidate.fit.model.family = ModelFamily::kSegmented;
    candidate.fit.model.cut_sizes = cuts;
    if (2 + 2 * cuts.size() + 2 > in.sizes.size() ||
        !FitCosts(in, candidate.fit.model, 0, true, &candidate)) {
      ++best.fit.rejected_degenerate;
      continue;
    }
    candidate.fit.bic =
        Bic(in, form, candidate.fit.weighted_rss, static_cast<int>(candidate.fit.costs.size()),
            static_cast<int>(cuts.size()));
    (*bics)[this_index] = candidate.fit.bic;
    if (best.fit.fitted && !(candidate.fit.bic < best.fit.bic)) continue;
    candidate.fit.fitted = true;
    candidate.fit.candidates = best.fit.candidates;
    candidate.fit.rejected_degenerate = best.fit.rejected_degenerate;
    candidate.fit.cost_names = CostNames(candidate.fit.model);
    candidate.fit.best_candidate_bic = candidate.fit.bic;
    candidate.fit.candidates_in_range = 1;
    best = std::move(candidate);
  }
  best.fit.candidates = static_cast<int>(options.segmentations.size());
  return best;
}

// Fills parameters, bic, cost_stderrs, cost_covariance and cost_rounding_bounds of a fitted
// family.
void Score(FamilyResult* family, const Inputs& in, const Form& form) {
  FamilyFit& out = family->fit;
  const double n = static_cast<double>(in.sizes.size());
  const int costs = static_cast<int>(out.costs.size());
  const int discrete = DiscreteParameterCount(out.model);
  out.parameters = costs + discrete + (form.scale_known ? 0 : 1);
  out.bic = Bic(in, form, out.weighted_rss, costs, discrete);
  const double scale =
      form.scale_known ? 1 : std::max(out.weighted_rss, in.rss_floor) / std::max(n - costs, 1.0);
  out.cost_degrees_of_freedom = !form.scale_known   ? std::max(n - costs, 1.0)
                                : form.scale_df > 0 ? form.scale_df
                                                    : std::numeric_limits<double>::infinity();
  out.cost_stderrs.clear();
  out.cost_covariance.clear();
  for (size_t a = 0; a < out.costs.size(); ++a) {
    out.cost_stderrs.push_back(std::sqrt(scale * family->covariance[a * costs + a]));
  }
  for (double c : family->covariance) out.cost_covariance.push_back(scale * c);
  out.cost_rounding_bounds = RoundingBounds(out.model, family->covariance, in);
}

// The fitted layout families' ranges from the fine profiles of their sizes, under the
// criterion's final form.
void ProfileFamilies(const std::vector<FamilyScreen>& screens, const Inputs& in,
                     const LineBasis& basis, const Form& form, const ModelFitOptions& options,
                     std::vector<FamilyFit>& families) {
  for (size_t f = 0; f < screens.size() && f < families.size(); ++f) {
    FamilyFit& fit = families[f];
    if (!fit.fitted || fit.ranges.empty()) continue;  // the line, kSegmented, kExcursion
    const int costs = static_cast<int>(CostNames(fit.model.family).size());
    const int discrete = DiscreteParameterCount(fit.model.family);
    ProfileRanges(
        screens[f], in, basis, [&](double rss) { return Bic(in, form, rss, costs, discrete); },
        options.range_delta_bic, fit);
  }
}

std::string Verdict(const ModelComparison& c, double threshold) {
  const FamilyFit& best = c.best_fit();
  if (!c.beats_line) {
    if (c.best == ModelFamily::kLinear) return "no model beats the straight line";
    return absl::StrFormat("no model beats the straight line: %s is better by only ΔBIC %s < %.0f",
                           DescribeModel(best.model), FormatDeltaBic(c.delta_bic_linear),
                           threshold);
  }
  const FamilyFit& runner = c.families[static_cast<int>(c.runner_up)];
  if (c.delta_bic_runner_up < threshold) {
    return absl::StrFormat(
        "undecided: %s beats the straight line by ΔBIC %s, but %s is within ΔBIC %s < %.0f",
        DescribeModel(best.model), FormatDeltaBic(c.delta_bic_linear), DescribeModel(runner.model),
        FormatDeltaBic(c.delta_bic_runner_up), threshold);
  }
  return absl::StrFormat("%s explains the sweep: ΔBIC %s over the straight line, %s over %s",
                         DescribeModel(best.model), FormatDeltaBic(c.delta_bic_linear),
                         FormatDeltaBic(c.delta_bic_runner_up), DescribeModel(runner.model));
}

// The weighted inputs of the fits: sizes, means, weights 1 / variance of each mean.
Inputs MakeInputs(const Sweep& sweep, const NoiseModel& noise) {
  Inputs in{Sizes(sweep), Means(sweep), {}, {}};
  for (double variance : noise.mean_variance) in.weights.push_back(1 / variance);
  for (const SweepPoint& point : sweep.points) in.resolutions.push_back(point.resolution);
  const double weighted_mean =
      Dot(in.weights, in.means) / std::accumulate(in.weights.begin(), in.weights.end(), 0.0);
  for (size_t i = 0; i < in.means.size(); ++i) {
    in.total_weighted_ss += in.weights[i] * std::pow(in.means[i] - weighted_mean, 2);
  }
  in.rss_floor = std::max(1e-12 * in.total_weighted_ss, 1e-300);
  return in;
}

// The best family of `order` (ranked by BIC), after a family that contains another (BSD +
// fragments contains BSD) must beat it by `strong_delta_bic` to be preferred.
int PreferContained(const std::vector<int>& order, const std::vector<FamilyFit>& families,
                    double strong_delta_bic) {
  int best = order[0];
  for (bool changed = true; changed;) {
    changed = false;
    for (int f : order) {
      if (f == best || f == 0 ||
          !FamilyContains(static_cast<ModelFamily>(best), static_cast<ModelFamily>(f))) {
        continue;
      }
      if (families[f].bic - families[best].bic < strong_delta_bic) {
        best = f;
        changed = true;
        break;
      }
    }
  }
  return best;
}

// The first family after the best in `order` that neither contains nor is contained by
// `best`; `best` when there is none.
ModelFamily RunnerUp(const std::vector<int>& order, ModelFamily best) {
  // Every family contains the line: where the line is best, the runner-up is the next
  // in the ranking, whatever it contains (not the line itself, 0 below it).
  if (best == ModelFamily::kLinear) {
    return order.size() > 1 ? static_cast<ModelFamily>(order[1]) : best;
  }
  for (size_t i = 1; i < order.size(); ++i) {
    if (FamilyContains(static_cast<ModelFamily>(order[i]), best) ||
        FamilyContains(best, static_cast<ModelFamily>(order[i]))) {
      continue;
    }
    return static_cast<ModelFamily>(order[i]);
  }
  return best;
}

}  // namespace

double CriterionBic(double weighted_rss, double n, int costs, int discrete, bool scale_known,
                    double scale_df, double rss_floor) {
  if (scale_known) {
    // χ² + k·ln(n) with the variance known, k = costs + discrete parameters, and the
    // degrees-of-freedom correction of the step detector: ν·(exp(k·ln(n)/ν) − 1).
    const double penalty = (costs + discrete) * std::log(n);
    return weighted_rss + (std::isfinite(scale_df) && scale_df > 0
                               ? scale_df * std::expm1(penalty / scale_df)
                               : penalty);
  }
  // n·ln(RSS/n) + k·ln(n) with the scale profiled out, k counting the scale too, times AICc's
  // small-sample factor n / (n − p − 2) (Hurvich & Tsai, Biometrika 76(2), 1989).
  const double k = costs + discrete + 1;
  const double room = std::max(n - costs - 2, 0.5);
  return n * std::log(std::max(weighted_rss, rss_floor) / n) + k * std::log(n) * n / room;
}

absl::StatusOr<ModelComparison> FitBufferModels(const Sweep& sweep,
                                                const ModelFitOptions& options) {
  if (absl::Status valid = ValidateSweep(sweep); !valid.ok()) return valid;
  if (sweep.points.size() < 7) {
    return absl::InvalidArgumentError(
        absl::StrFormat("model fits need at least 7 sizes, the sweep has %d", sweep.points.size()));
  }
  absl::StatusOr<NoiseModel> noise = EstimateNoise(sweep);
  if (!noise.ok()) return noise.status();
  const Inputs in = MakeInputs(sweep, *noise);
  const LineBasis basis = MakeLineBasis(in);
  const std::vector<FamilyScreen> screens = ScreenLayouts(in, basis, options);
  ModelComparison result;
  // Rank the fitted families by BIC; the line always fits (two distinct sizes at least).
  auto rank = [&](const Form& form) {
    result.families.clear();
    std::vector<int> order;
    for (size_t f = 0; f < screens.size(); ++f) {
      FamilyResult family = screens[f].family == ModelFamily::kSegmented
                                ? ChooseSegmentation(in, form, options, &result.segmentation_bics)
                                : Choose(screens[f], in, form, options);
      if (family.fit.fitted) {
        Score(&family, in, form);
        order.push_back(static_cast<int>(f));
      }
      result.families.push_back(std::move(family.fit));
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return result.families[a].bic < result.families[b].bic; });
    return order;
  };
  result.variance_from_runs = noise->source == NoiseModel::Source::kRunSpread;
  Form form{result.variance_from_runs, result.variance_from_runs
                                           ? noise->degrees_of_freedom
                                           : std::numeric_limits<double>::infinity()};
  std::vector<int> order = rank(form);
  if (order.empty()) return absl::FailedPreconditionError("not even a straight line fits");
  if (result.variance_from_runs) {
    const FamilyFit& best = result.families[order[0]];
    const double df = static_cast<double>(in.sizes.size() - best.costs.size());
    if (ScatterExceedsRunSpread(best.weighted_rss, df, noise->degrees_of_freedom)) {
      result.variance_from_runs = false;
      order = rank(form = Form{false, 0});
    }
  }
  if (options.fine_ranges) ProfileFamilies(screens, in, basis, form, options, result.families);
  TICKBENCH_RETURN_IF_STOPPED("fitting buffer layouts");  // the screens stopped short
  // A family that contains another (BSD + fragments contains BSD) must beat it by the
  // verdict's margin to be preferred: its extra mechanism needs strong evidence too.
  const int best = PreferContained(order, result.families, options.strong_evidence_delta_bic);
  std::stable_partition(order.begin(), order.end(), [&](int f) { return f == best; });
  result.best = static_cast<ModelFamily>(best);
  result.runner_up = RunnerUp(order, result.best);
  const double best_bic = result.families[best].bic;
  result.delta_bic_runner_up = result.families[static_cast<int>(result.runner_up)].bic - best_bic;
  result.delta_bic_linear = result.families[0].bic - best_bic;
  result.beats_line = result.delta_bic_linear >= options.strong_evidence_delta_bic;
  result.verdict = Verdict(result, options.strong_evidence_delta_bic);
  return result;
}

std::string FormatDeltaBic(double delta_bic) {
  return std::fabs(delta_bic) < 1000 ? absl::StrFormat("%.1f", delta_bic)
                                     : absl::StrFormat("%.3g", delta_bic);
}

}  // namespace tickbench::analysis
