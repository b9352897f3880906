// How noisy each size's mean value is, estimated from the sweep itself: the weights of the
// step detector and of the model fits.
//
// Model. One run at size i has variance  s² · h_i  with
//     h_i = (1 − ρ) + ρ · ȳ_i² / mean_j(ȳ_j²),
// the two-component error model of Rocke & Lorenzato (Technometrics 37(2), 1995): a constant
// part plus a part proportional to the value. Round-trip times are closer to proportional
// (1–2 % of the value), a pure constant would under-weight the small sizes of a sweep whose
// values grow 3x and over-weight the large ones. ρ is chosen from {0, 0.1, ..., 1} by
// likelihood; the mean of m_i runs then has variance s² · h_i / m_i.
//
// The scale s² comes from one of two sources, whichever carries more degrees of freedom:
//   * kRunSpread: the per-size sample variances of repeated runs (maximum likelihood; each
//     is s² h_i χ²(m_i − 1) / (m_i − 1)); degrees_of_freedom = Σ (m_i − 1). 40 sizes of 4
//     runs give 120.
//   * kNeighbourScatter: one run per size. The pseudo-residuals of Gasser, Sroka and
//     Jennen-Steinmetz (Biometrika 73(3), 1986), e_i = a_i ȳ_{i−1} + b_i ȳ_{i+1} − ȳ_i with
//     a_i, b_i the linear-interpolation weights (uneven sizes allowed), vanish on any line;
//     their scaled median absolute value (MAD × 1.4826) is the noise SD. The median ignores
//     the one or two large pseudo-residuals a jump creates. A MAD is worth about 0.37
//     variance degrees of freedom per residual, and neighbouring pseudo-residuals share
//     points, which lowers that further: degrees_of_freedom = kScatterDfPerResidual · (n − 2).
// With one run per size, ρ maximizes a Gaussian likelihood of the pseudo-residuals whose
// squared standardized values are clipped at 3², so that a jump's residuals cannot pull it.
// Whether the means scatter about their trend by more than the run spread explains is for
// the user of the model to test, against a fitted curve: ScatterExceedsRunSpread below.
#ifndef ANALYSIS_NOISE_MODEL_H_
#define ANALYSIS_NOISE_MODEL_H_

#include <vector>

#include "absl/status/statusor.h"
#include "analysis/sweep.h"

namespace tickbench::analysis {

// Variance degrees of freedom per pseudo-residual of a MAD scale estimate; measured by
// simulation (Var(ŝ²)/s⁴ = 2/ν) on evenly and unevenly spaced sweeps of 11 to 2000 sizes.
inline constexpr double kScatterDfPerResidual = 0.25;

struct NoiseModel {
  enum class Source { kRunSpread, kNeighbourScatter };
  Source source = Source::kNeighbourScatter;
  double scale_variance = 0;          // s²: the variance of one run where h_i = 1
  double proportional_fraction = 0;   // ρ: 0 = constant SD, 1 = SD proportional to value
  double degrees_of_freedom = 0;      // how well s² itself is known
  std::vector<double> mean_variance;  // per point: variance of that point's mean value
  int quantization_floored = 0;       // points whose variance is the quantization floor
  int resolution_floored = 0;         // points whose variance is the printed-digits floor
};

// Needs either repeated runs at some size or at least 3 sizes. Floors, so that no weight is
// infinite and no fit looks exact because its runs read the same quantum:
//   * quantization: a point whose runs are quantized with step q (SweepPoint::quantum) has
//     a run variance of at least q²/6, the variance of a two-valued reading f(1−f)q²
//     averaged over a uniformly random fraction f (a random tick phase); so identical runs
//     of a coarse clock (spread 0) still weigh as what the clock can resolve;
//   * printed resolution: a point whose values were written to a resolution r (half a unit
//     of the last digit, SweepPoint::resolution) has a run variance of at least r²/3, the
//     variance of a rounding error uniform on ±r; so a table of whole kB/s, whose rounding
//     is 1 % of the value at its small sizes and 0.02 % at its large ones, does not read
//     that rounding as steps;
//   * otherwise 1e-6 of the RMS value as SD.
// NoiseModel::quantization_floored (resolution_floored) counts the points where the
// quantization (printed-resolution) floor, not the estimated noise, set the variance.
absl::StatusOr<NoiseModel> EstimateNoise(const Sweep& sweep);

// Lack-of-fit test against pure error: true when a fit's χ² (with weights 1/mean_variance of
// a kRunSpread model) over its df residual degrees of freedom exceeds the 99th percentile of
// F(df, scale_df), i.e. the means scatter about the fitted curve by more than the run spread
// explains. The run spread then understates the noise (runs of one size taken back to back
// share slow drift, or the curve is not of the fitted form) and the scale must come from the
// fit's residuals instead. F, not χ²: the run spread is itself estimated, and with 11 sizes
// of 4 runs (33 degrees of freedom) the 99th percentile for 7 residual degrees of freedom is
// 3.2, against 2.6 for a known variance.
bool ScatterExceedsRunSpread(double chi_square, double df, double scale_df);

// "run spread" or "neighbour scatter".
const char* NoiseSourceName(NoiseModel::Source source);

}  // namespace tickbench::analysis

#endif  // ANALYSIS_NOISE_MODEL_H_
