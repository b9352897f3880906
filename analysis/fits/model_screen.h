#ifndef TICKBENCH_ANALYSIS_MODEL_SCREEN_H_
#define TICKBENCH_ANALYSIS_MODEL_SCREEN_H_

// Internal to model_fit: the candidate layouts of each buffer-model family and their
// screening (each candidate's weighted RSS after the straight line is projected off). Not
// an interface of its own: FitBufferModels (analysis/fits/model_fit.h) is.

#include <vector>

#include "analysis/fits/model_fit.h"
#include "analysis/models/buffer_models.h"

namespace tickbench::analysis::model_fit_internal {

struct Inputs {
  std::vector<double> sizes, means, weights;
  std::vector<double> resolutions;  // each mean's printed resolution (SweepPoint::resolution)
  double total_weighted_ss = 0;     // Σ w (y − ȳ_w)², for R²
  // A noiseless sweep can fit exactly: RSS below 1e-12 of the total counts as this much,
  // which keeps ln RSS finite and makes exact fits tie.
  double rss_floor = 0;
};

// FamilyFit::cost_rounding_bounds of `model` fitted to `in` (covariance: its (XᵀWX)⁻¹).
std::vector<double> RoundingBounds(const BufferModel& model, const std::vector<double>& covariance,
                                   const Inputs& in);

// The straight line's part of every fit, done once. With √W·[1, n] = Q·R, a candidate's RSS
// is that of √W·y on its √W-scaled count columns after all are projected off Q, and the count
// columns' coefficients are those of the full fit (Frisch–Waugh–Lovell). Screening a
// candidate so costs O(n) per column instead of a QR.
struct LineBasis {
  std::vector<double> root_w, q1, q2;
  std::vector<double> y_off;  // √W·y off the line's columns
  double y_off_ss = 0;        // the straight line's weighted RSS
};

// Why a screened candidate is not a fit (see Screen in model_screen.cc).
enum class Rejection { kNone, kNegativeCost, kDegenerate };

struct Screened {
  double rss = 0;
  unsigned keep = 0;  // bit k: count column k is in the fit
};

// Every feasible candidate of a family, with its RSS.
struct Scored {
  BufferModel model;
  Screened screened;
};

struct FamilyScreen {
  ModelFamily family = ModelFamily::kLinear;
  int candidates = 0;
  int rejected_negative_cost = 0;
  int rejected_degenerate = 0;
  std::vector<Scored> fits;
  void Add(const BufferModel& model, Rejection rejection, const Screened& screened) {
    ++candidates;
    if (rejection == Rejection::kDegenerate) ++rejected_degenerate;
    if (rejection == Rejection::kNegativeCost) ++rejected_negative_cost;
    if (rejection == Rejection::kNone) fits.push_back({model, screened});
  }
};

// Σ a_i b_i over equal-length vectors.
double Dot(const std::vector<double>& a, const std::vector<double>& b);

// The line's basis for the weighted inputs `in`.
LineBasis MakeLineBasis(const Inputs& in);

// One screened candidate of a series.
struct SeriesResult {
  Rejection rejection = Rejection::kNone;
  Screened screened;
};

// Screens layout candidates of one layout family, in order, for the fine profiles of the
// ranges (analysis/fits/model_ranges.h): only the count columns k with bit k of `varying` are
// recomputed after the first candidate (the others must agree with it), a column equal to
// the one before's keeps its projection, and a candidate whose every column does keeps its
// result.
std::vector<SeriesResult> ScreenSeries(const Inputs& in, const LineBasis& basis,
                                       const std::vector<BufferModel>& models, unsigned varying);

// Screens every layout family. The BSD and chunk candidates' columns are projected once and
// reused for each MTU of the combined families.
std::vector<FamilyScreen> ScreenLayouts(const Inputs& in, const LineBasis& basis,
                                        const ModelFitOptions& options);

}  // namespace tickbench::analysis::model_fit_internal

#endif  // TICKBENCH_ANALYSIS_MODEL_SCREEN_H_
