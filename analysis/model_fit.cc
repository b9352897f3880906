#include "analysis/model_fit.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "absl/strings/str_format.h"
#include "analysis/least_squares.h"
#include "analysis/noise_model.h"

namespace tickbench::analysis {
namespace {

constexpr int64_t kCommonSizes[] = {64,   112,  128,  256,  512,  1024,  1460,  1472, 1480,
                                    1500, 2048, 4096, 8192, 9000, 16384, 32768, 65536};
constexpr int64_t kSmallSizes[] = {64, 96, 112, 128, 256};
constexpr int64_t kMtus[] = {576, 1280, 1492, 1500, 4352, 9000, 16436, 65536};
constexpr int64_t kIpv4UdpOverhead = kIpv4HeaderBytes + kUdpHeaderBytes;  // 28

// Two candidates tie when their RSS agree to this relative precision: identical columns give
// identical sums up to round-off, ~1e-13 of the sum.
constexpr double kTieTolerance = 1e-9;

std::vector<int64_t> SortedUnique(std::vector<int64_t> grid) {
  std::sort(grid.begin(), grid.end());
  grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
  return grid;
}

bool UsableExtra(double size) { return std::isfinite(size) && size >= 1 && size <= 1e9; }

std::vector<int64_t> SizeGrid(const std::vector<double>& extra) {
  std::vector<int64_t> grid(std::begin(kCommonSizes), std::end(kCommonSizes));
  for (double size : extra) {
    if (UsableExtra(size)) grid.push_back(std::llround(size));
  }
  return SortedUnique(std::move(grid));
}

std::vector<int64_t> MtuGrid(const std::vector<double>& extra) {
  std::vector<int64_t> grid(std::begin(kMtus), std::end(kMtus));
  for (double size : extra) {
    // An MTU must leave room for one 8-byte fragment after the 28 bytes of headers.
    if (!UsableExtra(size)) continue;
    if (std::llround(size) >= kIpv4UdpOverhead + 8) grid.push_back(std::llround(size));
    grid.push_back(std::llround(size) + kIpv4UdpOverhead);
  }
  return SortedUnique(std::move(grid));
}

std::vector<BufferModel> Candidates(ModelFamily family, const ModelFitOptions& options) {
  std::vector<BufferModel> out;
  BufferModel model;
  model.family = family;
  switch (family) {
    case ModelFamily::kLinear:
      out.push_back(model);
      break;
    case ModelFamily::kBsdSocket:
      for (int64_t cluster : SizeGrid(options.extra_sizes)) {
        for (int64_t divisor : {4, 2, 1}) {
          if (cluster / divisor < 1) continue;
          for (int64_t small : kSmallSizes) {
            if (small >= cluster) continue;
            model.cluster_bytes = cluster;
            model.threshold_bytes = cluster / divisor;
            model.small_bytes = small;
            out.push_back(model);
          }
        }
      }
      break;
    case ModelFamily::kFixedChunks:
      for (int64_t chunk : SizeGrid(options.extra_sizes)) {
        model.cluster_bytes = chunk;
        out.push_back(model);
      }
      break;
    case ModelFamily::kIpv4Fragments:
      for (int64_t mtu : MtuGrid(options.extra_sizes)) {
        model.mtu_bytes = mtu;
        out.push_back(model);
      }
      break;
  }
  return out;
}

struct Inputs {
  std::vector<double> sizes, means, weights;
  double total_weighted_ss = 0;  // Σ w (y − ȳ_w)², for R²
  // A noiseless sweep can fit exactly: RSS below 1e-12 of the total counts as this much,
  // which keeps ln RSS finite and makes exact fits tie.
  double rss_floor = 0;
};

// The straight line's part of every fit, done once. With √W·[1, n] = Q·R, a candidate's RSS
// is that of √W·y on its √W-scaled count columns after all are projected off Q, and the count
// columns' coefficients are those of the full fit (Frisch–Waugh–Lovell). Screening the 222
// BSD candidates so costs O(n) each instead of a four-column QR.
struct LineBasis {
  std::vector<double> root_w, q1, q2;
  std::vector<double> y_off;  // √W·y off the line's columns
  double y_off_ss = 0;        // the straight line's weighted RSS
};

double Dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

// v minus its projection on q1 and q2, done twice: one more Gram–Schmidt pass restores the
// orthogonality that cancellation costs when v lies almost in the line's span.
std::vector<double> OffLine(const LineBasis& basis, std::vector<double> v) {
  for (int pass = 0; pass < 2; ++pass) {
    for (const std::vector<double>* q : {&basis.q1, &basis.q2}) {
      if (q->empty()) continue;
      const double d = Dot(*q, v);
      for (size_t i = 0; i < v.size(); ++i) v[i] -= d * (*q)[i];
    }
  }
  return v;
}

LineBasis MakeLineBasis(const Inputs& in) {
  LineBasis basis;
  const size_t n = in.sizes.size();
  std::vector<double> scaled_size(n), scaled_y(n);
  for (size_t i = 0; i < n; ++i) {
    basis.root_w.push_back(std::sqrt(in.weights[i]));
    scaled_size[i] = basis.root_w[i] * in.sizes[i];
    scaled_y[i] = basis.root_w[i] * in.means[i];
  }
  const double norm = std::sqrt(Dot(basis.root_w, basis.root_w));
  for (double r : basis.root_w) basis.q1.push_back(r / norm);
  std::vector<double> v = OffLine(basis, scaled_size);  // q2 is still empty here
  const double v_norm = std::sqrt(Dot(v, v));
  for (double x : v) basis.q2.push_back(x / v_norm);
  basis.y_off = OffLine(basis, scaled_y);
  basis.y_off_ss = Dot(basis.y_off, basis.y_off);
  return basis;
}

// Screens one candidate: its weighted RSS with every per-buffer cost ≥ 0, and which count
// columns that fit keeps. Degenerate when a count column, off the line and the other count
// column, keeps less than 1e-9 of its norm: constant or a combination of 1 and n on these
// sizes (the least-squares module's rank test). A fit with a negative cost is rejected; with
// two buffer kinds (BSD) the fits with one cost fixed at 0 are tried instead, which is the
// active-set solution of the non-negative problem. With every cost at 0 it would be the line.
enum class Rejection { kNone, kNegativeCost, kDegenerate };

struct Screened {
  double rss = 0;
  unsigned keep = 0;  // bit k: count column k is in the fit
};

Rejection Screen(const BufferModel& candidate, const Inputs& in, const LineBasis& basis,
                 Screened* out) {
  constexpr double kRank = 1e-9;
  const std::vector<std::vector<double>> columns = DesignColumns(candidate, in.sizes);
  const size_t kinds = columns.size() - 2;
  std::vector<std::vector<double>> z(kinds);
  std::vector<double> norm2(kinds);
  for (size_t k = 0; k < kinds; ++k) {
    std::vector<double> scaled(columns[2 + k].size());
    for (size_t i = 0; i < scaled.size(); ++i) scaled[i] = basis.root_w[i] * columns[2 + k][i];
    norm2[k] = Dot(scaled, scaled);
    z[k] = OffLine(basis, std::move(scaled));
  }
  const double g00 = Dot(z[0], z[0]);
  const double r0 = Dot(z[0], basis.y_off);
  if (!(g00 > kRank * kRank * norm2[0])) return Rejection::kDegenerate;
  if (kinds == 1) {
    if (r0 < 0) return Rejection::kNegativeCost;
    *out = {basis.y_off_ss - r0 * r0 / g00, 1u};
    return Rejection::kNone;
  }
  const double g11 = Dot(z[1], z[1]), g01 = Dot(z[0], z[1]);
  const double r1 = Dot(z[1], basis.y_off);
  const double perpendicular = g11 - g01 * g01 / g00;  // of column 1 off column 0
  if (!(perpendicular > kRank * kRank * norm2[1])) return Rejection::kDegenerate;
  const double det = g00 * g11 - g01 * g01;
  const double c0 = (g11 * r0 - g01 * r1) / det, c1 = (g00 * r1 - g01 * r0) / det;
  if (c0 >= 0 && c1 >= 0) {
    *out = {basis.y_off_ss - (c0 * r0 + c1 * r1), 3u};
    return Rejection::kNone;
  }
  bool found = false;
  const double g[2] = {g00, g11}, r[2] = {r0, r1};
  for (unsigned k = 0; k < 2; ++k) {
    const double rss = basis.y_off_ss - r[k] * r[k] / g[k];
    if (r[k] < 0 || (found && !(rss < out->rss))) continue;
    *out = {rss, 1u << k};
    found = true;
  }
  return found ? Rejection::kNone : Rejection::kNegativeCost;
}

// The best candidate of a family (least weighted RSS; the weights are the same for every
// candidate, so this does not depend on how the BIC is formed), with the unscaled variances
// of its costs.
struct FamilyResult {
  FamilyFit fit;
  std::vector<double> cost_variances;  // diagonal of (XᵀWX)⁻¹; 0 for a cost fixed at 0
};

FamilyResult FitFamily(ModelFamily family, const Inputs& in, const LineBasis& basis,
                       const ModelFitOptions& options) {
  FamilyResult result;
  FamilyFit& best = result.fit;
  best.model.family = family;
  best.cost_names = CostNames(family);
  Screened chosen{basis.y_off_ss, 0};
  for (const BufferModel& candidate : Candidates(family, options)) {
    ++best.candidates;
    Screened screened{basis.y_off_ss, 0};
    if (family != ModelFamily::kLinear) {
      const Rejection rejection = Screen(candidate, in, basis, &screened);
      if (rejection == Rejection::kDegenerate) ++best.rejected_degenerate;
      if (rejection == Rejection::kNegativeCost) ++best.rejected_negative_cost;
      if (rejection != Rejection::kNone) continue;
    }
    const double rss = std::max(screened.rss, 0.0);
    if (best.fitted && std::fabs(rss - best.weighted_rss) <=
                           kTieTolerance * std::max(best.weighted_rss, in.rss_floor)) {
      ++best.tied_candidates;
      continue;
    }
    if (best.fitted && !(rss < best.weighted_rss)) continue;
    best.fitted = true;
    best.model = candidate;
    best.tied_candidates = 0;
    best.weighted_rss = rss;
    chosen = screened;
  }
  if (!best.fitted) return result;
  // The chosen candidate's costs and their variances, by QR on the columns it keeps.
  const std::vector<std::vector<double>> all = DesignColumns(best.model, in.sizes);
  std::vector<std::vector<double>> columns = {all[0], all[1]};
  std::vector<size_t> index = {0, 1};
  for (size_t k = 0; k + 2 < all.size(); ++k) {
    if (!(chosen.keep & (1u << k))) continue;
    columns.push_back(all[2 + k]);
    index.push_back(2 + k);
  }
  absl::StatusOr<LeastSquaresFit> fit = WeightedLeastSquares(columns, in.means, in.weights);
  if (!fit.ok()) {
    best.fitted = false;  // screening and QR disagree on the rank: treat as degenerate
    ++best.rejected_degenerate;
    return result;
  }
  const size_t q = columns.size();
  best.weighted_rss = fit->weighted_rss;
  best.costs.assign(all.size(), 0);
  result.cost_variances.assign(all.size(), 0);
  for (size_t a = 0; a < q; ++a) {
    best.costs[index[a]] = fit->coefficients[a];
    result.cost_variances[index[a]] = fit->covariance[a * q + a];
  }
  best.r_squared = in.total_weighted_ss > 0 ? 1 - best.weighted_rss / in.total_weighted_ss : 1;
  return result;
}

// Fills parameters, bic and cost_stderrs of a fitted family for one of the two criteria.
void Score(const FamilyResult& family, const Inputs& in, bool variance_from_runs, double scale_df,
           FamilyFit* out) {
  const double n = static_cast<double>(in.sizes.size());
  const double costs = static_cast<double>(family.fit.costs.size());
  const int discrete = DiscreteParameterCount(family.fit.model.family);
  double scale = 1;
  if (variance_from_runs) {
    // χ² + k·ln(n) with the variance known, k = costs + discrete parameters, and the
    // degrees-of-freedom correction of the step detector: ν·(exp(k·ln(n)/ν) − 1).
    out->parameters = static_cast<int>(costs) + discrete;
    const double penalty = out->parameters * std::log(n);
    out->bic = family.fit.weighted_rss +
               (std::isfinite(scale_df) ? scale_df * std::expm1(penalty / scale_df) : penalty);
  } else {
    // n·ln(RSS/n) + k·ln(n) with the scale profiled out, k counting the scale too, times
    // AICc's small-sample factor n / (n − k − 1) (Hurvich & Tsai, Biometrika 76(2), 1989):
    // 1.05 for the BSD model at 128 sizes, 2.2 at 11.
    out->parameters = static_cast<int>(costs) + discrete + 1;
    const double rss = std::max(family.fit.weighted_rss, in.rss_floor);
    out->bic = n * std::log(rss / n) + out->parameters * std::log(n) * n / (n - (costs + 1) - 1);
    scale = rss / std::max(n - costs, 1.0);
  }
  out->cost_stderrs.clear();
  for (double variance : family.cost_variances) {
    out->cost_stderrs.push_back(std::sqrt(scale * variance));
  }
}

std::string Verdict(const ModelComparison& c, double threshold) {
  const FamilyFit& best = c.best_fit();
  if (!c.beats_line) {
    if (c.best == ModelFamily::kLinear) return "no model beats the straight line";
    return absl::StrFormat(
        "no model beats the straight line: %s is better by only ΔBIC %.1f < %.0f",
        DescribeModel(best.model), c.delta_bic_linear, threshold);
  }
  const FamilyFit& runner = c.families[static_cast<int>(c.runner_up)];
  if (c.delta_bic_runner_up < threshold) {
    return absl::StrFormat(
        "undecided: %s beats the straight line by ΔBIC %.1f, but %s is within ΔBIC %.1f < %.0f",
        DescribeModel(best.model), c.delta_bic_linear, DescribeModel(runner.model),
        c.delta_bic_runner_up, threshold);
  }
  return absl::StrFormat("%s explains the sweep: ΔBIC %.1f over the straight line, %.1f over %s",
                         DescribeModel(best.model), c.delta_bic_linear, c.delta_bic_runner_up,
                         DescribeModel(runner.model));
}

}  // namespace

absl::StatusOr<ModelComparison> FitBufferModels(const Sweep& sweep,
                                                const ModelFitOptions& options) {
  if (absl::Status valid = ValidateSweep(sweep); !valid.ok()) return valid;
  if (sweep.points.size() < 7) {
    return absl::InvalidArgumentError(
        absl::StrFormat("model fits need at least 7 sizes, the sweep has %d", sweep.points.size()));
  }
  absl::StatusOr<NoiseModel> noise = EstimateNoise(sweep);
  if (!noise.ok()) return noise.status();
  Inputs in{Sizes(sweep), Means(sweep), {}};
  for (double variance : noise->mean_variance) in.weights.push_back(1 / variance);
  const double weighted_mean =
      Dot(in.weights, in.means) / std::accumulate(in.weights.begin(), in.weights.end(), 0.0);
  for (size_t i = 0; i < in.means.size(); ++i) {
    in.total_weighted_ss += in.weights[i] * std::pow(in.means[i] - weighted_mean, 2);
  }
  in.rss_floor = std::max(1e-12 * in.total_weighted_ss, 1e-300);

  const LineBasis basis = MakeLineBasis(in);
  std::vector<FamilyResult> fits;
  for (ModelFamily family : {ModelFamily::kLinear, ModelFamily::kBsdSocket,
                             ModelFamily::kFixedChunks, ModelFamily::kIpv4Fragments}) {
    fits.push_back(FitFamily(family, in, basis, options));
  }
  ModelComparison result;
  // Rank the fitted families by BIC; the line always fits (two distinct sizes at least).
  auto rank = [&](bool variance_from_runs) {
    result.families.clear();
    std::vector<int> order;
    for (size_t f = 0; f < fits.size(); ++f) {
      result.families.push_back(fits[f].fit);
      if (!fits[f].fit.fitted) continue;
      Score(fits[f], in, variance_from_runs, noise->degrees_of_freedom, &result.families[f]);
      order.push_back(static_cast<int>(f));
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return result.families[a].bic < result.families[b].bic; });
    return order;
  };
  result.variance_from_runs = noise->source == NoiseModel::Source::kRunSpread;
  std::vector<int> order = rank(result.variance_from_runs);
  if (result.variance_from_runs) {
    const FamilyFit& best = result.families[order[0]];
    const double df = static_cast<double>(in.sizes.size() - best.costs.size());
    if (ScatterExceedsRunSpread(best.weighted_rss, df, noise->degrees_of_freedom)) {
      result.variance_from_runs = false;
      order = rank(false);
    }
  }
  result.best = static_cast<ModelFamily>(order[0]);
  result.runner_up = static_cast<ModelFamily>(order.size() > 1 ? order[1] : order[0]);
  const double best_bic = result.families[order[0]].bic;
  result.delta_bic_runner_up = order.size() > 1 ? result.families[order[1]].bic - best_bic : 0;
  result.delta_bic_linear = result.families[0].bic - best_bic;
  result.beats_line = result.delta_bic_linear >= options.strong_evidence_delta_bic;
  result.verdict = Verdict(result, options.strong_evidence_delta_bic);
  return result;
}

absl::StatusOr<Sweep> RttFromThroughput(const Sweep& throughput) {
  if (absl::Status valid = ValidateSweep(throughput); !valid.ok()) return valid;
  Sweep rtt;
  rtt.value_name = "implied_rtt_ns";
  rtt.unit = "ns";
  for (const SweepPoint& point : throughput.points) {
    if (point.size_bytes <= 0) {
      return absl::InvalidArgumentError("a throughput at size 0 implies no round-trip time");
    }
    SweepPoint converted;
    converted.size_bytes = point.size_bytes;
    for (double bytes_per_second : point.values) {
      if (!(bytes_per_second > 0)) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "throughput %g at size %g: must be positive", bytes_per_second, point.size_bytes));
      }
      // 2n bytes (the message and its echo) per round trip.
      converted.values.push_back(2 * point.size_bytes / bytes_per_second * 1e9);
    }
    rtt.points.push_back(std::move(converted));
  }
  return rtt;
}

}  // namespace tickbench::analysis
