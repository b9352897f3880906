#include "timing/theory/tick_intervals.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <vector>

#include "core/tick_statistics.h"
#include "timing/stats/statistics.h"

namespace tickbench::timing {
namespace {

// The groups' spans of `values`.
std::vector<absl::Span<const double>> Split(absl::Span<const double> values,
                                            const std::vector<int64_t>& group_sizes) {
  std::vector<absl::Span<const double>> groups;
  size_t at = 0;
  for (int64_t size : group_sizes) {
    const size_t n = std::min(static_cast<size_t>(std::max<int64_t>(size, 0)), values.size() - at);
    groups.push_back(values.subspan(at, n));
    at += n;
  }
  return groups;
}

// Whether every value equals the first to rounding (the same readings in another order sum
// to a few ulps apart).
bool AllEqual(const std::vector<double>& values) {
  if (values.empty()) return true;
  const double tolerance = 1e-9 * std::max(std::abs(values.front()), 1e-300);
  return std::all_of(values.begin(), values.end(),
                     [&](double v) { return std::abs(v - values.front()) <= tolerance; });
}

// pooled ± t · SD of the groups' values / sqrt(groups); where every group has the same
// value, the SD is `sd_floor` (what values on their grid are still compatible with).
ConfidenceInterval AroundPooled(double pooled, const std::vector<double>& group_values,
                                double sd_floor, double confidence) {
  ConfidenceInterval ci =
      AcrossRunsInterval(group_values, AllEqual(group_values) ? sd_floor : 0, confidence);
  if (!ci.valid) return ci;
  const double shift = pooled - ci.estimate;
  ci.estimate = pooled;
  ci.low += shift;
  ci.high += shift;
  return ci;
}

// A share of rare events (fewer than kRareEvents of them, `events` in `trials`): the groups'
// few nonzero values make a t interval far too narrow on the side of the truth, so the
// interval also holds the exact binomial one of that many events (Clopper–Pearson).
constexpr double kRareEvents = 20;
ConfidenceInterval WithRareEvents(ConfidenceInterval ci, double events, int64_t trials,
                                  double confidence) {
  if (!ci.valid || trials <= 0) return ci;
  const double rarer = std::min(events, static_cast<double>(trials) - events);
  if (!(rarer < kRareEvents)) return ci;
  const ConfidenceInterval exact =
      ProportionInterval(std::clamp<int64_t>(std::llround(events), 0, trials), trials, confidence);
  if (!exact.valid) return ci;
  ci.low = std::min(ci.low, exact.low);
  ci.high = std::max(ci.high, exact.high);
  return ci;
}

// The population SD (ns) of readings on the tick grid, `shares` of them at each tick count.
double MixtureSd(const std::map<int64_t, double>& shares, double period_ns) {
  double first = 0, second = 0;
  for (const auto& [ticks, share] : shares) {
    first += share * static_cast<double>(ticks);
    second += share * static_cast<double>(ticks) * static_cast<double>(ticks);
  }
  return period_ns * std::sqrt(std::max(0.0, second - first * first));
}

// The SD where some tick counts are rare: a reading of 2 ticks among 0s and 1s moves the SD far
// more than its share, and groups that hold none or one of a handful of them make a t interval
// that misses (30% coverage at d = 4.9 ms, T = 10 ms, exponential jitter of SD 1 ms, where 1
// reading in 5000 is 2 ticks). Rare counts are those read fewer than kRareEvents times, and
// the count just beyond the smallest or the largest read where some interval's duration
// (`true_ns`, the reference's) reaches it: a duration d reads floor(d / T) or ceil(d / T)
// ticks, so a count no duration reaches is not possible, while one that some duration reaches
// may just not have come up. The interval also holds the SD with each rare count's share at
// either end of its exact binomial interval (Clopper–Pearson), the difference taken from or
// given to the most common count.
ConfidenceInterval WithRareTicks(ConfidenceInterval ci, absl::Span<const double> readings_ns,
                                 absl::Span<const double> true_ns, double period_ns,
                                 double confidence) {
  if (!ci.valid || readings_ns.empty()) return ci;
  std::map<int64_t, int64_t> counts;
  for (double r : readings_ns) ++counts[std::max<int64_t>(0, std::llround(r / period_ns))];
  const int64_t total = static_cast<int64_t>(readings_ns.size());
  const int64_t lowest = counts.begin()->first, highest = counts.rbegin()->first;
  for (double d : true_ns) {
    if (lowest > 0 && d < static_cast<double>(lowest) * period_ns) counts.emplace(lowest - 1, 0);
    if (d > static_cast<double>(highest) * period_ns) counts.emplace(highest + 1, 0);
  }
  int64_t mode = lowest;
  std::map<int64_t, double> shares;
  for (const auto& [ticks, count] : counts) {
    if (count > counts[mode]) mode = ticks;
    shares[ticks] = static_cast<double>(count) / static_cast<double>(total);
  }
  for (const auto& [ticks, count] : counts) {
    if (ticks == mode || !(static_cast<double>(count) < kRareEvents)) continue;
    const ConfidenceInterval exact = ProportionInterval(count, total, confidence);
    if (!exact.valid) continue;
    for (double share : {exact.low, exact.high}) {
      std::map<int64_t, double> moved = shares;
      moved[mode] -= share - moved[ticks];
      moved[ticks] = share;
      if (moved[mode] < 0) continue;
      const double sd = MixtureSd(moved, period_ns);
      ci.low = std::min(ci.low, sd);
      ci.high = std::max(ci.high, sd);
    }
  }
  return ci;
}

ConfidenceInterval ClipShare(ConfidenceInterval ci) {
  ci.low = std::max(0.0, ci.low);
  ci.high = std::min(1.0, ci.high);
  return ci;
}

ConfidenceInterval ClipSd(ConfidenceInterval ci) {
  ci.low = std::max(0.0, ci.low);
  return ci;
}

// The most the (population) SD of `count` two-valued readings T apart, `above` of them on
// the upper value, moves when one reading moves by a tick: the grid the SD of a group lies on.
double SdStep(int64_t above, int64_t count, double period_ns) {
  if (count < 2) return 0;
  auto sd = [&](int64_t k) {
    k = std::clamp<int64_t>(k, 0, count);
    return period_ns * std::sqrt(static_cast<double>(k) * static_cast<double>(count - k)) /
           static_cast<double>(count);
  };
  return std::max(std::abs(sd(above + 1) - sd(above)), std::abs(sd(above) - sd(above - 1)));
}

// The readings above the tick below the group's mean: for readings of two neighbouring
// values, those on the upper one.
int64_t ReadingsAboveLowerTick(absl::Span<const double> readings, double period_ns) {
  RunningStats stats;
  for (double r : readings) stats.Add(r / period_ns);
  const double lower = std::floor(stats.mean());
  int64_t above = 0;
  for (double r : readings) above += std::llround(r / period_ns) > lower;
  return above;
}

}  // namespace

TickFigures PredictTickFigures(absl::Span<const double> true_ns, double period_ns, int64_t n,
                               double shift_ns) {
  TickFigures s;
  if (true_ns.empty() || !(period_ns > 0)) return s;
  double first = 0, second = 0;  // moments of the reading in ticks
  for (double d : true_ns) {
    // One interval's two readings, as the core predicts them (core/tick_statistics.h).
    const core::TickReading reading = core::PredictTickReading(d + shift_ns, period_ns);
    const double n_i = static_cast<double>(reading.n), f_i = reading.f;
    first += n_i + f_i;
    second += (1 - f_i) * n_i * n_i + f_i * (n_i + 1) * (n_i + 1);
    s.share += n_i > n ? 1.0 : n_i == n ? f_i : 0.0;
    s.zero_share += n_i == 0 ? 1 - f_i : 0.0;
  }
  const double count = static_cast<double>(true_ns.size());
  s.share /= count;
  s.zero_share /= count;
  const double mean = first / count;
  s.sd_ns = period_ns * std::sqrt(std::max(0.0, second / count - mean * mean));
  return s;
}

TickFigures ObserveTickFigures(absl::Span<const double> readings_ns, double period_ns, int64_t n) {
  TickFigures o;
  if (readings_ns.empty() || !(period_ns > 0)) return o;
  RunningStats stats;
  for (double r : readings_ns) {
    const int64_t ticks = std::llround(r / period_ns);
    o.share += ticks > n;
    o.zero_share += ticks == 0;
    stats.Add(r);
  }
  const double count = static_cast<double>(readings_ns.size());
  o.share /= count;
  o.zero_share /= count;
  // The population SD (divisor N), like with like: the prediction and the truth are the SD
  // of the readings' distribution, and a sample SD (N − 1) exceeds T/2, the most a tick can
  // give, wherever about half the readings are n + 1 ticks.
  o.sd_ns = stats.sd() * std::sqrt((count - 1) / count);
  return o;
}

std::vector<int64_t> TickGroupSizes(const std::vector<int64_t>& run_sizes) {
  const int64_t runs = static_cast<int64_t>(run_sizes.size());
  if (runs == 0) return {};
  const int64_t parts = (kMinTickGroups + runs - 1) / runs;  // per run
  std::vector<int64_t> groups;
  for (int64_t size : run_sizes) {
    const int64_t k = std::max<int64_t>(1, std::min(parts, size));
    for (int64_t p = 0; p < k; ++p) groups.push_back(size * (p + 1) / k - size * p / k);
  }
  return groups;
}

TickFigureIntervals ObservedTickIntervals(absl::Span<const double> readings_ns,
                                          const std::vector<int64_t>& group_sizes, double period_ns,
                                          int64_t n, double confidence,
                                          absl::Span<const double> true_ns) {
  TickFigureIntervals out;
  const std::vector<absl::Span<const double>> groups = Split(readings_ns, group_sizes);
  std::vector<double> shares, zeros, sds;
  int64_t smallest = 0;
  double sd_step = 0;
  for (absl::Span<const double> group : groups) {
    if (group.empty()) continue;
    const TickFigures g = ObserveTickFigures(group, period_ns, n);
    shares.push_back(g.share);
    zeros.push_back(g.zero_share);
    sds.push_back(g.sd_ns);
    const int64_t count = static_cast<int64_t>(group.size());
    smallest = smallest == 0 ? count : std::min(smallest, count);
    sd_step = std::max(sd_step, SdStep(ReadingsAboveLowerTick(group, period_ns), count, period_ns));
  }
  if (shares.size() < 2) return out;
  const int64_t g = static_cast<int64_t>(shares.size());
  const double share_floor = QuantizedSdFloor(1.0 / static_cast<double>(smallest), g);
  const TickFigures pooled = ObserveTickFigures(readings_ns, period_ns, n);
  const int64_t count = static_cast<int64_t>(readings_ns.size());
  out.share = ClipShare(WithRareEvents(AroundPooled(pooled.share, shares, share_floor, confidence),
                                       pooled.share * count, count, confidence));
  out.zero_share =
      ClipShare(WithRareEvents(AroundPooled(pooled.zero_share, zeros, share_floor, confidence),
                               pooled.zero_share * count, count, confidence));
  out.sd_ns = ClipSd(
      WithRareTicks(AroundPooled(pooled.sd_ns, sds, QuantizedSdFloor(sd_step, g), confidence),
                    readings_ns, true_ns, period_ns, confidence));
  return out;
}

TickFigureIntervals PredictedTickIntervals(absl::Span<const double> true_ns,
                                           const std::vector<int64_t>& group_sizes,
                                           double period_ns, int64_t n,
                                           double reference_resolution_ns, double confidence) {
  TickFigureIntervals out;
  std::vector<double> shares, zeros, sds;
  for (absl::Span<const double> group : Split(true_ns, group_sizes)) {
    if (group.empty()) continue;
    const TickFigures g = PredictTickFigures(group, period_ns, n);
    shares.push_back(g.share);
    zeros.push_back(g.zero_share);
    sds.push_back(g.sd_ns);
  }
  if (shares.size() < 2) return out;
  const TickFigures pooled = PredictTickFigures(true_ns, period_ns, n);
  out.share = AroundPooled(pooled.share, shares, 0, confidence);
  out.zero_share = AroundPooled(pooled.zero_share, zeros, 0, confidence);
  out.sd_ns = AroundPooled(pooled.sd_ns, sds, 0, confidence);
  // What the reference cannot tell: every duration a resolution longer or shorter.
  for (double shift : {-reference_resolution_ns, reference_resolution_ns}) {
    const TickFigures moved = PredictTickFigures(true_ns, period_ns, n, shift);
    for (auto [ci, value] :
         {std::pair{&out.share, moved.share}, std::pair{&out.zero_share, moved.zero_share},
          std::pair{&out.sd_ns, moved.sd_ns}}) {
      ci->low = std::min(ci->low, value);
      ci->high = std::max(ci->high, value);
    }
  }
  // Rare events only where the durations vary: the same durations throughout (a fixed d)
  // predict exactly. Where they vary, a share whose groups all predict 0 is not known to be
  // 0: durations that reach it may just not have come up (a zero share of 1.9e-4 at 25 ms
  // with normal jitter of 5 ms, none below T in 1588 trips in one cell of eight).
  const int64_t count = static_cast<int64_t>(true_ns.size());
  if (!AllEqual(std::vector<double>(true_ns.begin(), true_ns.end()))) {
    out.share = WithRareEvents(out.share, pooled.share * count, count, confidence);
    out.zero_share = WithRareEvents(out.zero_share, pooled.zero_share * count, count, confidence);
  }
  out.share = ClipShare(out.share);
  out.zero_share = ClipShare(out.zero_share);
  out.sd_ns = ClipSd(out.sd_ns);
  return out;
}

}  // namespace tickbench::timing
