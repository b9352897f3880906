#include "harness/page/page_headline.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/page/sweep_plot.h"
#include "harness/report/size_summary.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

// A share of the truth in percent, to two significant digits, without an exponent ("0.77",
// "1.5", "50", "0.000097").
std::string Percent(double part, double whole) {
  if (!(whole > 0) || !std::isfinite(part)) return "?";
  // Two significant digits first, so that 9.999e-6 counts its decimals as 1.0e-5.
  const double v = std::stod(absl::StrFormat("%.2g", 100 * part / whole));
  if (v == 0) return "0";
  const int decimals = std::max(0, 1 - static_cast<int>(std::floor(std::log10(std::fabs(v)))));
  return absl::StrFormat("%.*f", decimals, v);
}

// The interval that called the cell biased (the pooled test's, else the first run's own
// that excludes 0), as SummarizeCell decides it; nullptr for none.
const timing::ConfidenceInterval* DecidingBias(const StudyCell& c) {
  if (c.bias_test_ci.valid && !c.bias_test_ci.Contains(0)) return &c.bias_test_ci;
  for (const timing::ConfidenceInterval& ci : c.run_bias_cis) {
    if (ci.valid && !ci.Contains(0)) return &ci;
  }
  return nullptr;
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
    // Each pair is read clock first, reference second: a bias no larger than one read of
    // the clock can come from that order (SummarizeCell says the same).
    const timing::ConfidenceInterval* decided = DecidingBias(c);
    if (decided != nullptr && c.read_cost_ns > 0 &&
        std::max(std::fabs(decided->low), std::fabs(decided->high)) <= c.read_cost_ns) {
      return absl::StrFormat(
          "single round trips resolve the round trip; their mean is off by %s%%, within one "
          "read of the clock (%.0f ns)",
          Percent(c.bias_ci.estimate, c.per_iteration_truth_ns), c.read_cost_ns);
    }
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

std::string SweepHeadline(const std::vector<RunRecord>& records, TableStyle style) {
  // The table's lead figure and interval: throughput in KB/s, else the averaged RTT in us.
  const bool throughput = style == TableStyle::kThroughput;
  const ThroughputPlot rates = ThroughputPlotFromRecords(records);
  const SweepPlotExtras extras = throughput ? rates.extras : SweepPlotExtrasFromRecords(records);
  if (extras.points.empty()) return "Nothing was measured: no size has a figure.";
  const double scale = throughput ? 1 : 1e-3;  // the RTT's ns to us
  std::vector<std::string> figures;
  int unresolved = 0;
  int64_t trips_to_resolve = 0;
  for (const RunRecord& r : records) {
    if (r.valid()) trips_to_resolve = std::max(trips_to_resolve, r.round_trips_to_resolve);
  }
  for (const SweepPlotExtras::Point& p : extras.points) {
    std::vector<const RunRecord*> runs;
    for (const RunRecord& r : records) {
      if (r.size_bytes == static_cast<size_t>(p.size_bytes)) runs.push_back(&r);
    }
    // The table's lead figure and interval (SizeSummary), in KB/s or us.
    const SizeSummary s = SummarizeSize(runs);
    timing::ConfidenceInterval ci = throughput ? s.throughput_bytes_per_s : s.averaged_rtt_ns;
    const double to_unit = throughput ? 1e-3 : scale;
    for (double* x : {&ci.estimate, &ci.low, &ci.high}) *x *= to_unit;
    // For a headline at most about 4 significant digits: the ± only where the interval is
    // the coarser of the two.
    const double readable = 5e-4 * std::fabs(ci.estimate);
    const std::string figure = ci.valid && ci.high - ci.estimate < readable
                                   ? timing::FormatRounded(ci.estimate, readable)
                                   : FigureWithInterval(ci, throughput ? 0 : s.quantum_ns * scale);
    figures.push_back(
        absl::StrFormat("%s %s at %.0f B", figure, throughput ? "KB/s" : "us", p.size_bytes));
    if (s.unresolved) ++unresolved;
  }
  // Unresolved everywhere: the figures say nothing, and the headline says so alone.
  if (unresolved == static_cast<int>(extras.points.size())) {
    return absl::StrFormat(
        "%s UNRESOLVED by the clock: T/N is over 10%% of the round trip; about %d round trips "
        "would resolve %s to 1%%.",
        unresolved == 1 ? "The size is" : absl::StrFormat("All %d sizes are", unresolved),
        trips_to_resolve, unresolved == 1 ? "it" : "them");
  }
  std::string text = absl::StrCat(throughput ? "Throughput " : "Averaged round trip ",
                                  figures.size() == 1 ? "" : "from ", figures.front());
  if (figures.size() > 1) absl::StrAppend(&text, " to ", figures.back());
  absl::StrAppend(&text, " (timed over the whole loop; 95% intervals across runs)");
  if (unresolved > 0) {
    absl::StrAppendFormat(&text, "; %d of %d sizes UNRESOLVED by the clock", unresolved,
                          extras.points.size());
  }
  return text + ".";
}

}  // namespace tickbench::harness
