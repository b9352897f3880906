// Which buffer-allocation model (analysis/buffer_models.h) explains a sweep, if any.
//
// Search. For each family the discrete parameters run over grids:
//   C of kBsdSocket and kFixedChunks: powers of two 64..65536 and 112, 1460, 1472, 1480,
//     1500, 9000, plus the caller's extra_sizes;
//   t ∈ {C/4, C/2, C}; s ∈ {64, 96, 112, 128, 256} with s < C (222 BSD candidates);
//   MTU: 576, 1280, 1492, 1500, 4352, 9000, 16436, 65536, plus every extra size e both as an
//     MTU and as a largest unfragmented payload (MTU e + 28).
//
// Costs. Weighted linear least squares, weights 1/Var(ȳ_i) from analysis/noise_model.h (the
// run spread where sizes have repeated runs). A candidate is rejected when its count columns
// are constant or a combination of 1 and n on the measured sizes (it explains nothing the
// line does not; e.g. 4096-byte chunks on sizes ≤ 4096), and a fit with a negative per-buffer
// cost is rejected (a buffer cannot save time). For the BSD family, whose two costs can trade
// against each other and against the per-byte cost (clusters grow almost like n/C), the fits
// with one of them fixed at 0 are tried instead: the non-negative least-squares solution.
//
// Ranking by BIC, in the same two forms as the step detector (analysis/step_detector.h):
//  * run spread known (variance_from_runs): BIC = χ² + ν·(exp(k·ln(n)/ν) − 1), k = costs +
//    discrete parameters, ν = the run spread's degrees of freedom (→ χ² + k·ln n for large ν);
//  * otherwise (one run per size, or the best fit fails the lack-of-fit test
//    ScatterExceedsRunSpread): BIC = n·ln(RSS/n) + k·ln(n)·n/(n − p − 2), k = costs +
//    discrete parameters + 1 (the scale), p = costs; the last factor is AICc's small-sample
//    correction (Hurvich & Tsai, Biometrika 76(2), 1989): 1.05 for the BSD model at 128
//    sizes, 2.2 at 11.
// n is the number of sizes. Linear has k = 2, chunks and fragments 4, BSD 7 (plus 1 for the
// scale in the second form). Counting the discrete parameters pays for the search: on
// straight lines (400 seeds, 1 % noise, 4 runs) the best of the 222 BSD candidates gained
// at most 19.7 in χ² (99th percentile 15 at 128 sizes, 18 at 11), against a penalty
// difference of 25.7 at 128 sizes and 16.7 at 11, plus the verdict threshold of 6.
//
// Verdict. A model "explains the sweep" only if its BIC is at least
// strong_evidence_delta_bic below the straight line's (default 6: "strong" evidence on the
// scale of Kass & Raftery, JASA 90(430), 1995, where ΔBIC ≈ 2·ln(Bayes factor), so 6 is a
// factor of ~20), and the result is "undecided" unless it also beats the runner-up family by
// that much.
//
// Identifiability. Candidates whose counts agree at every measured size fit identically; the
// first in grid order is reported and tied_candidates counts the others. Families can tie
// too: on a 32-byte grid IPv4 fragments at MTU 1500 (ceil((n + 8)/1480)) and 1472-byte
// chunks agree at every size up to 4096. On the 11 sizes of the classic table s = 96, 112 and
// 128 differ by one small buffer at one or two of the sizes 1300..1492 only.
#ifndef ANALYSIS_MODEL_FIT_H_
#define ANALYSIS_MODEL_FIT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/buffer_models.h"
#include "analysis/sweep.h"

namespace tickbench::analysis {

struct ModelFitOptions {
  std::vector<double> extra_sizes;  // e.g. sizes of detected steps and of system facts
  double strong_evidence_delta_bic = 6;
};

struct FamilyFit {
  BufferModel model;                    // best candidate of the family
  bool fitted = false;                  // false when every candidate was rejected
  std::vector<std::string> cost_names;  // CostNames(family)
  // Value units per unit of each column; a per-buffer cost the non-negativity constraint
  // fixed at 0 reads 0 with standard error 0.
  std::vector<double> costs;
  std::vector<double> cost_stderrs;  // run spread or residual variance (variance_from_runs)
  double weighted_rss = 0;
  double r_squared = 0;  // weighted, about the weighted mean
  double bic = 0;
  int parameters = 0;  // k in the BIC (see above)
  int candidates = 0;  // tried
  int rejected_negative_cost = 0;
  int rejected_degenerate = 0;
  int tied_candidates = 0;  // others with the same RSS to 1e-9: not distinguishable here
};

struct ModelComparison {
  std::vector<FamilyFit> families;  // one per ModelFamily, in enum order
  ModelFamily best = ModelFamily::kLinear;
  ModelFamily runner_up = ModelFamily::kLinear;
  double delta_bic_runner_up = 0;  // BIC(runner-up) − BIC(best) ≥ 0
  double delta_bic_linear = 0;     // BIC(linear) − BIC(best) ≥ 0; 0 when the line is best
  bool beats_line = false;         // delta_bic_linear ≥ strong_evidence_delta_bic
  // True when the run spread fixed the noise scale (χ² form of the BIC), false when the
  // residuals did (profile form); see the header comment.
  bool variance_from_runs = false;
  std::string verdict;  // one plain sentence
  const FamilyFit& best_fit() const { return families[static_cast<int>(best)]; }
};

// Needs at least 7 sizes (the BSD model has 4 costs, and the small-sample factor needs
// n > 6). InvalidArgument otherwise or when the sweep is invalid.
absl::StatusOr<ModelComparison> FitBufferModels(const Sweep& sweep,
                                                const ModelFitOptions& options = {});

// A throughput sweep (bytes per second, 2n bytes moved per round trip of an n-byte message)
// as the round-trip time it implies, 2n / throughput, in nanoseconds; each run converted
// separately so that the run spread carries over. InvalidArgument if a throughput is ≤ 0 or
// a size is 0.
absl::StatusOr<Sweep> RttFromThroughput(const Sweep& throughput);

}  // namespace tickbench::analysis

#endif  // ANALYSIS_MODEL_FIT_H_
