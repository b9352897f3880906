#include "analysis/steps/noise_model.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <limits>

namespace tickbench::analysis {
namespace {

// 1 / Φ⁻¹(3/4): turns the median absolute value of Gaussian data into its SD.
constexpr double kMadToSd = 1.482602218505602;

// Relative SD floor: round-off in the fits is ~1e-16 of the value, so 1e-6 keeps χ² sums
// meaningful while being far below any real measurement's spread.
constexpr double kRelativeSdFloor = 1e-6;

constexpr int kRhoSteps = 10;  // ρ = 0, 0.1, ..., 1

constexpr double kClipSquared = 9;  // 3 SD

double Median(std::vector<double> values) {
  const size_t n = values.size();
  const size_t mid = n / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  const double upper = values[mid];
  if (n % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + mid);
  return 0.5 * (lower + upper);
}

// Relative run variance h_i of every point for a given ρ.
std::vector<double> Shapes(const std::vector<double>& means, double mean_square, double rho) {
  std::vector<double> shapes(means.size());
  for (size_t i = 0; i < means.size(); ++i) {
    // A floor of 1e-3 keeps ρ = 1 usable when some mean is 0 (its weight stays finite).
    shapes[i] = std::max(1e-3, (1 - rho) + rho * means[i] * means[i] / mean_square);
  }
  return shapes;
}

// Pseudo-residuals of the means and, per residual, its variance in units of s²:
// g_i = a² h_{i-1}/m_{i-1} + h_i/m_i + b² h_{i+1}/m_{i+1}.
struct PseudoResiduals {
  std::vector<double> residual;
  std::vector<double> a, b;  // interpolation weights of the left and right neighbour
};

PseudoResiduals ComputePseudoResiduals(const std::vector<double>& sizes,
                                       const std::vector<double>& means) {
  PseudoResiduals out;
  for (size_t i = 1; i + 1 < sizes.size(); ++i) {
    const double span = sizes[i + 1] - sizes[i - 1];
    const double a = (sizes[i + 1] - sizes[i]) / span;
    const double b = (sizes[i] - sizes[i - 1]) / span;
    out.residual.push_back(a * means[i - 1] + b * means[i + 1] - means[i]);
    out.a.push_back(a);
    out.b.push_back(b);
  }
  return out;
}

std::vector<double> ResidualVarianceUnits(const PseudoResiduals& pr,
                                          const std::vector<double>& shapes,
                                          const std::vector<int>& runs) {
  std::vector<double> g(pr.residual.size());
  for (size_t k = 0; k < g.size(); ++k) {
    const size_t i = k + 1;
    g[k] = pr.a[k] * pr.a[k] * shapes[i - 1] / runs[i - 1] + shapes[i] / runs[i] +
           pr.b[k] * pr.b[k] * shapes[i + 1] / runs[i + 1];
  }
  return g;
}

// Robust scale² of the standardized pseudo-residuals r_k / sqrt(g_k).
double ScatterScaleVariance(const PseudoResiduals& pr, const std::vector<double>& g) {
  std::vector<double> standardized(g.size());
  for (size_t k = 0; k < g.size(); ++k) {
    standardized[k] = std::fabs(pr.residual[k]) / std::sqrt(g[k]);
  }
  const double sd = kMadToSd * Median(std::move(standardized));
  return sd * sd;
}

}  // namespace

bool ScatterExceedsRunSpread(double chi_square, double df, double scale_df) {
  if (!(df > 0) || !(scale_df > 0)) return false;
  // Paulson's normal approximation to F(df, scale_df) (Ann. Math. Stat. 13, 1942), solved
  // for the quantile u³: (a·u − b)² = z²·(c2·u² + c1).
  constexpr double kOneSided99 = 2.3263478740408408;  // standard normal quantile
  const double c1 = 2 / (9 * df), c2 = 2 / (9 * scale_df);
  const double a = 1 - c2, b = 1 - c1, z2 = kOneSided99 * kOneSided99;
  const double lead = a * a - z2 * c2;
  const double discriminant = a * a * b * b - lead * (b * b - z2 * c1);
  // Below 1.6 scale degrees of freedom the approximation has no root (and at 2 it asks for
  // F > 600, where the exact 99th percentile of F(7, 2) is 99): so little is known about the
  // noise that nothing counts as a lack of fit.
  if (!(lead > 0) || discriminant < 0) return false;
  const double u = (a * b + std::sqrt(discriminant)) / lead;
  return chi_square / df > u * u * u;
}

const char* NoiseSourceName(NoiseModel::Source source) {
  switch (source) {
    case NoiseModel::Source::kRunSpread:
      return "run spread";
    case NoiseModel::Source::kNeighbourScatter:
      return "neighbour scatter";
  }
  return "unknown";
}

namespace {

// The neighbour-scatter criterion for one ρ (its `shapes`): the Gaussian −2 log-likelihood
// of the pseudo-residuals, up to terms that do not depend on ρ, with each squared
// standardized residual clipped at 3² (Huber's idea): the residuals still tell constant from
// proportional noise, but the two a jump makes cannot pull ρ towards the size where the jump
// sits. The scale it implies, at least `floor_variance`, in `scale`.
double ScatterCriterion(const PseudoResiduals& pseudo, const std::vector<double>& shapes,
                        const std::vector<int>& runs, double floor_variance, double* scale) {
  const std::vector<double> g = ResidualVarianceUnits(pseudo, shapes, runs);
  *scale = std::max(ScatterScaleVariance(pseudo, g), floor_variance);
  double criterion = 0;
  for (size_t k = 0; k < g.size(); ++k) {
    const double z2 = pseudo.residual[k] * pseudo.residual[k] / (*scale * g[k]);
    criterion += std::log(*scale * g[k]) + std::min(z2, kClipSquared);
  }
  return criterion;
}

// Each point's variance of its mean under `model`, floored at the quantization q²/6 and at
// the printed resolution's r²/3.
void FillMeanVariance(const Sweep& sweep, const std::vector<double>& shapes,
                      const std::vector<int>& runs, NoiseModel& model) {
  const size_t n = sweep.points.size();
  model.mean_variance.resize(n);
  auto usable = [](double x) { return x > 0 && std::isfinite(x); };
  for (size_t i = 0; i < n; ++i) {
    const double run_variance_model = model.scale_variance * shapes[i];
    const double q = sweep.points[i].quantum;
    const double r = sweep.points[i].resolution;
    const double quantization = usable(q) ? q * q / 6 : 0;
    const double rounding = usable(r) ? r * r / 3 : 0;
    const double floor = std::max(quantization, rounding);
    if (floor > run_variance_model) {
      ++(quantization >= rounding ? model.quantization_floored : model.resolution_floored);
    }
    model.mean_variance[i] = std::max(run_variance_model, floor) / runs[i];
  }
}

}  // namespace

absl::StatusOr<NoiseModel> EstimateNoise(const Sweep& sweep) {
  if (absl::Status valid = ValidateSweep(sweep); !valid.ok()) return valid;
  const size_t n = sweep.points.size();
  const std::vector<double> sizes = Sizes(sweep);
  const std::vector<double> means = Means(sweep);
  std::vector<int> runs(n);
  std::vector<double> run_variance(n);
  double replicate_df = 0;
  double mean_square = 0;
  for (size_t i = 0; i < n; ++i) {
    runs[i] = static_cast<int>(sweep.points[i].values.size());
    run_variance[i] = PointVariance(sweep.points[i]);
    replicate_df += runs[i] - 1;
    mean_square += means[i] * means[i] / n;
  }
  const PseudoResiduals pseudo = ComputePseudoResiduals(sizes, means);
  const double scatter_df = kScatterDfPerResidual * pseudo.residual.size();
  if (replicate_df == 0 && pseudo.residual.empty()) {
    return absl::InvalidArgumentError(
        "the noise needs repeated runs at some size, or at least 3 sizes");
  }
  const double floor_variance =
      std::max(kRelativeSdFloor * kRelativeSdFloor * mean_square, DBL_MIN);
  if (mean_square == 0) mean_square = 1;  // every mean is 0: the shape is flat for any ρ

  NoiseModel model;
  const bool use_runs = replicate_df > 0 && replicate_df >= scatter_df;
  double best_criterion = std::numeric_limits<double>::infinity();
  for (int step = 0; step <= kRhoSteps; ++step) {
    const double rho = static_cast<double>(step) / kRhoSteps;
    const std::vector<double> shapes = Shapes(means, mean_square, rho);
    double scale = 0;
    double criterion = 0;  // −2 log-likelihood, up to terms that do not depend on ρ
    if (use_runs) {
      for (size_t i = 0; i < n; ++i) scale += (runs[i] - 1) * run_variance[i] / shapes[i];
      scale = std::max(scale / replicate_df, floor_variance);
      for (size_t i = 0; i < n; ++i) criterion += (runs[i] - 1) * std::log(scale * shapes[i]);
    } else {
      criterion = ScatterCriterion(pseudo, shapes, runs, floor_variance, &scale);
    }
    if (criterion < best_criterion) {
      best_criterion = criterion;
      model.scale_variance = scale;
      model.proportional_fraction = rho;
    }
  }
  model.source = use_runs ? NoiseModel::Source::kRunSpread : NoiseModel::Source::kNeighbourScatter;
  model.degrees_of_freedom = use_runs ? replicate_df : scatter_df;
  const std::vector<double> shapes = Shapes(means, mean_square, model.proportional_fraction);

  FillMeanVariance(sweep, shapes, runs, model);
  return model;
}

}  // namespace tickbench::analysis
