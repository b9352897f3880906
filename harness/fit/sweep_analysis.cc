#include "harness/fit/sweep_analysis.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "analysis/fits/model_fit.h"
#include "harness/fit/step_lines.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {

analysis::Sweep RttSweepFromRecords(const std::vector<RunRecord>& records) {
  std::map<size_t, analysis::SweepPoint> by_size;
  for (const RunRecord& r : records) {
    if (!r.valid() || !std::isfinite(r.averaged_rtt_ns)) continue;
    analysis::SweepPoint& point = by_size[r.size_bytes];
    point.values.push_back(r.averaged_rtt_ns);
    // The largest T/N of the size's runs, as the CSV reader takes averaged_quantum_ns.
    if (std::isfinite(r.quantum_ns)) point.quantum = std::max(point.quantum, r.quantum_ns);
  }
  analysis::Sweep sweep;
  sweep.value_name = "averaged_rtt_ns";
  sweep.unit = "ns";
  for (auto& [size, point] : by_size) {
    point.size_bytes = static_cast<double>(size);
    sweep.points.push_back(std::move(point));
  }
  return sweep;
}

namespace {

// The steps a layout implies, with z ≥ 3, where the detector reported none.
void AddImpliedSteps(const analysis::Sweep& sweep, const analysis::SizeFacts& facts,
                     SweepAnalysis* result) {
  if (!result->fits.ok() || !result->fits->beats_line) return;
  // An excursion's two edges are one dip, reported as such (AppendExcursion).
  if (result->fits->best == analysis::ModelFamily::kExcursion) return;
  std::vector<int> detected;
  if (result->steps.ok()) {
    for (const analysis::Step& step : result->steps->steps) detected.push_back(step.index_after);
  }
  for (const analysis::ImpliedStep& implied :
       analysis::ImpliedSteps(sweep, result->fits->best_fit())) {
    if (std::find(detected.begin(), detected.end(), implied.index_after) != detected.end()) {
      continue;
    }
    analysis::Step as_step;
    as_step.size_before = implied.size_before;
    as_step.size_after = implied.size_after;
    result->implied_steps.push_back(implied);
    result->implied_causes.push_back(analysis::CandidateCauses(as_step, facts, 0.05));
  }
}

// Whether the detector's chosen segmentation beats the line by the verdict's margin under
// the ranking's criterion (one BIC and noise estimate for steps and layouts alike).
void JudgeDetectedSteps(const analysis::Sweep& sweep, const analysis::ModelFitOptions& options,
                        SweepAnalysis* result) {
  if (!result->steps.ok() || result->steps->steps.empty() || !result->fits.ok()) return;
  std::vector<double> cuts;  // the first size of every segment but the first
  const std::vector<analysis::Segment>& segments = result->steps->segments;
  for (size_t i = 1; i < segments.size(); ++i) {
    cuts.push_back(sweep.points[segments[i].first].size_bytes);
  }
  const std::vector<double>& bics = result->fits->segmentation_bics;
  double bic = std::numeric_limits<double>::quiet_NaN();
  for (size_t k = 0; k < options.segmentations.size() && k < bics.size(); ++k) {
    if (options.segmentations[k] == cuts) bic = bics[k];
  }
  result->steps_delta_bic = result->fits->families[0].bic - bic;
  // NaN (the segmentation was not ranked) is not established either.
  result->steps_established = result->steps_delta_bic >= options.strong_evidence_delta_bic;
}

}  // namespace

std::string FormatFittedCost(const analysis::FamilyFit& family, size_t i) {
  const double se = family.cost_stderrs[i];
  // The noise's interval, widened by what rounding the inputs to their printed resolution
  // can move the cost (analysis::FamilyFit::cost_rounding_bounds).
  const double rounding =
      i < family.cost_rounding_bounds.size() && se > 0 ? family.cost_rounding_bounds[i] : 0;
  const double half_width = family.cost_degrees_of_freedom > 0
                                ? timing::StudentTQuantile((1 + timing::kConfidence95) / 2,
                                                           family.cost_degrees_of_freedom) *
                                          se +
                                      rounding
                                : std::numeric_limits<double>::quiet_NaN();
  if (!(half_width > 0) || !std::isfinite(half_width)) {  // fixed at 0, or no interval
    return absl::StrFormat("%s %.4g", family.cost_names[i], family.costs[i]);
  }
  return absl::StrCat(family.cost_names[i], " ",
                      timing::FormatWithHalfWidth(family.costs[i], half_width),
                      std::fabs(family.costs[i]) <= half_width ? " (interval includes 0)" : "");
}

