#include "analysis/fits/cross_validation.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "absl/strings/str_format.h"
#include "platform/stop_signal.h"

namespace tickbench::analysis {
namespace {

// Sums of squared errors, turned into a PredictionError at the end.
struct ErrorSums {
  double squared = 0;
  double squared_relative = 0;
  int predicted = 0;
  int with_relative = 0;
  int failed_folds = 0;

  void Add(double predicted_value, double observed) {
    const double error = predicted_value - observed;
    squared += error * error;
    ++predicted;
    if (observed != 0) {
      squared_relative += (error / observed) * (error / observed);
      ++with_relative;
    }
  }

  PredictionError Result() const {
    PredictionError e;
    e.predicted = predicted;
    e.failed_folds = failed_folds;
    e.rms = predicted > 0 ? std::sqrt(squared / predicted) : NAN;
    e.rms_relative = with_relative > 0 ? std::sqrt(squared_relative / with_relative) : NAN;
    return e;
  }
};

// The fitted curve of `fit` at `size`.
double Predict(const FamilyFit& fit, double size) {
  const std::vector<std::vector<double>> columns = DesignColumns(fit.model, {size});
  double value = 0;
  for (size_t j = 0; j < columns.size() && j < fit.costs.size(); ++j) {
    if (!columns[j].empty()) value += fit.costs[j] * columns[j][0];
  }
  return value;
}

// Linear through (x0, y0) and (x1, y1), at x.
double Line(double x0, double y0, double x1, double y1, double x) {
  return x1 == x0 ? (y0 + y1) / 2 : y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

// The interpolation of the kept sizes (increasing, with their means) at `size`.
double Interpolate(const std::vector<double>& sizes, const std::vector<double>& means,
                   double size) {
  const size_t above =
      static_cast<size_t>(std::lower_bound(sizes.begin(), sizes.end(), size) - sizes.begin());
  size_t a, b;  // the two kept sizes the prediction is drawn through
  if (above == 0) {
    a = 0, b = 1;
  } else if (above == sizes.size()) {
    a = sizes.size() - 2, b = sizes.size() - 1;
  } else {
    a = above - 1, b = above;
  }
  return Line(sizes[a], means[a], sizes[b], means[b], size);
}

struct Sums {
  ErrorSums explanation, procedure, line, interpolation;
  int kept_family = 0;
};

// One fold: the sizes i with i mod folds == fold left out, predicted from the rest.
void RunFold(const Sweep& sweep, ModelFamily family, const FoldOptions& options_for, int folds,
             int fold, Sums& sums) {
  Sweep kept;
  kept.value_name = sweep.value_name;
  kept.unit = sweep.unit;
  std::vector<size_t> left_out;
  for (size_t i = 0; i < sweep.points.size(); ++i) {
    if (static_cast<int>(i % static_cast<size_t>(folds)) == fold) {
      left_out.push_back(i);
    } else {
      kept.points.push_back(sweep.points[i]);
    }
  }
  const std::vector<double> kept_sizes = Sizes(kept), kept_means = Means(kept);
  for (size_t i : left_out) {
    sums.interpolation.Add(Interpolate(kept_sizes, kept_means, sweep.points[i].size_bytes),
                           PointMean(sweep.points[i]));
  }
  ModelFitOptions options = options_for(kept);
  options.fine_ranges = false;  // the folds predict; their ranges are not read
  const absl::StatusOr<ModelComparison> fits = FitBufferModels(kept, options);
  const FamilyFit* chosen = fits.ok() ? &fits->families[static_cast<int>(family)] : nullptr;
  if (!fits.ok() || !chosen->fitted) {
    ++sums.explanation.failed_folds;
    if (!fits.ok()) {
      ++sums.procedure.failed_folds;
      ++sums.line.failed_folds;
      return;
    }
  }
  const FamilyFit& choice = VerdictChoice(*fits);
  sums.kept_family += choice.model.family == family;
  for (size_t i : left_out) {
    const double size = sweep.points[i].size_bytes;
    const double observed = PointMean(sweep.points[i]);
    if (chosen->fitted) sums.explanation.Add(Predict(*chosen, size), observed);
    sums.procedure.Add(Predict(choice, size), observed);
    sums.line.Add(Predict(fits->families[static_cast<int>(ModelFamily::kLinear)], size), observed);
  }
}

// Two significant digits, down to 0.0001% (below: rounding in the fits, printed as 0%).
std::string Percent(double fraction) {
  if (!std::isfinite(fraction)) return "-";
  const double percent = 100 * fraction;
  return percent < 5e-5 ? "0%" : absl::StrFormat("%.2g%%", percent);
}

}  // namespace

const FamilyFit& VerdictChoice(const ModelComparison& fits) {
  return fits.beats_line && fits.best != ModelFamily::kLinear
             ? fits.best_fit()
             : fits.families[static_cast<int>(ModelFamily::kLinear)];
}

absl::StatusOr<CrossValidation> CrossValidate(const Sweep& sweep, ModelFamily family,
                                              const ModelFitOptions& options, int max_folds) {
  return CrossValidateWholeChoice(
      sweep, family, [&options](const Sweep&) { return options; }, max_folds);
}

absl::StatusOr<CrossValidation> CrossValidateWholeChoice(const Sweep& sweep, ModelFamily family,
                                                         const FoldOptions& options_for,
                                                         int max_folds) {
  if (absl::Status valid = ValidateSweep(sweep); !valid.ok()) return valid;
  const int n = static_cast<int>(sweep.points.size());
  if (n < 8) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "cross-validation needs at least 8 sizes (7 left to fit), the sweep has %d", n));
  }
  if (max_folds < 2) return absl::InvalidArgumentError("cross-validation needs 2 folds or more");
  CrossValidation cv;
  cv.family = family;
  cv.leave_one_out = n <= max_folds;
  cv.folds = cv.leave_one_out ? n : max_folds;
  Sums sums;
  for (int fold = 0; fold < cv.folds; ++fold) {
    TICKBENCH_RETURN_IF_STOPPED("cross-validating");
    RunFold(sweep, family, options_for, cv.folds, fold, sums);
  }
  cv.explanation = sums.explanation.Result();
  cv.procedure = sums.procedure.Result();
  cv.procedure_kept_family = sums.kept_family;
  cv.line = sums.line.Result();
  cv.interpolation = sums.interpolation.Result();
  cv.beats_line_and_interpolation = cv.explanation.predicted == n &&
                                    cv.explanation.rms_relative < cv.line.rms_relative &&
                                    cv.explanation.rms_relative < cv.interpolation.rms_relative;
  return cv;
}

