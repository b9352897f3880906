#include "analysis/fits/model_ranges.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <utility>
#include <vector>

namespace tickbench::analysis::model_fit_internal {
namespace {

constexpr int64_t kIpv4UdpOverhead = kIpv4HeaderBytes + kUdpHeaderBytes;  // 28

enum class Parameter { kCluster, kThreshold, kSmall, kMtu };

// One size parameter's profile: the BIC of every value tried (infinite where rejected).
struct Profile {
  Parameter parameter = Parameter::kCluster;
  int64_t low = 0, high = 0, step = 1;
  std::map<int64_t, double> bics;
};

int64_t ValueOf(const BufferModel& model, Parameter parameter) {
  switch (parameter) {
    case Parameter::kCluster:
      return model.cluster_bytes;
    case Parameter::kThreshold:
      return model.threshold_bytes;
    case Parameter::kSmall:
      return model.small_bytes;
    case Parameter::kMtu:
      return model.mtu_bytes;
  }
  return 0;
}

int64_t RoundUp(int64_t value, int64_t step) { return (value + step - 1) / step * step; }

// The divisor d of t = C / d in the chosen model (1 where there is no threshold).
int64_t Divisor(const BufferModel& model) {
  return model.threshold_bytes > 0
             ? std::max<int64_t>(model.cluster_bytes / model.threshold_bytes, 1)
             : 1;
}

// The fine grids of the chosen model's size parameters (analysis/fits/model_ranges.h).
std::vector<Profile> Grids(const BufferModel& model, double largest_size) {
  const int64_t largest = std::llround(largest_size);
  std::vector<Profile> grids;
  if (model.cluster_bytes > 0) {
    const int64_t reach = Divisor(model) * (largest + 1);
    grids.push_back({Parameter::kCluster,
                     kFineSizeLow,
                     std::min(RoundUp(reach, kFineSizeStep), kFineSizeHigh),
                     kFineSizeStep,
                     {}});
  }
  if (model.small_bytes > 0) {
    grids.push_back({Parameter::kSmall,
                     kFineSmallLow,
                     std::min(model.cluster_bytes - 1, kFineSmallHigh),
                     1,
                     {}});
  }
  if (model.mtu_bytes > 0) {
    grids.push_back({Parameter::kMtu,
                     kFineMtuLow,
                     std::min(largest + kIpv4UdpOverhead + 8, kFineMtuHigh),
                     1,
                     {}});
  }
  return grids;
}

// The chosen model with one parameter at `value` (t following C by the chosen divisor);
// false where that is no model (s not below C).
bool Moved(const BufferModel& chosen, Parameter parameter, int64_t value, BufferModel* out) {
  *out = chosen;
  if (parameter == Parameter::kCluster) {
    out->cluster_bytes = value;
    if (chosen.threshold_bytes > 0) out->threshold_bytes = value / Divisor(chosen);
  } else if (parameter == Parameter::kSmall) {
    out->small_bytes = value;
  } else {
    out->mtu_bytes = value;
  }
  return out->small_bytes == 0 ||
         (out->small_bytes < out->cluster_bytes && out->threshold_bytes >= 1);
}

// The count columns (bits, DesignColumns order from the first count column) that moving
// `parameter` changes: clusters and small buffers for C (t follows it), small buffers for s,
// chunks for a chunk, packets (the last column) for an MTU.
unsigned VaryingColumns(ModelFamily family, Parameter parameter) {
  const bool bsd = family == ModelFamily::kBsdSocket || family == ModelFamily::kBsdFragments;
  switch (parameter) {
    case Parameter::kCluster:
      return bsd ? 3u : 1u;
    case Parameter::kSmall:
      return 2u;
    default:
      return 1u << (static_cast<unsigned>(CostNames(family).size()) - 3);
  }
}

// Every value of the grid and the chosen value, screened in increasing order.
void Fill(const BufferModel& chosen, const Inputs& in, const LineBasis& basis,
          const ScoreRss& score, Profile& profile) {
  std::vector<int64_t> values;
  for (int64_t v = profile.low; v <= profile.high;
       v += profile.parameter == Parameter::kMtu && v >= kFineMtuByteHigh ? kFineSizeStep
                                                                          : profile.step) {
    values.push_back(v);
  }
  const int64_t own = ValueOf(chosen, profile.parameter);
  values.insert(std::upper_bound(values.begin(), values.end(), own), own);
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::vector<BufferModel> models;
  std::vector<int64_t> tried;
  for (int64_t v : values) {
    BufferModel model;
    if (!Moved(chosen, profile.parameter, v, &model)) continue;
    models.push_back(model);
    tried.push_back(v);
  }
  const std::vector<SeriesResult> results =
      ScreenSeries(in, basis, models, VaryingColumns(chosen.family, profile.parameter));
  for (size_t i = 0; i < tried.size(); ++i) {
    profile.bics[tried[i]] = results[i].rejection == Rejection::kNone
                                 ? score(std::max(results[i].screened.rss, 0.0))
                                 : std::numeric_limits<double>::infinity();
  }
}

// The range of one parameter from which of its tried values fit (`fits`, increasing) and the
// coarse candidates' values that fit (`coarse`).
ParameterRange MakeRange(const char* name, const std::map<int64_t, bool>& fits,
                         const std::vector<int64_t>& coarse, const Profile& grid, int64_t divisor) {
  ParameterRange range;
  range.name = name;
  range.values = coarse;
  range.profiled = true;
  range.grid_low = grid.low / divisor;
  range.grid_high = grid.high / divisor;
  range.grid_step = std::max<int64_t>(grid.step / divisor, 1);
  size_t fitting = 0;
  bool open = false;
  for (const auto& [value, fit] : fits) {
    if (fit && open) range.spans.back().high = value;
    if (fit && !open) range.spans.push_back({value, value});
    open = fit;
    fitting += fit;
  }
  if (!range.spans.empty()) {
    range.low = range.spans.front().low;
    range.high = range.spans.back().high;
  }
  range.share = fits.empty() ? 0 : static_cast<double>(fitting) / static_cast<double>(fits.size());
  range.determined = range.share <= kUndeterminedShare;
  return range;
}

const char* NameOf(Parameter parameter, ModelFamily family) {
  switch (parameter) {
    case Parameter::kCluster:
      return family == ModelFamily::kFixedChunks || family == ModelFamily::kChunksFragments
                 ? "chunk"
                 : "C";
    case Parameter::kThreshold:
      return "t";
    case Parameter::kSmall:
      return "s";
    case Parameter::kMtu:
      return "MTU";
  }
  return "";
}

}  // namespace

void ProfileRanges(const FamilyScreen& screen, const Inputs& in, const LineBasis& basis,
                   const ScoreRss& score, double range_delta_bic, FamilyFit& fit) {
  std::vector<Profile> profiles =
      Grids(fit.model, *std::max_element(in.sizes.begin(), in.sizes.end()));
  if (profiles.empty() || screen.fits.empty()) return;
  std::vector<double> coarse_bics;
  double best = std::numeric_limits<double>::infinity();
  for (const Scored& s : screen.fits) {
    coarse_bics.push_back(score(std::max(s.screened.rss, 0.0)));
    best = std::min(best, coarse_bics.back());
  }
  for (Profile& profile : profiles) Fill(fit.model, in, basis, score, profile);
  // t follows C: its profile is C's, each C at C / divisor.
  if (fit.model.threshold_bytes > 0) {
    Profile t = profiles.front();
    t.parameter = Parameter::kThreshold;
    t.bics.clear();
    for (const auto& [c, bic] : profiles.front().bics) t.bics[c / Divisor(fit.model)] = bic;
    profiles.insert(profiles.begin() + 1, t);
  }
  fit.ranges.clear();
  for (const Profile& profile : profiles) {
    double profile_best = best;
    for (const auto& [value, bic] : profile.bics) profile_best = std::min(profile_best, bic);
    const double limit = profile_best + range_delta_bic;
    std::map<int64_t, bool> fits;
    for (const auto& [value, bic] : profile.bics) fits[value] = bic <= limit;
    std::vector<int64_t> coarse;
    for (size_t i = 0; i < screen.fits.size(); ++i) {
      const int64_t value = ValueOf(screen.fits[i].model, profile.parameter);
      if (coarse_bics[i] <= limit && value > 0) {
        fits[value] = true;
        coarse.push_back(value);
      }
    }
    std::sort(coarse.begin(), coarse.end());
    coarse.erase(std::unique(coarse.begin(), coarse.end()), coarse.end());
    const int64_t divisor = profile.parameter == Parameter::kThreshold ? Divisor(fit.model) : 1;
    fit.ranges.push_back(
        MakeRange(NameOf(profile.parameter, fit.model.family), fits, coarse, profile, divisor));
  }
}

}  // namespace tickbench::analysis::model_fit_internal