namespace {

std::string FormatRanking(const analysis::ModelComparison& fit) {
  std::string text = absl::StrFormat(
      "Buffer layouts and segmentations, ranked by BIC (%s; a model explains the sweep when it "
      "beats the straight line by a BIC of 6 or more; each size as the range within ΔBIC 2 "
      "of the best, C every 8 bytes, s and MTU every byte, the others held; costs ± the "
      "half-width of their 95%% interval, Student t on the noise's degrees of freedom):\n",
      fit.variance_from_runs ? "noise from the spread across runs" : "noise from the residuals");
  std::vector<const analysis::FamilyFit*> fitted;
  for (const analysis::FamilyFit& family : fit.families) {
    if (family.fitted) fitted.push_back(&family);
  }
  std::stable_sort(fitted.begin(), fitted.end(),
                   [](const auto* a, const auto* b) { return a->bic < b->bic; });
  for (const analysis::FamilyFit* family : fitted) {
    std::vector<std::string> costs;
    for (size_t i = 0; i < family->costs.size(); ++i) {
      costs.push_back(FormatFittedCost(*family, i));
    }
    const std::string ranges = analysis::DescribeRanges(*family);
    absl::StrAppendFormat(&text, "  %-44s BIC %9.1f  R^2 %.4f  %s%s\n",
                          analysis::DescribeModel(family->model), family->bic, family->r_squared,
                          absl::StrJoin(costs, ", "),
                          ranges.empty() ? "" : absl::StrCat("; ", ranges));
  }
  absl::StrAppendFormat(&text, "  => %s (BIC %s below the runner-up, %s below the line)\n",
                        fit.verdict, analysis::FormatDeltaBic(fit.delta_bic_runner_up),
                        analysis::FormatDeltaBic(fit.delta_bic_linear));
  return text;
}

// The winner's out-of-sample check (analysis/fits/cross_validation.h) and what it decides: the
// winner is called the explanation only when it beats the line by the verdict's margin and
// predicts left-out sizes better than the line and the neighbours' interpolation; where it
// does not, the ranking's verdict says so in place of "explains".
// The fit's options from the data: the detector's cut positions and step sizes (when it
// found steps) and the system's sizes.
analysis::ModelFitOptions FitOptionsOf(const absl::StatusOr<analysis::StepDetection>& steps,
                                       const analysis::SizeFacts& facts, bool explain) {
  analysis::ModelFitOptions options;
  options.fine_ranges = explain;  // only the ranking --explain prints shows the ranges
  if (steps.ok()) {
    for (const analysis::Step& step : steps->steps) {
      options.extra_sizes.push_back(step.size_before);
      options.extra_sizes.push_back(step.size_after);
    }
    options.segmentations = steps->segmentations;
  }
  for (const analysis::SizeFact& fact : facts) options.extra_sizes.push_back(fact.size_bytes);
  return options;
}

// Each fold's steps found again without its left-out sizes: nothing chosen from the data
// has seen what it predicts.
std::string CheckOutOfSample(const analysis::Sweep& sweep, const analysis::SizeFacts& facts,
                             SweepAnalysis* result) {
  result->cross_validation = analysis::CrossValidateWholeChoice(
      sweep, result->fits->best, [&facts](const analysis::Sweep& kept) {
        return FitOptionsOf(analysis::DetectSteps(kept), facts, /*explain=*/false);
      });
  if (!result->cross_validation.ok()) {
    return absl::StrCat("  out of sample: not checked (",
                        result->cross_validation.status().message(), ")\n");
  }
  result->explanation_holds =
      analysis::ConfirmOutOfSample(*result->cross_validation, *result->fits);
  return absl::StrCat(
      "  out of sample: ", analysis::FormatCrossValidation(*result->cross_validation), "\n");
}

}  // namespace

SweepAnalysis AnalyzeSweep(const analysis::Sweep& sweep, const analysis::SizeFacts& facts,
                           bool explain) {
  SweepAnalysis result;
  result.steps = analysis::DetectSteps(sweep);
  if (result.steps.ok()) {
    for (const analysis::Step& step : result.steps->steps) {
      // A fact within 5% of either side counts as "next to" the step.
      result.causes.push_back(analysis::CandidateCauses(step, facts, 0.05));
    }
  }
  const analysis::ModelFitOptions options = FitOptionsOf(result.steps, facts, explain);
  result.fits = analysis::FitBufferModels(sweep, options);
  JudgeDetectedSteps(sweep, options, &result);
  AddImpliedSteps(sweep, facts, &result);
  if (!explain) return result;
  result.explained = true;
  if (!result.fits.ok()) {
    result.explanation = result.fits.status();
    return result;
  }
  result.fit_options = options;
  const std::string out_of_sample = CheckOutOfSample(sweep, facts, &result);
  result.explanation = FormatRanking(*result.fits) + out_of_sample;
  return result;
}