bool ConfirmOutOfSample(const CrossValidation& cv, ModelComparison& fits,
                        double strong_evidence_delta_bic) {
  const bool explains = fits.beats_line && fits.best != ModelFamily::kLinear &&
                        fits.delta_bic_runner_up >= strong_evidence_delta_bic;
  if (!explains) return false;
  if (cv.family == fits.best && cv.beats_line_and_interpolation) return true;
  fits.verdict = absl::StrFormat(
      "%s fits these sizes best (ΔBIC %s over the straight line), but is not called the "
      "explanation: it predicts left-out sizes no better than %s",
      DescribeModel(fits.best_fit().model), FormatDeltaBic(fits.delta_bic_linear),
      cv.explanation.rms_relative >= cv.line.rms_relative || cv.family != fits.best
          ? "the straight line"
          : "the interpolation of their neighbours");
  return false;
}

std::string FormatCrossValidation(const CrossValidation& cv) {
  const std::string scheme = cv.leave_one_out
                                 ? absl::StrFormat("leave-one-out error (%d sizes)", cv.folds)
                                 : absl::StrFormat("%d-fold cross-validation error", cv.folds);
  const std::string own =
      cv.family == ModelFamily::kLinear
          ? ""
          : absl::StrFormat("%s %s, ", FamilyName(cv.family), Percent(cv.explanation.rms_relative));
  std::string text = absl::StrFormat(
      "%s, RMS of the left-out sizes' relative errors: %sstraight line %s, interpolation of the "
      "neighbours %s; the whole ranking rerun %s (it kept %s in %d of %d)",
      scheme, own, Percent(cv.line.rms_relative), Percent(cv.interpolation.rms_relative),
      Percent(cv.procedure.rms_relative), FamilyName(cv.family), cv.procedure_kept_family,
      cv.folds);
  if (cv.explanation.failed_folds > 0) {
    absl::StrAppendFormat(&text, "; %s could not be refitted in %d folds", FamilyName(cv.family),
                          cv.explanation.failed_folds);
  }
  return text;
}

}  // namespace tickbench::analysis
