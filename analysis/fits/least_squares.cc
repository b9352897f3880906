#include "analysis/fits/least_squares.h"

#include <cmath>
#include <cstddef>

#include "absl/strings/str_format.h"

namespace tickbench::analysis {
namespace {

// Relative size below which a column's new direction counts as already spanned. Round-off in
// QR is ~1e-16 × the condition number; 1e-9 leaves six orders of margin for n ≤ 65536 and
// still rejects ceil(n/32) against n on a 32-byte grid (exactly dependent).
constexpr double kRankTolerance = 1e-9;

// Householder QR of `a` (p columns of n, column-major) in place, applied to `b` too: after
// step j, a[j][j..] holds the reflector and diagonal[j] is R's diagonal entry (R[j][k] =
// a[k][j] for k > j). FailedPrecondition when a column depends on the others.
absl::Status HouseholderQr(std::vector<std::vector<double>>& a, std::vector<double>& b,
                           std::vector<double>& diagonal) {
  const size_t p = a.size();
  const size_t n = b.size();
  std::vector<double> column_norm(p);
  for (size_t j = 0; j < p; ++j) {
    double sum = 0;
    for (double v : a[j]) sum += v * v;
    column_norm[j] = std::sqrt(sum);
  }
  for (size_t j = 0; j < p; ++j) {
    double norm = 0;
    for (size_t i = j; i < n; ++i) norm += a[j][i] * a[j][i];
    norm = std::sqrt(norm);
    if (!(norm > kRankTolerance * column_norm[j])) {
      return absl::FailedPreconditionError(
          absl::StrFormat("least squares: column %d depends on the others", j));
    }
    const double alpha = a[j][j] > 0 ? -norm : norm;
    // v = x − alpha·e1, stored in a[j][j..]; H = I − 2vvᵀ/(vᵀv).
    a[j][j] -= alpha;
    double vv = 0;
    for (size_t i = j; i < n; ++i) vv += a[j][i] * a[j][i];
    auto reflect = [&](std::vector<double>& target) {
      double dot = 0;
      for (size_t i = j; i < n; ++i) dot += a[j][i] * target[i];
      const double factor = 2 * dot / vv;
      for (size_t i = j; i < n; ++i) target[i] -= factor * a[j][i];
    };
    for (size_t k = j + 1; k < p; ++k) reflect(a[k]);
    reflect(b);
    diagonal[j] = alpha;
  }
  return absl::OkStatus();
}

// (XᵀWX)⁻¹ = R⁻¹R⁻ᵀ, row-major p×p, from HouseholderQr's R.
std::vector<double> InverseGram(const std::vector<std::vector<double>>& a,
                                const std::vector<double>& diagonal) {
  const size_t p = a.size();
  auto r = [&](size_t row, size_t col) { return row == col ? diagonal[row] : a[col][row]; };
  std::vector<double> r_inverse(p * p, 0);
  for (size_t col = 0; col < p; ++col) {
    for (size_t j = p; j-- > 0;) {
      double sum = j == col ? 1 : 0;
      for (size_t k = j + 1; k < p; ++k) sum -= r(j, k) * r_inverse[k * p + col];
      r_inverse[j * p + col] = sum / r(j, j);
    }
  }
  std::vector<double> covariance(p * p, 0);
  for (size_t i = 0; i < p; ++i) {
    for (size_t k = 0; k < p; ++k) {
      double sum = 0;
      for (size_t j = 0; j < p; ++j) sum += r_inverse[i * p + j] * r_inverse[k * p + j];
      covariance[i * p + k] = sum;
    }
  }
  return covariance;
}

}  // namespace

absl::StatusOr<LeastSquaresFit> WeightedLeastSquares(
    const std::vector<std::vector<double>>& columns, const std::vector<double>& y,
    const std::vector<double>& weights) {
  const size_t p = columns.size();
  const size_t n = y.size();
  if (p == 0 || weights.size() != n || n < p) {
    return absl::InvalidArgumentError(
        absl::StrFormat("least squares: %d rows, %d weights, %d columns", n, weights.size(), p));
  }
  // a = √W·X (column-major) and b = √W·y.
  std::vector<std::vector<double>> a(p, std::vector<double>(n));
  std::vector<double> b(n);
  for (size_t i = 0; i < n; ++i) {
    if (!(weights[i] > 0) || !std::isfinite(weights[i])) {
      return absl::InvalidArgumentError(
          absl::StrFormat("least squares: weight %d is %g", i, weights[i]));
    }
    const double root = std::sqrt(weights[i]);
    b[i] = root * y[i];
    for (size_t j = 0; j < p; ++j) {
      if (columns[j].size() != n) {
        return absl::InvalidArgumentError("least squares: columns of different lengths");
      }
      a[j][i] = root * columns[j][i];
    }
  }
  std::vector<double> diagonal(p);
  if (absl::Status s = HouseholderQr(a, b, diagonal); !s.ok()) return s;
  // R is upper triangular: R[j][j] = diagonal[j], R[j][k] = a[k][j] for k > j.
  auto r = [&](size_t row, size_t col) { return row == col ? diagonal[row] : a[col][row]; };
  LeastSquaresFit fit;
  fit.coefficients.assign(p, 0);
  for (size_t j = p; j-- > 0;) {
    double sum = b[j];
    for (size_t k = j + 1; k < p; ++k) sum -= r(j, k) * fit.coefficients[k];
    fit.coefficients[j] = sum / r(j, j);
  }
  for (size_t i = p; i < n; ++i) fit.weighted_rss += b[i] * b[i];
  fit.covariance = InverseGram(a, diagonal);
  return fit;
}

}  // namespace tickbench::analysis