namespace {

// The winning excursion: its offset off the line, as a share of the line there, and for a
// sweep read from throughput the dip or bump of the throughput; each ± its 95% half-width
// (Student t on the costs' degrees of freedom, the share's by the delta method).
void AppendExcursion(const analysis::Sweep& sweep, const analysis::ModelComparison& fits,
                     std::string& text) {
  const analysis::FamilyFit& fit = fits.best_fit();
  const std::vector<double>& at = fit.model.excursion_sizes;
  if (fit.costs.size() != 3 || fit.cost_covariance.size() != 9 || at.empty()) return;
  double x = 0;
  for (double size : at) x += size / at.size();
  const double a = fit.costs[0], b = fit.costs[1], g = fit.costs[2];
  const double trend = a + b * x;
  const double t =
      fit.cost_degrees_of_freedom > 0
          ? timing::StudentTQuantile((1 + timing::kConfidence95) / 2, fit.cost_degrees_of_freedom)
          : INFINITY;
  auto half_width = [&](const double gradient[3]) {
    double variance = 0;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j)
        variance += gradient[i] * fit.cost_covariance[3 * i + j] * gradient[j];
    }
    return t * std::sqrt(std::max(variance, 0.0));
  };
  const double offset_gradient[3] = {0, 0, 1}, trend_gradient[3] = {1, x, 0};
  std::string sizes = absl::StrFormat("%.0f", at[0]);
  if (at.size() > 1) absl::StrAppendFormat(&sizes, " and %.0f", at.back());
  absl::StrAppendFormat(
      &text, "  excursion %s at %s bytes: %s%s off the line", g >= 0 ? "up" : "down", sizes,
      timing::FormatWithHalfWidth(g, half_width(offset_gradient)), UnitSuffix(sweep.unit));
  if (trend > half_width(trend_gradient) && g > -trend) {  // no share of a line not told from 0
    const double share = g / trend;
    const double share_gradient[3] = {-g / (trend * trend), -g * x / (trend * trend), 1 / trend};
    const double share_hw = half_width(share_gradient);
    absl::StrAppendFormat(&text, ", %s%% of it",
                          timing::FormatWithHalfWidth(100 * share, 100 * share_hw));
    if (sweep.value_name == "implied_rtt_ns") {  // RttFromThroughput's: RTT up, throughput down
      const double change = share / (1 + share);
      absl::StrAppendFormat(
          &text, " (a throughput %s of %s%%)", g >= 0 ? "dip" : "rise",
          timing::FormatWithHalfWidth(100 * std::fabs(change),
                                      100 * share_hw / ((1 + share) * (1 + share))));
    }
  }
  absl::StrAppendFormat(&text, "; %s beats the line by ΔBIC %s\n",
                        analysis::DescribeModel(fit.model),
                        analysis::FormatDeltaBic(fits.delta_bic_linear));
}

// The smallest lone jump the segmented fit can tell from noise, and where nothing can be
// found: steps among the first or last min_segment_points sizes, excursions at the ends.
void AppendPower(const analysis::Sweep& sweep, const SweepAnalysis& result, std::string& text) {
  std::vector<double> sorted = analysis::Means(sweep);
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2];
  const double jump = result.steps->smallest_detectable_jump;
  const std::string share =  // none of a median of 0
      median == 0 ? "" : absl::StrFormat(" (%.2g%% of the median)", 100 * jump / std::fabs(median));
  // Three significant digits, never an exponent: "2860 ns", not "2.86e+03 ns".
  const int decimals =
      jump > 0 && std::isfinite(jump) ? 2 - static_cast<int>(std::floor(std::log10(jump))) : 0;
  absl::StrAppendFormat(
      &text,
      "  power: %d sizes; a lone jump smaller than %s%s%s cannot be told from noise by the "
      "segmented fit%s\n",
      sweep.points.size(), timing::FormatDecimals(jump, decimals),
      sweep.unit.empty() ? "" : absl::StrCat(" ", sweep.unit), share,
      sweep.points.size() >= 7
          ? "; the layouts' implied steps need their layout to beat the line by ΔBIC 6"
          : "");
  const size_t edge = static_cast<size_t>(analysis::StepDetectorOptions{}.min_segment_points);
  const size_t n = sweep.points.size();
  if (n < 2 * edge) return;
  absl::StrAppendFormat(
      &text,
      "  blind spots: no step among the first %d sizes (%.0f to %.0f bytes) or the last %d "
      "(%.0f to %.0f bytes)%s can be found\n",
      edge, sweep.points[0].size_bytes, sweep.points[edge - 1].size_bytes, edge,
      sweep.points[n - edge].size_bytes, sweep.points[n - 1].size_bytes,
      n >= 7 ? ", nor an excursion at the first or last size," : "");
}

