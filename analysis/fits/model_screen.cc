#include "analysis/fits/model_screen.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <numeric>
#include <set>
#include <utility>

#include "analysis/fits/least_squares.h"
#include "model/buffer_layout.h"
#include "platform/stop_signal.h"

namespace tickbench::analysis::model_fit_internal {
namespace {

constexpr int64_t kCommonSizes[] = {64,   112,  128,  256,  512,  1024,  1460,  1472, 1480,
                                    1500, 2048, 4096, 8192, 9000, 16384, 32768, 65536};
constexpr int64_t kSmallSizes[] = {64, 96, 112, 128, 256};
constexpr int64_t kMtus[] = {576, 1280, 1492, 1500, 4352, 9000, 16436, 65536};
constexpr int64_t kIpv4UdpOverhead = kIpv4HeaderBytes + kUdpHeaderBytes;  // 28

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

// Screens one candidate of k ≤ 3 count columns: its weighted RSS with every per-buffer cost
// ≥ 0, and which count columns that fit keeps. Degenerate when a count column, off the line
// and the count columns before it, keeps less than 1e-9 of its norm (the least-squares
// module's rank test). Non-negative least squares exactly: every subset of the columns is
// solved and the best one whose costs are all ≥ 0 is taken (with every cost at 0 it would
// be the line, which is rejected as kNegativeCost).
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

}  // namespace

double Dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
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

namespace {

// kExcursion: the offset of one interior size, or two neighbouring ones, off the weighted
// line, in O(1) each from the line basis (the column is root_w at those sizes, 0 elsewhere;
// y_off is already off the line, so zy needs no projection). Either sign.
void ScreenExcursions(const Inputs& in, const LineBasis& basis, FamilyScreen& screen) {
  const size_t n = in.sizes.size();
  for (size_t i = 1; i + 1 < n; ++i) {
    for (size_t width = 1; width <= 2 && i + width < n; ++width) {
      double zy = 0, norm2 = 0, along1 = 0, along2 = 0;
      BufferModel model;
      model.family = ModelFamily::kExcursion;
      for (size_t j = i; j < i + width; ++j) {
        const double r = basis.root_w[j];
        zy += r * basis.y_off[j];
        norm2 += r * r;
        along1 += r * basis.q1[j];
        along2 += r * basis.q2[j];
        model.excursion_sizes.push_back(in.sizes[j]);
      }
      const double zz = norm2 - along1 * along1 - along2 * along2;
      if (!(zz > kRank * kRank * norm2)) {
        screen.Add(model, Rejection::kDegenerate, {});
        continue;
      }
      screen.Add(model, Rejection::kNone, {basis.y_off_ss - zy * zy / zz, 1u});
    }
  }
}

}  // namespace

namespace {

enum class CountKind { kClusters, kSmalls, kChunks, kPackets };

// The kinds of the count columns of a layout family, in DesignColumns order.
std::vector<CountKind> CountKinds(ModelFamily family) {
  switch (family) {
    case ModelFamily::kBsdSocket:
      return {CountKind::kClusters, CountKind::kSmalls};
    case ModelFamily::kBsdFragments:
      return {CountKind::kClusters, CountKind::kSmalls, CountKind::kPackets};
    case ModelFamily::kFixedChunks:
      return {CountKind::kChunks};
    case ModelFamily::kChunksFragments:
      return {CountKind::kChunks, CountKind::kPackets};
    case ModelFamily::kIpv4Fragments:
      return {CountKind::kPackets};
    default:
      return {};
  }
}

// One count column of a layout at whole-byte sizes, as DesignColumns has it.
void CountColumn(const BufferModel& m, CountKind kind, const std::vector<int64_t>& sizes,
                 std::vector<double>& column) {
  column.resize(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    const int64_t n = sizes[i];
    int64_t count = 0;
    if (kind == CountKind::kClusters || kind == CountKind::kSmalls) {
      const model::BsdBuffers b =
          model::BsdSocketBuffers(n, m.cluster_bytes, m.threshold_bytes, m.small_bytes);
      count = kind == CountKind::kClusters ? b.clusters : b.small_buffers;
    } else if (kind == CountKind::kChunks) {
      count = model::FixedChunks(n, m.cluster_bytes);
    } else {
      count = model::Ipv4UdpPackets(n, m.mtu_bytes);
    }
    column[i] = static_cast<double>(count);
  }
}

}  // namespace

std::vector<SeriesResult> ScreenSeries(const Inputs& in, const LineBasis& basis,
                                       const std::vector<BufferModel>& models, unsigned varying) {
  std::vector<SeriesResult> out;
  if (models.empty()) return out;
  std::vector<int64_t> sizes;
  for (double size : in.sizes) sizes.push_back(std::llround(size));
  const std::vector<CountKind> kinds = CountKinds(models[0].family);
  std::vector<std::vector<double>> previous(kinds.size()), column(kinds.size());
  std::vector<OffColumn> off(kinds.size());
  std::vector<const OffColumn*> pointers;
  for (const OffColumn& c : off) pointers.push_back(&c);
  SeriesResult last;
  for (const BufferModel& model : models) {
    if (platform::StopRequested()) {  // the rest repeat the last: FitBufferModels cancels
      out.push_back(last);
      continue;
    }
    bool changed = out.empty();
    for (size_t k = 0; k < kinds.size(); ++k) {
      if (!out.empty() && !(varying & (1u << k))) continue;
      CountColumn(model, kinds[k], sizes, column[k]);
      if (!out.empty() && column[k] == previous[k]) continue;
      off[k] = MakeOffColumn(basis, column[k]);
      std::swap(previous[k], column[k]);
      changed = true;
    }
    if (changed) {
      last = {};
      last.rejection = Screen(pointers, basis, &last.screened);
    }
    out.push_back(last);
  }
  return out;
}

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
  ScreenExcursions(in, basis, screen_of(ModelFamily::kExcursion));

  std::vector<BufferModel> mtus = MtuCandidates(options);
  std::vector<OffColumn> packets;
  for (const BufferModel& mtu : mtus) {
    packets.push_back(MakeOffColumn(basis, DesignColumns(mtu, in.sizes)[2]));
    Screened screened;
    const Rejection rejection = Screen({&packets.back()}, basis, &screened);
    screen_of(ModelFamily::kIpv4Fragments).Add(mtu, rejection, screened);
  }
  for (const BufferModel& chunk : ChunkCandidates(options)) {
    if (platform::StopRequested()) break;  // FitBufferModels returns Cancelled
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
    if (platform::StopRequested()) break;
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

}  // namespace tickbench::analysis::model_fit_internal
