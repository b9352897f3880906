#include "analysis/model_fit.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <iterator>
#include <numeric>
#include <set>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
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
constexpr double kRank = 1e-9;

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

std::vector<BufferModel> BsdCandidates(const ModelFitOptions& options) {
  std::vector<BufferModel> out;
  BufferModel model;
  model.family = ModelFamily::kBsdSocket;
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
  return out;
}

std::vector<BufferModel> ChunkCandidates(const ModelFitOptions& options) {
  std::vector<BufferModel> out;
  BufferModel model;
  model.family = ModelFamily::kFixedChunks;
  for (int64_t chunk : SizeGrid(options.extra_sizes)) {
    model.cluster_bytes = chunk;
    out.push_back(model);
  }
  return out;
}

std::vector<BufferModel> MtuCandidates(const ModelFitOptions& options) {
  std::vector<BufferModel> out;
  BufferModel model;
  model.family = ModelFamily::kIpv4Fragments;
  for (int64_t mtu : MtuGrid(options.extra_sizes)) {
    model.mtu_bytes = mtu;
    out.push_back(model);
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
// columns' coefficients are those of the full fit (Frisch–Waugh–Lovell). Screening a
// candidate so costs O(n) per column instead of a QR.
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

// One count column, √W-scaled and projected off the line, with what the screen needs.
struct OffColumn {
  std::vector<double> z;
  double norm2 = 0;  // of the scaled column before the projection (the rank test's scale)
  double zz = 0;     // z·z
  double zy = 0;     // z·y_off
};

OffColumn MakeOffColumn(const LineBasis& basis, const std::vector<double>& column) {
  OffColumn out;
  std::vector<double> scaled(column.size());
  for (size_t i = 0; i < scaled.size(); ++i) scaled[i] = basis.root_w[i] * column[i];
  out.norm2 = Dot(scaled, scaled);
  out.z = OffLine(basis, std::move(scaled));
  out.zz = Dot(out.z, out.z);
  out.zy = Dot(out.z, basis.y_off);
  return out;
}

// Screens one candidate of k ≤ 3 count columns: its weighted RSS with every per-buffer cost
// ≥ 0, and which count columns that fit keeps. Degenerate when a count column, off the line
// and the count columns before it, keeps less than 1e-9 of its norm (the least-squares
// module's rank test). Non-negative least squares exactly: every subset of the columns is
// solved and the best one whose costs are all ≥ 0 is taken (with every cost at 0 it would
// be the line, which is rejected as kNegativeCost).
enum class Rejection { kNone, kNegativeCost, kDegenerate };

struct Screened {
  double rss = 0;
  unsigned keep = 0;  // bit k: count column k is in the fit
};

// Solves the k×k system g·c = r (k ≤ 3, symmetric positive definite) by Gaussian elimination.
bool Solve(int k, double g[3][3], double r[3], double c[3]) {
  for (int col = 0; col < k; ++col) {
    if (!(g[col][col] > 0)) return false;
    for (int row = col + 1; row < k; ++row) {
      const double f = g[row][col] / g[col][col];
      for (int j = col; j < k; ++j) g[row][j] -= f * g[col][j];
      r[row] -= f * r[col];
    }
  }
  for (int row = k - 1; row >= 0; --row) {
    double sum = r[row];
    for (int j = row + 1; j < k; ++j) sum -= g[row][j] * c[j];
    c[row] = sum / g[row][row];
  }
  return true;
}

Rejection Screen(const std::vector<const OffColumn*>& columns, const LineBasis& basis,
                 Screened* out) {
  const int k = static_cast<int>(columns.size());
  double gram[3][3], r[3];
  for (int a = 0; a < k; ++a) {
    r[a] = columns[a]->zy;
    for (int b = 0; b < k; ++b) {
      gram[a][b] = a == b ? columns[a]->zz : Dot(columns[a]->z, columns[b]->z);
    }
  }
  // Rank test by Cholesky: the part of column a off the line and the columns before it.
  {
    double l[3][3] = {};
    for (int a = 0; a < k; ++a) {
      for (int b = 0; b <= a; ++b) {
        double sum = gram[a][b];
        for (int j = 0; j < b; ++j) sum -= l[a][j] * l[b][j];
        if (a == b) {
          if (!(sum > kRank * kRank * columns[a]->norm2)) return Rejection::kDegenerate;
          l[a][a] = std::sqrt(sum);
        } else {
          l[a][b] = sum / l[b][b];
        }
      }
    }
  }
  bool found = false;
  for (unsigned subset = 1; subset < (1u << k); ++subset) {
    int index[3], m = 0;
    for (int a = 0; a < k; ++a) {
      if (subset & (1u << a)) index[m++] = a;
    }
    double g[3][3], rhs[3], c[3];
    for (int a = 0; a < m; ++a) {
      rhs[a] = r[index[a]];
      for (int b = 0; b < m; ++b) g[a][b] = gram[index[a]][index[b]];
    }
    if (!Solve(m, g, rhs, c)) continue;
    bool feasible = true;
    double explained = 0;
    for (int a = 0; a < m; ++a) {
      feasible = feasible && c[a] >= 0;
      explained += c[a] * r[index[a]];
    }
    if (!feasible) continue;
    const double rss = basis.y_off_ss - explained;
    if (found && !(rss < out->rss)) continue;
    *out = {rss, subset};
    found = true;
  }
  return found ? Rejection::kNone : Rejection::kNegativeCost;
}

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

// Screens every layout family. The BSD and chunk candidates' columns are projected once and
// reused for each MTU of the combined families.
std::vector<FamilyScreen> ScreenLayouts(const Inputs& in, const LineBasis& basis,
                                        const ModelFitOptions& options) {
  std::vector<FamilyScreen> screens(std::size(kAllModelFamilies));
  for (size_t f = 0; f < screens.size(); ++f) screens[f].family = kAllModelFamilies[f];
  auto screen_of = [&](ModelFamily family) -> FamilyScreen& {
    return screens[static_cast<int>(family)];
  };
  screen_of(ModelFamily::kLinear).Add(BufferModel{}, Rejection::kNone, {basis.y_off_ss, 0});

  std::vector<BufferModel> mtus = MtuCandidates(options);
  std::vector<OffColumn> packets;
  for (const BufferModel& mtu : mtus) {
    packets.push_back(MakeOffColumn(basis, DesignColumns(mtu, in.sizes)[2]));
    Screened screened;
    const Rejection rejection = Screen({&packets.back()}, basis, &screened);
    screen_of(ModelFamily::kIpv4Fragments).Add(mtu, rejection, screened);
  }
  for (const BufferModel& chunk : ChunkCandidates(options)) {
    const OffColumn chunks = MakeOffColumn(basis, DesignColumns(chunk, in.sizes)[2]);
    Screened screened;
    screen_of(ModelFamily::kFixedChunks).Add(chunk, Screen({&chunks}, basis, &screened), screened);
    BufferModel both = chunk;
    both.family = ModelFamily::kChunksFragments;
    for (size_t m = 0; m < mtus.size(); ++m) {
      both.mtu_bytes = mtus[m].mtu_bytes;
      screen_of(ModelFamily::kChunksFragments)
          .Add(both, Screen({&chunks, &packets[m]}, basis, &screened), screened);
    }
  }
  for (const BufferModel& bsd : BsdCandidates(options)) {
    const std::vector<std::vector<double>> columns = DesignColumns(bsd, in.sizes);
    const OffColumn clusters = MakeOffColumn(basis, columns[2]);
    const OffColumn smalls = MakeOffColumn(basis, columns[3]);
    Screened screened;
    screen_of(ModelFamily::kBsdSocket)
        .Add(bsd, Screen({&clusters, &smalls}, basis, &screened), screened);
    BufferModel both = bsd;
    both.family = ModelFamily::kBsdFragments;
    for (size_t m = 0; m < mtus.size(); ++m) {
      both.mtu_bytes = mtus[m].mtu_bytes;
      screen_of(ModelFamily::kBsdFragments)
          .Add(both, Screen({&clusters, &smalls, &packets[m]}, basis, &screened), screened);
    }
  }
  return screens;
}

// A chosen candidate with its costs (QR on the columns its screen kept).
struct FamilyResult {
  FamilyFit fit;
  std::vector<double> covariance;  // unscaled (XᵀWX)⁻¹ over all costs; 0 for a cost fixed at 0
  bool scale_known = false;
};

bool FitCosts(const Inputs& in, const BufferModel& model, unsigned keep, bool all_columns,
              FamilyResult* result) {
  FamilyFit& fit = result->fit;
  const std::vector<std::vector<double>> all = DesignColumns(model, in.sizes);
  std::vector<std::vector<double>> columns = {all[0], all[1]};
  std::vector<size_t> index = {0, 1};
  for (size_t k = 0; k + 2 < all.size(); ++k) {
    if (!all_columns && !(keep & (1u << k))) continue;
    columns.push_back(all[2 + k]);
    index.push_back(2 + k);
  }
  absl::StatusOr<LeastSquaresFit> ls = WeightedLeastSquares(columns, in.means, in.weights);
  if (!ls.ok()) return false;
  const size_t q = columns.size();
  fit.weighted_rss = ls->weighted_rss;
  fit.costs.assign(all.size(), 0);
  result->covariance.assign(all.size() * all.size(), 0);
  for (size_t a = 0; a < q; ++a) {
    fit.costs[index[a]] = ls->coefficients[a];
    for (size_t b = 0; b < q; ++b) {
      result->covariance[index[a] * all.size() + index[b]] = ls->covariance[a * q + b];
    }
  }
  fit.r_squared = in.total_weighted_ss > 0 ? 1 - fit.weighted_rss / in.total_weighted_ss : 1;
  return true;
}

struct Form {
  bool scale_known = false;
  double scale_df = 0;
};

double Bic(const Inputs& in, const Form& form, double rss, int costs, int discrete) {
  return CriterionBic(rss, static_cast<double>(in.sizes.size()), costs, discrete,
                      form.scale_known, form.scale_df, in.rss_floor);
}

// The family's reported candidate under one form of the criterion: the most plausible within
// range_delta_bic of the best (then the best BIC), its costs, and the ranges.
// The number of screened candidates other than `chosen` whose RSS ties the chosen one's.
int TiedCandidates(const FamilyScreen& screen, size_t chosen, double rss_floor) {
  int tied = 0;
  const double chosen_rss = std::max(screen.fits[chosen].screened.rss, 0.0);
  for (size_t i = 0; i < screen.fits.size(); ++i) {
    if (i != chosen && std::fabs(std::max(screen.fits[i].screened.rss, 0.0) - chosen_rss) <=
                           kTieTolerance * std::max(chosen_rss, rss_floor)) {
      ++tied;
    }
  }
  return tied;
}

// Appends to fit.ranges the range of each size parameter over the candidates in range.
void AppendRanges(ModelFamily family, const std::set<int64_t>& c_values,
                  const std::set<int64_t>& t_values, const std::set<int64_t>& s_values,
                  const std::set<int64_t>& mtu_values, FamilyFit& fit) {
  const bool chunk_like =
      family == ModelFamily::kFixedChunks || family == ModelFamily::kChunksFragments;
  for (const auto& [name, values] :
       {std::pair<const char*, const std::set<int64_t>*>{chunk_like ? "chunk" : "C", &c_values},
        {"t", &t_values},
        {"s", &s_values},
        {"MTU", &mtu_values}}) {
    if (values->empty()) continue;
    ParameterRange range;
    range.name = name;
    range.values.assign(values->begin(), values->end());
    range.low = range.values.front();
    range.high = range.values.back();
    fit.ranges.push_back(std::move(range));
  }
}

FamilyResult Choose(const FamilyScreen& screen, const Inputs& in, const Form& form,
                    const ModelFitOptions& options) {
  FamilyResult result;
  FamilyFit& fit = result.fit;
  fit.model.family = screen.family;
  fit.cost_names = CostNames(screen.family);
  fit.candidates = screen.candidates;
  fit.rejected_degenerate = screen.rejected_degenerate;
  fit.rejected_negative_cost = screen.rejected_negative_cost;
  result.scale_known = form.scale_known;
  if (screen.fits.empty()) return result;
  const int costs = static_cast<int>(fit.cost_names.size());
  const int discrete = DiscreteParameterCount(screen.family);
  std::vector<double> bics;
  double best = std::numeric_limits<double>::infinity();
  for (const Scored& s : screen.fits) {
    bics.push_back(Bic(in, form, std::max(s.screened.rss, 0.0), costs, discrete));
    best = std::min(best, bics.back());
  }
  size_t chosen = 0;
  bool have = false;
  std::set<int64_t> c_values, t_values, s_values, mtu_values;
  for (size_t i = 0; i < screen.fits.size(); ++i) {
    if (!(bics[i] <= best + options.range_delta_bic)) continue;
    ++fit.candidates_in_range;
    const BufferModel& m = screen.fits[i].model;
    if (m.cluster_bytes > 0) c_values.insert(m.cluster_bytes);
    if (m.threshold_bytes > 0) t_values.insert(m.threshold_bytes);
    if (m.small_bytes > 0) s_values.insert(m.small_bytes);
    if (m.mtu_bytes > 0) mtu_values.insert(m.mtu_bytes);
    const BufferModel& current = screen.fits[chosen].model;
    if (!have || ImplausibleSizes(m) < ImplausibleSizes(current) ||
        (ImplausibleSizes(m) == ImplausibleSizes(current) && bics[i] < bics[chosen])) {
      chosen = i;
      have = true;
    }
  }
  fit.tied_candidates += TiedCandidates(screen, chosen, in.rss_floor);
  AppendRanges(screen.family, c_values, t_values, s_values, mtu_values, fit);
  fit.best_candidate_bic = best;
  fit.model = screen.fits[chosen].model;
  if (!FitCosts(in, fit.model, screen.fits[chosen].screened.keep, false, &result)) {
    ++fit.rejected_degenerate;  // screening and QR disagree on the rank: treat as degenerate
    return result;
  }
  fit.fitted = true;
  return result;
}

// kSegmented: each given segmentation fitted by QR, the best BIC reported.
FamilyResult ChooseSegmentation(const Inputs& in, const Form& form,
                                const ModelFitOptions& options) {
  FamilyResult best;
  best.fit.model.family = ModelFamily::kSegmented;
  best.fit.cost_names = CostNames(ModelFamily::kSegmented);
  for (const std::vector<double>& cuts : options.segmentations) {
    if (cuts.empty()) continue;
    ++best.fit.candidates;
    FamilyResult candidate;
    candidate.fit.model.family = ModelFamily::kSegmented;
    candidate.fit.model.cut_sizes = cuts;
    if (2 + 2 * cuts.size() + 2 > in.sizes.size() ||
        !FitCosts(in, candidate.fit.model, 0, true, &candidate)) {
      ++best.fit.rejected_degenerate;
      continue;
    }
    candidate.fit.bic = Bic(in, form, candidate.fit.weighted_rss,
                            static_cast<int>(candidate.fit.costs.size()),
                            static_cast<int>(cuts.size()));
    if (best.fit.fitted && !(candidate.fit.bic < best.fit.bic)) continue;
    candidate.fit.fitted = true;
    candidate.fit.candidates = best.fit.candidates;
    candidate.fit.rejected_degenerate = best.fit.rejected_degenerate;
    candidate.fit.cost_names = CostNames(candidate.fit.model);
    candidate.fit.best_candidate_bic = candidate.fit.bic;
    candidate.fit.candidates_in_range = 1;
    best = std::move(candidate);
  }
  best.fit.candidates = static_cast<int>(options.segmentations.size());
  return best;
}

// Fills parameters, bic, cost_stderrs and cost_covariance of a fitted family.
void Score(FamilyResult* family, const Inputs& in, const Form& form) {
  FamilyFit& out = family->fit;
  const double n = static_cast<double>(in.sizes.size());
  const int costs = static_cast<int>(out.costs.size());
  const int discrete = DiscreteParameterCount(out.model);
  out.parameters = costs + discrete + (form.scale_known ? 0 : 1);
  out.bic = Bic(in, form, out.weighted_rss, costs, discrete);
  const double scale =
      form.scale_known ? 1
                       : std::max(out.weighted_rss, in.rss_floor) / std::max(n - costs, 1.0);
  out.cost_degrees_of_freedom =
      !form.scale_known ? std::max(n - costs, 1.0)
      : form.scale_df > 0 ? form.scale_df
                          : std::numeric_limits<double>::infinity();
  out.cost_stderrs.clear();
  out.cost_covariance.clear();
  for (size_t a = 0; a < out.costs.size(); ++a) {
    out.cost_stderrs.push_back(std::sqrt(scale * family->covariance[a * costs + a]));
  }
  for (double c : family->covariance) out.cost_covariance.push_back(scale * c);
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

// The weighted inputs of the fits: sizes, means, weights 1 / variance of each mean.
Inputs MakeInputs(const Sweep& sweep, const NoiseModel& noise) {
  Inputs in{Sizes(sweep), Means(sweep), {}};
  for (double variance : noise.mean_variance) in.weights.push_back(1 / variance);
  const double weighted_mean =
      Dot(in.weights, in.means) / std::accumulate(in.weights.begin(), in.weights.end(), 0.0);
  for (size_t i = 0; i < in.means.size(); ++i) {
    in.total_weighted_ss += in.weights[i] * std::pow(in.means[i] - weighted_mean, 2);
  }
  in.rss_floor = std::max(1e-12 * in.total_weighted_ss, 1e-300);
  return in;
}

// The best family of `order` (ranked by BIC), after a family that contains another (BSD +
// fragments contains BSD) must beat it by `strong_delta_bic` to be preferred.
int PreferContained(const std::vector<int>& order, const std::vector<FamilyFit>& families,
                    double strong_delta_bic) {
  int best = order[0];
  for (bool changed = true; changed;) {
    changed = false;
    for (int f : order) {
      if (f == best || f == 0 || !FamilyContains(static_cast<ModelFamily>(best),
                                                 static_cast<ModelFamily>(f))) {
        continue;
      }
      if (families[f].bic - families[best].bic < strong_delta_bic) {
        best = f;
        changed = true;
        break;
      }
    }
  }
  return best;
}

// The first family after the best in `order` that neither contains nor is contained by
// `best`; `best` when there is none.
ModelFamily RunnerUp(const std::vector<int>& order, ModelFamily best) {
  for (size_t i = 1; i < order.size(); ++i) {
    if (FamilyContains(static_cast<ModelFamily>(order[i]), best) ||
        FamilyContains(best, static_cast<ModelFamily>(order[i]))) {
      continue;
    }
    return static_cast<ModelFamily>(order[i]);
  }
  return best;
}

}  // namespace

double CriterionBic(double weighted_rss, double n, int costs, int discrete, bool scale_known,
                    double scale_df, double rss_floor) {
  if (scale_known) {
    // χ² + k·ln(n) with the variance known, k = costs + discrete parameters, and the
    // degrees-of-freedom correction of the step detector: ν·(exp(k·ln(n)/ν) − 1).
    const double penalty = (costs + discrete) * std::log(n);
    return weighted_rss +
           (std::isfinite(scale_df) && scale_df > 0 ? scale_df * std::expm1(penalty / scale_df)
                                                    : penalty);
  }
  // n·ln(RSS/n) + k·ln(n) with the scale profiled out, k counting the scale too, times AICc's
  // small-sample factor n / (n − p − 2) (Hurvich & Tsai, Biometrika 76(2), 1989).
  const double k = costs + discrete + 1;
  const double room = std::max(n - costs - 2, 0.5);
  return n * std::log(std::max(weighted_rss, rss_floor) / n) + k * std::log(n) * n / room;
}

std::string DescribeRanges(const FamilyFit& fit) {
  std::vector<std::string> parts;
  for (const ParameterRange& range : fit.ranges) {
    if (range.low == range.high) {
      parts.push_back(absl::StrFormat("%s=%d", range.name, range.low));
    } else if (range.values.size() <= 4) {
      parts.push_back(
          absl::StrFormat("%s in {%s}", range.name, absl::StrJoin(range.values, ", ")));
    } else {
      parts.push_back(absl::StrFormat("%s in [%d, %d]", range.name, range.low, range.high));
    }
  }
  return absl::StrJoin(parts, ", ");
}

std::vector<ImpliedStep> ImpliedSteps(const Sweep& sweep, const FamilyFit& fit,
                                      double z_threshold) {
  std::vector<ImpliedStep> steps;
  if (!fit.fitted || fit.model.family == ModelFamily::kLinear) return steps;
  const std::vector<double> sizes = Sizes(sweep);
  const std::vector<std::vector<double>> columns = DesignColumns(fit.model, sizes);
  const std::vector<bool> step_columns = StepColumns(fit.model);
  const size_t q = fit.costs.size();
  if (columns.size() != q || fit.cost_covariance.size() != q * q) return steps;
  for (size_t i = 0; i + 1 < sizes.size(); ++i) {
    std::vector<double> d(q, 0);
    double jump = 0;
    for (size_t k = 2; k < q; ++k) {
      if (!step_columns[k - 2]) continue;
      d[k] = columns[k][i + 1] - columns[k][i];
      jump += fit.costs[k] * d[k];
    }
    if (jump == 0) continue;
    double variance = 0;
    for (size_t a = 0; a < q; ++a) {
      for (size_t b = 0; b < q; ++b) variance += d[a] * fit.cost_covariance[a * q + b] * d[b];
    }
    const double stderr_ = std::sqrt(std::max(variance, 0.0));
    if (!(std::fabs(jump) >= z_threshold * stderr_)) continue;
    steps.push_back({sizes[i], sizes[i + 1], static_cast<int>(i + 1), jump, stderr_});
  }
  return steps;
}

absl::StatusOr<ModelComparison> FitBufferModels(const Sweep& sweep,
                                                const ModelFitOptions& options) {
  if (absl::Status valid = ValidateSweep(sweep); !valid.ok()) return valid;
  if (sweep.points.size() < 7) {
    return absl::InvalidArgumentError(
        absl::StrFormat("model fits need at least 7 sizes, the sweep has %d", sweep.points.size()));
  }
  absl::StatusOr<NoiseModel> noise = EstimateNoise(sweep);
  if (!noise.ok()) return noise.status();
  const Inputs in = MakeInputs(sweep, *noise);

  const LineBasis basis = MakeLineBasis(in);
  const std::vector<FamilyScreen> screens = ScreenLayouts(in, basis, options);
  ModelComparison result;
  // Rank the fitted families by BIC; the line always fits (two distinct sizes at least).
  auto rank = [&](const Form& form) {
    result.families.clear();
    std::vector<int> order;
    for (size_t f = 0; f < screens.size(); ++f) {
      FamilyResult family = screens[f].family == ModelFamily::kSegmented
                                ? ChooseSegmentation(in, form, options)
                                : Choose(screens[f], in, form, options);
      if (family.fit.fitted) {
        Score(&family, in, form);
        order.push_back(static_cast<int>(f));
      }
      result.families.push_back(std::move(family.fit));
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return result.families[a].bic < result.families[b].bic; });
    return order;
  };
  result.variance_from_runs = noise->source == NoiseModel::Source::kRunSpread;
  std::vector<int> order =
      rank(Form{result.variance_from_runs, result.variance_from_runs
                                               ? noise->degrees_of_freedom
                                               : std::numeric_limits<double>::infinity()});
  if (result.variance_from_runs) {
    const FamilyFit& best = result.families[order[0]];
    const double df = static_cast<double>(in.sizes.size() - best.costs.size());
    if (ScatterExceedsRunSpread(best.weighted_rss, df, noise->degrees_of_freedom)) {
      result.variance_from_runs = false;
      order = rank(Form{false, 0});
    }
  }
  // A family that contains another (BSD + fragments contains BSD) must beat it by the
  // verdict's margin to be preferred: its extra mechanism needs strong evidence too.
  const int best = PreferContained(order, result.families, options.strong_evidence_delta_bic);
  std::stable_partition(order.begin(), order.end(), [&](int f) { return f == best; });
  result.best = static_cast<ModelFamily>(best);
  result.runner_up = RunnerUp(order, result.best);
  const double best_bic = result.families[best].bic;
  result.delta_bic_runner_up = result.families[static_cast<int>(result.runner_up)].bic - best_bic;
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
