// Finds the sizes where a sweep (round-trip time or throughput against message size) leaves
// its local linear trend by more than the noise allows: jumps between neighbouring sizes and
// changes of slope.
//
// Method: segmented least squares. The sweep is cut into m segments of at least
// min_segment_points sizes; each gets its own line (intercept and slope, so the curve may be
// discontinuous at a cut). A segment costs its weighted residual sum of squares
// χ² = Σ (ȳ_i − a − b·n_i)² / Var(ȳ_i), with Var(ȳ_i) from analysis/steps/noise_model.h. The least
// total χ² for every m ≤ max_steps + 1 comes from dynamic programming over segment ends (the
// segment-neighbourhood recursion of Bai & Perron, J. Applied Econometrics 18, 2003; with one
// penalty per cut it is the optimal partitioning of Jackson et al., IEEE SPL 12(2), 2005) in
// O(k·n²) time and O(k·n) memory, k = max_steps + 1, n the number of sizes (a size's runs
// enter only through their mean and the noise model, so 100 runs cost no more than one
// beyond reading them): 2000 sizes take ~60 ms, kMaxStepDetectorSizes = 10000 about 1 s.
//
// Number of cuts: the Schwarz criterion (BIC), β = penalty_multiplier · 3 · ln(n) per cut
// (each cut adds an intercept, a slope and a position), in one of two forms:
//  * Runs fix the scale (the noise model comes from the run spread): minimize
//    χ²(m) + (m − 1)·β_ν. The run spread is itself an estimate with ν degrees of freedom, so
//    β becomes β_ν = ν·(exp(β/ν) − 1), the threshold with the same tail probability on the
//    F(2, ν) scale as β has on the χ²(2) scale (exact for the two coefficients a cut adds:
//    P(F(2,ν) > f) = (1 + 2f/ν)^(−ν/2)). 40 sizes of 4 runs: β = 22.1, β_ν = 24.3.
//  * Otherwise (one run per size, or the means scatter about the chosen fit by more than the
//    runs explain: ScatterExceedsRunSpread) the scale is the residual variance of the fit
//    itself, n − 2m degrees of freedom, and n·ln χ²(m) + Σ_{l=2..m} β·n/(n − 2l) is
//    minimized: between m − 1 and m segments that is the same F(2, n − 2m) test, and the
//    result does not depend on the unit of χ². The neighbour-scatter scale still sets the
//    relative weights. 11 single values: β = 14.4, 22.6 for the first cut.
// penalty_multiplier = 2 was tuned on straight lines with 1–2 % noise (proportional or
// constant; 1000 seeds each): sweeps with any step, 11 uneven single values 0.5–0.8 %,
// 11 × 4 runs 0.2–0.5 %, 40 × 1 0–0.8 %, 40 × 4 0 %, 256 × 1 and 256 × 4 0 %. At 1.5 the
// 11-value rate was 2.5–4 %; at 1.0, 6–13 %.
//
// Each cut becomes one Step, classified over the two segments it separates: the free
// two-line fit is compared with the best continuous bend (two lines that meet, at a size or
// anywhere between two sizes). If the free fit is better by jump_z_threshold² in χ², the
// step is a kJump at the cut: the jump is the smallest |B(x) − A(x)| of the two lines over
// the gap between the sizes around the cut. Otherwise it is a kSlopeChange where the bend's
// knot lies. A jump is found between exactly the two sizes that straddle it; a slope change
// at its knee or within one grid step of it. No step can be found within
// min_segment_points − 1 sizes of either end.
#ifndef ANALYSIS_STEP_DETECTOR_H_
#define ANALYSIS_STEP_DETECTOR_H_

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/steps/noise_model.h"
#include "analysis/sweep.h"