// "none" when no step is found: within the noise, or, where the averaged figures are
// unresolved (their quantum T/N over 10% of the RTT), within the clock's quantization,
// which says nothing of steps smaller than it.
std::string NoStepsLine(const analysis::Sweep& sweep) {
  size_t unresolved = 0;
  for (const analysis::SweepPoint& p : sweep.points) {
    if (p.quantum > 0 && p.quantum > 0.1 * std::fabs(analysis::PointMean(p))) ++unresolved;
  }
  if (unresolved == 0) return "  none: the curve follows its trend within the noise\n";
  return absl::StrFormat(
      "  none found, and none could be: the averaged RTT is unresolved at %d of %d sizes (T/N "
      "over 10%% of the RTT), so its noise is the clock's quantization; more round trips per run "
      "would resolve it\n",
      unresolved, sweep.points.size());
}

}  // namespace

std::string FormatSweepAnalysis(const analysis::Sweep& sweep, const analysis::SizeFacts& facts,
                                const SweepAnalysis& result) {
  std::string text =
      "\nSteps in the averaged RTT (segmented regression, breakpoints chosen by BIC):\n";
  const bool implied = !result.implied_steps.empty();
  const bool excursion = result.fits.ok() && result.fits->beats_line &&
                         result.fits->best == analysis::ModelFamily::kExcursion;
  if (!result.steps.ok()) {
    absl::StrAppend(&text, "  not analysed: ", result.steps.status().message(), "\n");
  } else if (result.steps->steps.empty() && !implied && !excursion) {
    absl::StrAppend(&text, NoStepsLine(sweep));
  } else if (!result.steps->steps.empty() && !result.steps_established) {
    const size_t steps = result.steps->steps.size();
    // NaN: the ranking could not fit the detector's segmentation (its columns degenerate).
    const std::string margin =
        std::isnan(result.steps_delta_bic)
            ? std::string("could not be ranked against the straight line")
            : absl::StrFormat("beat%s the straight line by only ΔBIC %.1f < %.0f",
                              steps == 1 ? "s" : "", result.steps_delta_bic,
                              analysis::ModelFitOptions{}.strong_evidence_delta_bic);
    absl::StrAppendFormat(&text,
                          "  not established: the segmented fit's %d step%s %s in the ranking's "
                          "criterion (the explanation's margin), so none is found; below that "
                          "margin it would be:\n",
                          steps, steps == 1 ? "" : "s", margin);
    std::string below;
    AppendDetectedSteps(sweep, result, below);
    absl::StrAppend(&text, absl::StrReplaceAll(below, {{"\n  ", "\n    "}}).insert(0, "  "));
  } else {
    AppendDetectedSteps(sweep, result, text);
  }
  if (implied) AppendImpliedSteps(sweep, result, text);
  if (excursion) AppendExcursion(sweep, *result.fits, text);
  if (result.steps.ok() && result.steps->smallest_detectable_jump > 0) {
    AppendPower(sweep, result, text);
  }
  if (facts.empty()) {
    absl::StrAppend(&text, "  system sizes: none compared (the sweep's machine is not this one)\n");
  } else {
    std::vector<std::string> fact_texts;
    for (const analysis::SizeFact& fact : facts) {
      fact_texts.push_back(absl::StrFormat("%s %.0f", fact.name, fact.size_bytes));
    }
    absl::StrAppend(&text, "  system sizes: ", absl::StrJoin(fact_texts, "; "), "\n");
  }
  if (result.explained) {
    if (result.explanation.ok()) {
      absl::StrAppend(&text, "\n", *result.explanation);
    } else {
      absl::StrAppend(&text, "\nNo buffer layout fitted: ", result.explanation.status().message(),
                      "\n");
    }
  }
  return text;
}

}  // namespace tickbench::harness
