#include "harness/page/page_headline.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/page/sweep_plot.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

// A share of the truth in percent, to two significant digits ("0.77", "1.5", "50").
std::string Percent(double part, double whole) {
  if (!(whole > 0) || !std::isfinite(part)) return "?";
  const double v = 100 * part / whole;
  return std::fabs(v) >= 10 ? absl::StrFormat("%.0f", v) : absl::StrFormat("%.2g", v);
}

// What single round trips say: unresolved (T above the round trip), biased by the mean
// test, or resolved and unbiased.
std::string SingleReadings(const StudyCell& c) {
  if (c.single_reading_unresolved) {
    return absl::StrFormat(
        "%.0f%% of single round trips read 0 — per-iteration figures are useless",
        100 * c.per_iteration.zero_fraction);
  }
  if (c.biased) {
    return absl::StrFormat("single round trips are biased (their mean is off by %s%% of the truth)",
                           Percent(c.bias_ci.estimate, c.per_iteration_truth_ns));
  }
  return "single round trips resolve the round trip, with no bias shown";
}

// What the averaged figure says: unresolved (T/N over 10% of the RTT), within its bound or
// beyond it.
std::string Averaged(const StudyCell& c) {
  if (c.averaged_unresolved) {
    return absl::StrFormat(
        "the averaged figure is unresolved (T/N is %s%% of the round trip; about %d round "
        "trips would resolve it to 1%%)",
        Percent(c.averaged_bound_ns, c.truth_ns), c.round_trips_to_resolve);
  }
  if (c.averaged_within_bound) {
    return absl::StrCat("the averaged figure is within ", Percent(c.total_bound_ns(), c.truth_ns),
                        "% of the truth");
  }
  return absl::StrCat("the averaged figure is off by ", Percent(c.averaged_error_ns, c.truth_ns),
                      "%, BEYOND its bound of ", Percent(c.total_bound_ns(), c.truth_ns), "%");
}

std::string Theory(const StudyCell& c) {
  if (!c.prediction_applies) return "";
  if (!c.verdict.agrees()) return "; the readings DISAGREE with the tick theory";
  if (c.phase_locked) return "; start phases are locked to the tick (try --dither)";
  return "; the readings agree with the tick theory";
}

}  // namespace

std::string StudyHeadline(const StudyCell& cell) {
  const std::string name = absl::StrFormat("%s at %d B", cell.clock, cell.size_bytes);
  if (cell.summary.empty()) {
    return absl::StrCat(name, ": no figure", cell.error.empty() ? "" : " (", cell.error,
                        cell.error.empty() ? "" : ")", ".");
  }
  return absl::StrCat(name, ": ", SingleReadings(cell), "; ", Averaged(cell), Theory(cell), ".");
}

namespace {

// `value` with its interval's half-width, for a headline: to the digits the interval
// supports but at most about 4 significant ones, the ± only where the interval is the
// coarser of the two.
std::string WithHalfWidth(double value, double half) {
  const double readable = 5e-4 * std::fabs(value);
  if (half >= readable) return timing::FormatWithHalfWidth(value, half);
  return timing::FormatRounded(value, readable);
}

// A size's lead figure with its interval: throughput in KB/s (2n bytes per round trip; the
// RTT's interval carried through 2n / RTT), else the averaged RTT in us.
std::string LeadFigure(const SweepPlotExtras::Point& p, double rtt_ns, bool throughput) {
  const double bytes = 2 * p.size_bytes;
  if (throughput) {
    const double kb = bytes / rtt_ns * 1e6;  // bytes per ns -> KB/s (1 KB = 1000 bytes)
    if (!p.has_interval || !(p.averaged_low_ns > 0)) return absl::StrFormat("%.4g KB/s", kb);
    const double half = 0.5 * (bytes / p.averaged_low_ns - bytes / p.averaged_high_ns) * 1e6;
    return absl::StrCat(WithHalfWidth(kb, half), " KB/s");
  }
  if (!p.has_interval) return absl::StrFormat("%.4g us", rtt_ns * 1e-3);
  return absl::StrCat(
      WithHalfWidth(rtt_ns * 1e-3, 0.5 * (p.averaged_high_ns - p.averaged_low_ns) * 1e-3), " us");
}

}  // namespace

std::string SweepHeadline(const std::vector<RunRecord>& records, TableStyle style) {
  const SweepPlotExtras extras = SweepPlotExtrasFromRecords(records);
  if (extras.points.empty()) return "Nothing was measured: no size has a figure.";
  const bool throughput = style == TableStyle::kThroughput;
  // The mean over the valid runs of each size, as the table's lead figure.
  std::vector<double> means;
  std::vector<size_t> unresolved_sizes;
  for (const SweepPlotExtras::Point& p : extras.points) {
    double sum = 0;
    int n = 0;
    bool unresolved = false;
    for (const RunRecord& r : records) {
      if (!r.valid() || r.size_bytes != static_cast<size_t>(p.size_bytes)) continue;
      sum += r.averaged_rtt_ns;
      ++n;
      unresolved = unresolved || r.averaged_unresolved;
    }
    means.push_back(sum / n);
    if (unresolved) unresolved_sizes.push_back(static_cast<size_t>(p.size_bytes));
  }
  const char* what = throughput ? "Throughput" : "Averaged round trip";
  std::string text =
      extras.points.size() == 1
          ? absl::StrFormat("%s %s at %.0f B", what,
                            LeadFigure(extras.points[0], means[0], throughput),
                            extras.points[0].size_bytes)
          : absl::StrFormat("%s from %s at %.0f B to %s at %.0f B", what,
                            LeadFigure(extras.points.front(), means.front(), throughput),
                            extras.points.front().size_bytes,
                            LeadFigure(extras.points.back(), means.back(), throughput),
                            extras.points.back().size_bytes);
  absl::StrAppend(&text, " (timed over the whole loop; 95% intervals across runs)");
  if (!unresolved_sizes.empty()) {
    absl::StrAppendFormat(&text, "; %d of %d sizes UNRESOLVED by the clock",
                          unresolved_sizes.size(), extras.points.size());
  }
  return text + ".";
}

}  // namespace tickbench::harness
