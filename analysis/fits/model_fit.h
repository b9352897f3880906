// Which buffer-allocation model (analysis/models/buffer_models.h), or which segmentation of the
// curve into lines, explains a sweep, if any: one ranking, one noise estimate, one penalty.
//
// Search. For each family the discrete parameters run over grids:
//   C of kBsdSocket and kFixedChunks: powers of two 64..65536 and 112, 1460, 1472, 1480,
//     1500, 9000, plus the caller's extra_sizes;
//   t ∈ {C/4, C/2, C}; s ∈ {64, 96, 112, 128, 256} with s < C (222 BSD candidates);
//   MTU: 576, 1280, 1492, 1500, 4352, 9000, 16436, 65536, plus every extra size e both as an
//     MTU and as a largest unfragmented payload (MTU e + 28);
//   the combined families (BSD + fragments, chunks + fragments): every pair of the above;
//   kSegmented: the caller's segmentations (options.segmentations, e.g. the step detector's
//     best cut positions for every number of segments, StepDetection::segmentations);
//   kExcursion: every interior size, and every two neighbouring interior sizes.
//
// Costs. Weighted linear least squares, weights 1/Var(ȳ_i) from analysis/steps/noise_model.h (the
// run spread where sizes have repeated runs) — the step detector's weights. A candidate is
// rejected when one of its count columns is constant or a combination of 1, n and its other
// count columns on the measured sizes (it explains nothing the smaller model does not; e.g.
// 4096-byte chunks on sizes ≤ 4096). Per-buffer costs are not negative (a buffer cannot save
// time): the non-negative least-squares solution is taken, exactly, by trying every subset of
// the count columns (at most three). kSegmented's jumps and slope changes take either sign.
//
// Ranking by BIC (CriterionBic below), in the same two forms as the step detector
// (analysis/steps/step_detector.h):
//  * run spread known (variance_from_runs): BIC = χ² + ν·(exp(k·ln(n)/ν) − 1), k = costs +
//    discrete parameters, ν = the run spread's degrees of freedom (→ χ² + k·ln n for large ν);
//  * otherwise (one run per size, or the best fit fails the lack-of-fit test
//    ScatterExceedsRunSpread): BIC = n·ln(RSS/n) + k·ln(n)·n/(n − p − 2), k = costs +
//    discrete parameters + 1 (the scale), p = costs; the last factor is AICc's small-sample
//    correction (Hurvich & Tsai, Biometrika 76(2), 1989): 1.05 for the BSD model at 128
//    sizes, 2.2 at 11.
// n is the number of sizes. Linear has k = 2, chunks and fragments 4, BSD 7, BSD + fragments
// 9, chunks + fragments 6, an excursion 6, a segmentation with m cuts 2 + 3m (plus 1 for
// the scale in the second form). Counting the discrete parameters pays for the search: on straight
// lines (400 seeds, 1 % noise, 4 runs) the best of the 222 BSD candidates gained at most 19.7 in χ²
// (99th percentile 15 at 128 sizes, 18 at 11), against a penalty difference of 25.7 at 128
// sizes and 16.7 at 11, plus the verdict threshold of 6.
//
// Verdict. A model "explains the sweep" only if its BIC is at least
// strong_evidence_delta_bic below the straight line's (default 6: "strong" evidence on the
// scale of Kass & Raftery, JASA 90(430), 1995, where ΔBIC ≈ 2·ln(Bayes factor), so 6 is a
// factor of ~20), and the result is "undecided" unless it also beats the runner-up by that
// much. A family that contains another (BSD + fragments contains BSD; every family contains
// the line) is preferred to it only when better by that margin as well: the extra mechanism
// needs strong evidence too. The runner-up is the best other family that neither contains
// the winner nor is contained in it (BSD + fragments fitting a little better than BSD alone
// is no rival explanation of it).
//
// Ranges. Within a family, every candidate whose BIC is within range_delta_bic (2) of the
// family's best is as good on this data ("positive" evidence starts at 2), and the
// candidate reported is the one with the fewest sizes off the physically plausible grid
// (ImplausibleSizes: powers of two, classic mbuf sizes, common MTUs) among them, the best
// BIC among those. The reported candidate, its BIC and so the ranking and verdict are the
// coarse grid's alone: the discrete parameters' penalty above was measured for that search,
// and a search over every byte would pay for more than it counts.
// What the data allows of each size parameter (FamilyFit::ranges) comes from fine profiles
// (ModelFitOptions::fine_ranges, on by default) of every fitted layout family's reported
// candidate: each size parameter moved over a fine grid with the others held (t = C / the
// chosen divisor, so t's range is C's divided), each value screened and scored as the
// coarse candidates are (the same criterion, costs and discrete-parameter counts): s every
// byte 16..min(C − 1, 512); C and chunks every 8 bytes from 64 to where their columns stop
// changing (the largest size, times the divisor for C), at most 65536; the MTU every byte
// from 68 to 9216, every 8 bytes above, up to the largest size + 36, at most 65535 (the
// grids are in analysis/fits/model_ranges.h). A value fits when its BIC is within
// range_delta_bic of the better of the family's coarse best and its own profile's best; a
// coarse candidate that is within that adds its value too. The range is those values as
// spans of neighbouring tried values, "s in 56–58, 69–77, 92–116, 138–155"; a parameter
// that fits at more than half the values tried is "not determined by the data". A profile
// can find a value better than the coarse grid's by more than 2: the range then leaves out
// the reported value, and DescribeRanges says so ("MTU in 92–99, not the reported 576").
// With fine_ranges off, each parameter's range is the span of its values over the coarse
// candidates in range. On the 11 sizes of the classic table s = 96, 112 and 128 differ by
// one small buffer at one or two of the sizes 1300..1492 only: s comes out as 109–116 and
// 112 is reported.
//
// Identifiability. Candidates whose counts agree at every measured size fit identically;
// tied_candidates counts the others. Families can tie too: on a 32-byte grid IPv4 fragments
// at MTU 1500 (ceil((n + 8)/1480)) and 1472-byte chunks agree at every size up to 4096.
//
// Time: O(candidates · n) after one O(n) projection per candidate column; the combined
// families reuse each BSD or chunk candidate's columns for every MTU. 10000 sizes with 30
// extra sizes take well under a second without the fine profiles. These cost O(grid · n),
// a column recomputed only where the parameter moves it and projected only where it
// changed: with a 1 % BSD table of 4 runs, 11 sizes 10 ms (2 ms without), 128 sizes to
// 4096 bytes 33 ms (3 ms), 1000 sizes to 8000 bytes 0.4 s (24 ms), 1000 sizes to 64000
// bytes 1.2 s (24 ms; the C and MTU grids run to the largest size).
#ifndef ANALYSIS_MODEL_FIT_H_
#define ANALYSIS_MODEL_FIT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/models/buffer_models.h"
#include "analysis/sweep.h"