namespace tickbench::analysis {

// The most sizes DetectSteps takes (InvalidArgument beyond, naming the limit): the time is
// quadratic in them. As many as a sweep may have (harness/cli/size_list.h).
inline constexpr size_t kMaxStepDetectorSizes = 10'000;

struct StepDetectorOptions {
  int min_segment_points = 3;       // ≥ 2; 3 keeps one outlier from forming its own segment
  int max_steps = 10;               // k = max_steps + 1 segments at most: O(k·n²) time
  double penalty_multiplier = 2.0;  // × the BIC penalty 3·ln(n) per cut; tuned, see above
  // A cut is a jump when the discontinuous fit beats the best continuous bend by this many
  // SEs (χ² by its square). Both fits are maximized over positions, which widens the null
  // distribution beyond χ²(1): at 3, 1–2 % of pure slope doublings were called jumps, at 4
  // under 0.3 % (400 seeds each of 40 and 256 sizes).
  double jump_z_threshold = 4.0;
};

enum class StepKind { kJump, kSlopeChange };
enum class StepDirection { kUp, kDown };

struct Step {
  // The sizes around the change: for a kJump the last size before the cut and the first
  // after it; for a kSlopeChange the knot of the bend lies in [size_before, size_after].
  double size_before = 0;
  double size_after = 0;
  int index_after = 0;  // index of size_after in the sweep
  StepKind kind = StepKind::kJump;
  StepDirection direction = StepDirection::kUp;
  // kJump: the jump in value units. kSlopeChange: slope_after − slope_before, value units per
  // byte.
  double magnitude = 0;
  double jump = 0;  // kJump: smallest discontinuity over the gap, value units; else 0
  double jump_stderr = 0;
  double slope_before = 0;  // value units per byte
  double slope_after = 0;
  double slope_change_stderr = 0;
  // kJump: sqrt of the χ² by which the free fit beats the best bend (the likelihood-ratio z
  // of the discontinuity). kSlopeChange: |magnitude| / slope_change_stderr.
  double significance = 0;
  // How much the criterion would worsen if this cut were removed (its two segments merged,
  // other cuts fixed): the χ² (or n·ln χ²) gained, minus the penalty.
  double delta_bic = 0;
};

struct Segment {
  int first = 0;  // indices into the sweep, inclusive
  int last = 0;
  double intercept = 0;  // value at size 0 of the fitted line
  double slope = 0;      // value units per byte
};

struct StepDetection {
  std::vector<Step> steps;        // ordered by size
  std::vector<Segment> segments;  // steps.size() + 1 of them
  NoiseModel noise;
  // True when the run spread fixed the noise scale (χ² criterion); false when the residuals
  // of the fit did (one run per size, or the lack-of-fit test rejected the run spread).
  bool variance_from_runs = false;
  // The last cut's penalty in the criterion's own units: β_ν (runs fix the scale), or
  // β·n/(n − 2m) (the fit does).
  double penalty = 0;
  double chi_square = 0;  // of the chosen segmentation, weights 1 / NoiseModel::mean_variance
  // The best segmentation for every number of cuts 1..max_steps the sizes allow, whether
  // chosen or not: the first size of each segment after the first. The model fits rank them
  // with the buffer layouts under one criterion (analysis/fits/model_fit.h, kSegmented).
  std::vector<std::vector<double>> segmentations;
  // The detector's power: the smallest jump (value units) that, at the noise estimated here
  // and at the most favourable cut position of these sizes, lowers the criterion by the
  // first cut's penalty, so that a lone jump smaller than this cannot be told from noise.
  // The jump's part off the straight line is what a cut can explain: a jump h at position
  // j leaves h²·R_j of weighted RSS on the line, R_j the weighted residual sum of squares of
  // the indicator [i ≥ j] off the line; h_min² = β_ν / max R_j (runs fix the scale) or
  // (n − 4)·(exp(β_2/n) − 1) / max R_j (the fit does), β_2 = the first cut's penalty. At 11
  // sizes with 1 % noise that is about 8 % of the value. 0 when no cut fits.
  double smallest_detectable_jump = 0;
};

// Cancelled when SIGINT or SIGTERM asked to stop (platform/stop_signal.h, checked per end
// point of the partition).
absl::StatusOr<StepDetection> DetectSteps(const Sweep& sweep,
                                          const StepDetectorOptions& options = {});

const char* StepKindName(StepKind kind);                 // "jump", "slope change"
const char* StepDirectionName(StepDirection direction);  // "up", "down"

}  // namespace tickbench::analysis

#endif  // ANALYSIS_STEP_DETECTOR_H_
