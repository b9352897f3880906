#include "harness/fit/step_lines.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analysis/fits/model_fit.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

// The grid of a difference of two of the sweep's values: twice the coarsest of the
// resolution each was printed to and the quantum it was measured on (0 when unknown).
double JumpGrid(const analysis::Sweep& sweep) {
  double grid = 0;
  for (const analysis::SweepPoint& p : sweep.points) {
    grid = std::max({grid, 2 * p.resolution, 2 * p.quantum});
  }
  return grid;
}

// A jump ± its 95% half-width (Student t on `df`; none where df is 0), signed, with its
// unit, at the digits timing::FigureDecimals allows: two significant digits of the
// half-width, never finer than the values' grid (a table given to 10 us has no ns in its
// steps: "+140000 ± 10000 ns", not "+142809 ± 8912 ns"); "-0.97 ± 0.12 (no unit)".
std::string JumpText(double jump, double standard_error, double df, const analysis::Sweep& sweep) {
  const double grid = JumpGrid(sweep);
  // No narrower than the values' own rounding: a table in whole us gives no jump to +- 0.
  const double half_width = std::max(
      df > 0 ? timing::StudentTQuantile((1 + timing::kConfidence95) / 2, df) * standard_error : 0,
      grid / 2);
  const int decimals = timing::FigureDecimals(jump, half_width, grid);
  std::string text = timing::FormatDecimals(jump, decimals);
  if (half_width > 0 && std::isfinite(half_width)) {
    absl::StrAppend(&text, " ± ", timing::FormatDecimals(half_width, decimals));
  }
  return absl::StrCat(text[0] == '-' ? "" : "+", text, UnitSuffix(sweep.unit));
}

}  // namespace

// " ns" after a figure, or " (no unit)" for a column without one.
std::string UnitSuffix(const std::string& unit) { return unit.empty() ? " (no unit)" : " " + unit; }

// The steps the segmented regression found, one line each, with the system sizes near them.
void AppendDetectedSteps(const analysis::Sweep& sweep, const SweepAnalysis& result,
                         std::string& text) {
  const analysis::StepDetection& detection = *result.steps;
  // The noise's degrees of freedom: the run spread's, or the segmented fit's residuals'.
  const double n = static_cast<double>(sweep.points.size());
  const double df = detection.variance_from_runs
                        ? detection.noise.degrees_of_freedom
                        : std::max(n - 2.0 * detection.segments.size(), 1.0);
  for (size_t i = 0; i < detection.steps.size(); ++i) {
    const analysis::Step& step = detection.steps[i];
    const bool jump = step.kind == analysis::StepKind::kJump;
    absl::StrAppendFormat(
        &text, "  %s %s between %.0f and %.0f bytes: %s (%.1f standard errors)%s\n",
        analysis::StepKindName(step.kind), analysis::StepDirectionName(step.direction),
        step.size_before, step.size_after,
        jump ? JumpText(step.magnitude, step.jump_stderr, df, sweep)
             : absl::StrFormat(
                   "slope %.3g -> %.3g %s", step.slope_before, step.slope_after,
                   sweep.unit.empty() ? "per byte (no unit)" : absl::StrCat(sweep.unit, "/byte")),
        step.significance,
        result.causes[i].empty() ? ""
                                 : absl::StrCat("; near ", absl::StrJoin(result.causes[i], ", ")));
  }
}

// The steps the best layout implies, the first 20 of them.
void AppendImpliedSteps(const analysis::Sweep& sweep, const SweepAnalysis& result,
                        std::string& text) {
  // Dense sweeps of a layout step at every buffer: the first 20 are enough to read.
  constexpr size_t kMaxListed = 20;
  const std::string model = analysis::DescribeModel(result.fits->best_fit().model);
  for (size_t i = 0; i < result.implied_steps.size() && i < kMaxListed; ++i) {
    const analysis::ImpliedStep& step = result.implied_steps[i];
    absl::StrAppendFormat(
        &text,
        "  jump %s between %.0f and %.0f bytes: %s (%s implies it, %.1f standard "
        "errors)%s\n",
        step.jump >= 0 ? "up" : "down", step.size_before, step.size_after,
        JumpText(step.jump, step.jump_stderr, result.fits->best_fit().cost_degrees_of_freedom,
                 sweep),
        model, step.jump_stderr > 0 ? std::fabs(step.jump) / step.jump_stderr : INFINITY,
        result.implied_causes[i].empty()
            ? ""
            : absl::StrCat("; near ", absl::StrJoin(result.implied_causes[i], ", ")));
  }
  if (result.implied_steps.size() > kMaxListed) {
    absl::StrAppendFormat(&text, "  ... and %d more steps of %s\n",
                          result.implied_steps.size() - kMaxListed, model);
  }
}

}  // namespace tickbench::harness
