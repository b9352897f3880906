// Out of sample: does a fitted explanation predict sizes it was not fitted on?
//
// A layout chosen among hundreds of candidates can fit every measured size and still say
// nothing about the next one (a point that alone decides the layout). CrossValidate leaves
// sizes out, refits without them and predicts them, for the explanation and for the two
// explanations that need no mechanism: the straight line and the neighbours' interpolation.
//
// Promised:
//  * Folds. Leave-one-out when the sweep has at most max_folds sizes; otherwise max_folds
//    folds, size i in fold i mod max_folds (every fold spans the whole range, so an
//    interpolation always has neighbours on both sides but at the ends).
//  * The family is refitted from scratch on each fold's remaining sizes: its size
//    parameters searched again and its costs refitted (FitBufferModels, the same options
//    but fine_ranges off: a fold's ranges are not read, and their fine profiles would cost
//    most of the time), so a layout that only one size supports is not rewarded. The whole ranking
//    is rerun too (`procedure`: whatever wins without the size predicts it), and how often the
//    rerun picks the same family is counted.
//  * The interpolation predicts a left-out size from the nearest kept sizes on either
//    side, linearly in size; at the ends it extrapolates the two nearest on its side.
//  * Errors are relative to the left-out size's mean (sizes whose mean is 0 count in `rms`,
//    not in `rms_relative`); a fold whose refit fails (fewer than 7 sizes left) predicts
//    nothing and is counted in `failed_folds`.
//  * Every choice made from the data is made again without the left-out sizes: with a
//    FoldOptions, each fold's options (the step detector's cut positions and step sizes,
//    options.segmentations and extra_sizes) come from the kept sizes alone; the rerun
//    ranking's choice is its verdict's: its best family where that beats the line by the
//    verdict's margin, else the straight line (`procedure_kept_family` counts the folds whose
//    verdict chose `family`).
// Not promised: independence of the folds' errors (they share the data); with fixed options
// (the overload without FoldOptions) that options made from the data did not see the
// left-out size.
#ifndef ANALYSIS_CROSS_VALIDATION_H_
#define ANALYSIS_CROSS_VALIDATION_H_

#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "analysis/fits/model_fit.h"
#include "analysis/models/buffer_models.h"
#include "analysis/sweep.h"

namespace tickbench::analysis {

// The prediction error over every left-out size.
struct PredictionError {
  double rms = 0;           // value units
  double rms_relative = 0;  // a fraction of the left-out size's mean
  int predicted = 0;        // sizes predicted
  int failed_folds = 0;     // folds whose refit failed
};

struct CrossValidation {
  ModelFamily family = ModelFamily::kLinear;  // the explanation checked
  int folds = 0;
  bool leave_one_out = false;
  PredictionError explanation;    // `family` refitted on each fold
  PredictionError procedure;      // the whole ranking rerun on each fold
  int procedure_kept_family = 0;  // folds whose rerun chose `family` again
  PredictionError line;
  PredictionError interpolation;
  // The explanation predicts better than both the line and the interpolation: its
  // relative RMS error is the smallest of the three (and it predicted every size).
  bool beats_line_and_interpolation = false;
};

inline constexpr int kDefaultMaxFolds = 20;

// InvalidArgument for an invalid sweep or one of fewer than 8 sizes (a fold must keep the 7
// a fit needs). Cancelled when SIGINT or SIGTERM asked to stop (checked per fold, and
// within each fold's fit).
absl::StatusOr<CrossValidation> CrossValidate(const Sweep& sweep, ModelFamily family,
                                              const ModelFitOptions& options,
                                              int max_folds = kDefaultMaxFolds);

// The fit's options made from a fold's kept sizes (fine_ranges is turned off after).
using FoldOptions = std::function<ModelFitOptions(const Sweep& kept)>;
absl::StatusOr<CrossValidation> CrossValidateWholeChoice(const Sweep& sweep, ModelFamily family,
                                                         const FoldOptions& options_for,
                                                         int max_folds = kDefaultMaxFolds);

// What a ranking's verdict chooses: its best family where it beats the line by the
// verdict's margin, else the straight line.
const FamilyFit& VerdictChoice(const ModelComparison& fits);

// Whether the winner of `fits` is called the explanation: it beats the straight line and the
// runner-up by `strong_evidence_delta_bic` (the ranking's "explains") and `cv` (of the
// winner's family) says it predicts left-out sizes better than the line and the
// interpolation. Where the ranking says "explains" and `cv` does not, fits->verdict is
// replaced by one that says which predicts as well, and false is returned.
bool ConfirmOutOfSample(const CrossValidation& cv, ModelComparison& fits,
                        double strong_evidence_delta_bic = 6);

// "leave-one-out error (11 sizes), RMS of the left-out sizes' relative errors: bsd_socket
// 4.9%, straight line 12%, interpolation of the neighbours 8.1%; the whole ranking rerun 18%
// (it kept bsd_socket in 1 of 11)": two significant digits; the family's own term is left
// out when it is the line.
std::string FormatCrossValidation(const CrossValidation& cv);

}  // namespace tickbench::analysis

#endif  // ANALYSIS_CROSS_VALIDATION_H_
