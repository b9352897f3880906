// Small dense weighted linear least squares, for the few-column fits of this package (a
// line, a bent line, a + b·n + c·buffers(n)).
#ifndef ANALYSIS_LEAST_SQUARES_H_
#define ANALYSIS_LEAST_SQUARES_H_

#include <vector>

#include "absl/status/statusor.h"

namespace tickbench::analysis {

struct LeastSquaresFit {
  std::vector<double> coefficients;
  // (XᵀWX)⁻¹, row-major p×p: the coefficients' covariance when the weights are exact inverse
  // variances; multiply by a residual variance estimate when they are only relative.
  std::vector<double> covariance;
  double weighted_rss = 0;  // Σ w_i (y_i − x_iᵀβ)²
};

// Minimizes Σ w_i (y_i − Σ_j columns[j][i] β_j)² by Householder QR of the √w-scaled design,
// which loses half as many digits as the normal equations (the condition number enters once,
// not squared): a + b·n with n up to 65536 has a condition number near 1e5.
// FailedPrecondition when a column is (numerically) a combination of the others, i.e. its
// part orthogonal to them is below 1e-9 of its norm; InvalidArgument on mismatched sizes,
// fewer rows than columns, or non-positive weights.
absl::StatusOr<LeastSquaresFit> WeightedLeastSquares(
    const std::vector<std::vector<double>>& columns, const std::vector<double>& y,
    const std::vector<double>& weights);

}  // namespace tickbench::analysis

#endif  // ANALYSIS_LEAST_SQUARES_H_