namespace tickbench::analysis {

struct ModelFitOptions {
  std::vector<double> extra_sizes;  // e.g. sizes of detected steps and of system facts
  double strong_evidence_delta_bic = 6;
  double range_delta_bic = 2;
  // The ranges from fine profiles of the sizes (see "Ranges" above); off, from the coarse
  // grid alone, for callers that refit many times (cross-validation's folds).
  bool fine_ranges = true;
  // kSegmented candidates, each the first sizes of its segments after the first (measured
  // sizes, increasing). Empty: kSegmented is not fitted.
  std::vector<std::vector<double>> segmentations;
};

// A run of neighbouring tried values of a size parameter that all fit.
struct ParameterSpan {
  int64_t low = 0;
  int64_t high = 0;
};

// The values of one size parameter ("C", "chunk", "t", "s", "MTU") that fit as well as the
// family's best (see "Ranges" above).
struct ParameterRange {
  std::string name;
  int64_t low = 0;   // the smallest value that fits
  int64_t high = 0;  // the largest
  // The coarse grid's values that fit, increasing (without the fine profile, all there is).
  std::vector<int64_t> values;
  // The fine profile (ModelFitOptions::fine_ranges): the grid tried (every grid_step bytes
  // from grid_low to grid_high, plus the coarse values), the fitting values as spans of
  // neighbouring tried values, the share of the tried values that fit, and whether that
  // share is at most half (kUndeterminedShare): "not determined by the data" otherwise.
  bool profiled = false;
  int64_t grid_low = 0;
  int64_t grid_high = 0;
  int64_t grid_step = 0;
  std::vector<ParameterSpan> spans;
  double share = 0;
  bool determined = true;
};

struct FamilyFit {
  BufferModel model;                    // best candidate of the family
  bool fitted = false;                  // false when every candidate was rejected
  std::vector<std::string> cost_names;  // CostNames(family)
  // Value units per unit of each column; a per-buffer cost the non-negativity constraint
  // fixed at 0 reads 0 with standard error 0.
  std::vector<double> costs;
  std::vector<double> cost_stderrs;  // run spread or residual variance (variance_from_runs)
  // The degrees of freedom of cost_stderrs' variance, for a Student t interval: the run
  // spread's where variance_from_runs (infinite when that is known exactly), else the
  // residual's n - costs (at least 1). 0 only for a family not fitted.
  double cost_degrees_of_freedom = 0;
  // Row-major costs.size()², on the same scale as cost_stderrs; 0 for a cost fixed at 0.
  std::vector<double> cost_covariance;
  // The most each cost can move when every mean moves by up to its printed resolution
  // (SweepPoint::resolution): Σ_i |row j of (XᵀWX)⁻¹XᵀW|_i · resolution_i, a hard bound the
  // reports add to the cost's half-width, so that an interval never claims digits the input
  // did not print. Empty or 0 where the resolution is unknown.
  std::vector<double> cost_rounding_bounds;
  double weighted_rss = 0;
  double r_squared = 0;  // weighted, about the weighted mean
  double bic = 0;
  int parameters = 0;  // k in the BIC (see above)
  int candidates = 0;  // tried
  int rejected_negative_cost = 0;
  int rejected_degenerate = 0;
  int tied_candidates = 0;  // others with the same RSS to 1e-9: not distinguishable here
  // The size parameters over the candidates within range_delta_bic of the family's best
  // (empty for linear and kSegmented), and how many candidates that is.
  std::vector<ParameterRange> ranges;
  int candidates_in_range = 0;
  // BIC of the family's best candidate; `bic` is the reported (most plausible) one's.
  double best_candidate_bic = 0;
};

// The ranges as text: "C=1024" for one value; from the fine profile "s in 92–116" or
// "s in 56–58, 69–77, 92–116, 138–155" (at most 6 spans, then how many more), "MTU not
// determined by the data (83% of 68–4132 fits)", and ", not the reported 112" where the
// reported value does not fit (the fine grid found better); from the coarse grid alone "s in
// {96, 112}" (at most 4 values) or "chunk in [64, 2048]".
std::string DescribeRanges(const FamilyFit& fit);

// A BIC difference for people: one decimal below 1000, three significant digits above
// (only its size against the margins of 2 and 6 means anything; "3.56e+06", not
// "3564223.2").
std::string FormatDeltaBic(double delta_bic);

struct ModelComparison {
  std::vector<FamilyFit> families;  // one per ModelFamily, in enum order (kAllModelFamilies)
  ModelFamily best = ModelFamily::kLinear;
  ModelFamily runner_up = ModelFamily::kLinear;
  double delta_bic_runner_up = 0;  // BIC(runner-up) − BIC(best) ≥ 0
  double delta_bic_linear = 0;     // BIC(linear) − BIC(best) ≥ 0; 0 when the line is best
  bool beats_line = false;         // delta_bic_linear ≥ strong_evidence_delta_bic
  // True when the run spread fixed the noise scale (χ² form of the BIC), false when the
  // residuals did (profile form); see the header comment.
  bool variance_from_runs = false;
  std::string verdict;  // one plain sentence
  // The BIC of each of options.segmentations under the criterion's final form (NaN where it
  // could not be fitted), comparable with families[0].bic: whether a given segmentation,
  // e.g. the step detector's own choice, beats the line by the verdict's margin.
  std::vector<double> segmentation_bics;
  const FamilyFit& best_fit() const { return families[static_cast<int>(best)]; }
};

// Needs at least 7 sizes (the BSD model has 4 costs, and the small-sample factor needs
// n > 6). InvalidArgument otherwise or when the sweep is invalid. Cancelled when SIGINT or
// SIGTERM asked to stop (platform/stop_signal.h, checked per candidate layout).
absl::StatusOr<ModelComparison> FitBufferModels(const Sweep& sweep,
                                                const ModelFitOptions& options = {});

// The criterion of every ranking above, for a fit of `costs` linear coefficients and
// `discrete` searched parameters with weighted residual sum of squares `weighted_rss` on n
// sizes: the χ² form when scale_known (ν = scale_df, infinite allowed), else the profile
// form with its small-sample factor; rss_floor keeps the logarithm finite.
double CriterionBic(double weighted_rss, double n, int costs, int discrete, bool scale_known,
                    double scale_df, double rss_floor);

// A step of a fitted model: between two neighbouring measured sizes, the change of its
// step columns (StepColumns: buffer and packet counts, kSegmented's jumps) times their
// costs, with its standard error from the costs' covariance.
struct ImpliedStep {
  double size_before = 0;
  double size_after = 0;
  int index_after = 0;
  double jump = 0;  // value units
  double jump_stderr = 0;
};

// The steps of `fit` at the sweep's sizes whose |jump| is at least z_threshold standard
// errors (and not 0), in size order. Empty for an unfitted family or the line.
std::vector<ImpliedStep> ImpliedSteps(const Sweep& sweep, const FamilyFit& fit,
                                      double z_threshold = 3);

// A throughput sweep (bytes per second, 2n bytes moved per round trip of an n-byte message)
// as the round-trip time it implies, 2n / throughput, in nanoseconds; each run converted
// separately so that the run spread carries over, and the printed resolution r of a value x
// (SweepPoint::resolution) carried over as 2n·r/(x·(x − r)) in ns, the larger side of the
// interval 2n/(x ± r) (≈ RTT·r/x), the largest over the runs. InvalidArgument if a
// throughput is ≤ 0, a size is 0, or a time it implies is outside ValidateSweep's range.
absl::StatusOr<Sweep> RttFromThroughput(const Sweep& throughput);

}  // namespace tickbench::analysis

#endif  // ANALYSIS_MODEL_FIT_H_
