#include "harness/page/study_plot.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "timing/stats/confidence.h"
#include "timing/stats/statistics.h"

namespace tickbench::harness {
namespace {

std::string Quote(absl::string_view text) { return GnuplotQuote(text); }
std::string QuoteUser(absl::string_view text) { return GnuplotQuoteUser(text); }

std::string Number(double value) {
  return std::isfinite(value) ? absl::StrFormat("%.6g", value) : std::string("NaN");
}

// Writes a study cell's histogram rows (reading in ticks of T, share, predicted share) to
// `data`; sets `first` and `last` to the first and last bucket with either share above 0.
void AppendHistogramData(const StudyCell& cell, std::string& data, int& first, int& last) {
  int64_t total = 0;
  for (int64_t count : cell.histogram) total += count;
  const size_t buckets = std::max(cell.histogram.size(), cell.prediction.histogram.size());
  double predicted_total = 0;
  for (double p : cell.prediction.histogram) predicted_total += p;
  for (size_t i = 0; i < buckets; ++i) {
    const double share =
        i < cell.histogram.size() && total > 0 ? static_cast<double>(cell.histogram[i]) / total : 0;
    const double predicted =
        cell.prediction_applies && i < cell.prediction.histogram.size() && predicted_total > 0
            ? cell.prediction.histogram[i] / predicted_total
            : std::numeric_limits<double>::quiet_NaN();
    if (share > 0 || predicted > 0) {
      if (first < 0) first = static_cast<int>(i);
      last = static_cast<int>(i);
    }
    absl::StrAppendFormat(&data, "%d %.6g %s\n", i, share, Number(predicted));
  }
}

// A fine clock's readings binned in time: the pooled per-iteration percentiles min, p1,
// p50, p90, p99 and max cut the readings into bins holding 1, 49, 40, 9 and 1% of them;
// a bin of no width (equal percentiles) holds its share at one value, and neighbours at
// the same value merge. Rows: left edge, right edge and share, in us.
struct TimeBin {
  double left_us, right_us, share;
};

std::vector<TimeBin> PercentileBins(const timing::Summary& s) {
  const double edges[] = {s.min, s.p1, s.p50, s.p90, s.p99, s.max};
  const double shares[] = {0.01, 0.49, 0.40, 0.09, 0.01};
  std::vector<TimeBin> bins;
  for (int i = 0; i < 5; ++i) {
    const TimeBin bin{edges[i] * 1e-3, edges[i + 1] * 1e-3, shares[i]};
    const bool point = bin.left_us == bin.right_us;
    if (point && !bins.empty() && bins.back().left_us == bins.back().right_us &&
        bins.back().left_us == bin.left_us) {
      bins.back().share += bin.share;
    } else {
      bins.push_back(bin);
    }
  }
  return bins;
}

// A panel's x range: p1..p99 of the readings, the truth and the estimate, with a margin.
std::pair<double, double> FineRange(const StudyCell& cell) {
  const double truth_us = cell.truth_ns * 1e-3;
  const double estimate_us = cell.averaged_ns * 1e-3;
  const double low = std::min({cell.per_iteration.p1 * 1e-3, truth_us, estimate_us});
  const double high = std::max({cell.per_iteration.p99 * 1e-3, truth_us, estimate_us});
  const double margin = high > low ? 0.15 * (high - low)
                                   : std::max(0.005 * std::abs(high), cell.resolution_ns * 1e-3);
  return {low - margin, high + margin};
}

// A fine cell's data rows (bar centre, share, width; in us) and its x range.
std::pair<double, double> AppendTimeBinData(const StudyCell& cell, std::string& data) {
  const std::pair<double, double> range = FineRange(cell);
  const double point_width = 0.01 * (range.second - range.first);
  for (const TimeBin& bin : PercentileBins(cell.per_iteration)) {
    const double width = std::max(bin.right_us - bin.left_us, point_width);
    absl::StrAppendFormat(&data, "%.9g %.6g %.9g\n", 0.5 * (bin.left_us + bin.right_us), bin.share,
                          width);
  }
  return range;
}

}  // namespace

bool StudyCellBinnedInTime(const StudyCell& cell) {
  return cell.resolution_ns > 0 && cell.per_iteration.count > 0 &&
         cell.per_iteration_truth_ns > kTimeBinnedTicks * cell.resolution_ns;
}

namespace {

// The x range and its tics: at most 5 intervals of 1, 2 or 5 times a power of 10 and at
// least `least_step` (a whole tick on a tick axis), so that the tic labels of a 400-pixel
// panel do not run into each other.
void AppendXRange(double low, double high, double least_step, std::string& script) {
  absl::StrAppendFormat(&script, "set xrange [%s:%s]\n", Number(low), Number(high));
  if (!(high > low)) return;
  const double rough = (high - low) / 5;
  const double power = std::pow(10, std::floor(std::log10(rough)));
  double step = 10 * power;
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * power >= rough) {
      step = m * power;
      break;
    }
  }
  absl::StrAppendFormat(&script, "set xtics %s\n", Number(std::max(step, least_step)));
}

// The truth and the estimate as vertical lines in front of the bars (at `truth_x` and
// `estimate_x` on the panel's axis), the truth labelled at the top so that it shows where
// it falls on a bar; the panel's title and x label.
void AppendPanelLines(double truth_x, double estimate_x, const std::string& truth_label,
                      const std::string& title, const std::string& xlabel, std::string& script) {
  absl::StrAppendFormat(
      &script,
      "set arrow 1 from %s, graph 0 to %s, graph 1 nohead front lw 3 lc rgb '#009988'\n"
      "set arrow 2 from %s, graph 0 to %s, graph 1 nohead front dt 2 lw 2 lc rgb '#222222'\n",
      Number(truth_x), Number(truth_x), Number(estimate_x), Number(estimate_x));
  absl::StrAppend(&script, "set label 1 ", Quote(truth_label), " at ", Number(truth_x),
                  ", graph 0.55 left offset 0.6,0 front tc rgb '#00665a' font ',9'\n");
  absl::StrAppend(&script, "set title ", QuoteUser(title), " noenhanced\n");
  absl::StrAppend(&script, "set xlabel ", QuoteUser(xlabel), "\n");
}

const char kPanelLineKeys[] =
    "NaN with lines lw 3 lc rgb '#009988' title 'truth (reference, averaged pass)', "
    "NaN with lines dt 2 lw 2 lc rgb '#222222' title 'averaged estimate'\n";

std::string PanelTitle(const StudyCell& cell) {
  return absl::StrFormat("%s at %d B", GnuplotSafeText(cell.clock), cell.size_bytes);
}

std::string DurationText(double ns) { return absl::FormatDuration(absl::Nanoseconds(ns)); }

// `value` to the digits an interval of `half_width` supports, at most 4 significant ones
// (a label, not a table: an exact simulation's interval of no width supports any number).
std::string RoundedText(double value, double half_width) {
  if (!(half_width > 1e-4 * std::fabs(value)) || !std::isfinite(half_width)) {
    return absl::StrFormat("%.4g", value);
  }
  return timing::FormatRounded(value, half_width);
}

// The truth's label: in ms from 1 ms up, else in us, and in ticks of `t_ns` where given,
// each to the digits of the truth's interval.
std::string TruthLabel(const StudyCell& cell, double t_ns) {
  const double half = cell.truth_ci.valid ? cell.truth_ci.half_width() : 0;
  const double unit = cell.truth_ns >= 1e6 ? 1e6 : 1e3;
  std::string text = absl::StrFormat("truth %s %s", RoundedText(cell.truth_ns / unit, half / unit),
                                     unit == 1e6 ? "ms" : "us");
  if (t_ns > 0) absl::StrAppend(&text, " = ", RoundedText(cell.truth_ns / t_ns, half / t_ns), " T");
  return text;
}

// A coarse clock's panel, in ticks of T: the share of readings at each number of ticks,
// with the theory's shares, the truth and the estimate.
void AppendTickPanel(const StudyCell& cell, size_t index, GnuplotJob& job) {
  // A cell without a T (nothing measured) is drawn on a 1 us grid.
  const double t_ns = cell.resolution_ns > 0 ? cell.resolution_ns : 1e3;
  absl::StrAppendFormat(&job.data,
                        "# %s at %d B, T = %s: reading_ticks share_of_readings predicted_share\n",
                        GnuplotSafeText(cell.clock), cell.size_bytes, DurationText(t_ns));
  int first = -1, last = -1;
  AppendHistogramData(cell, job.data, first, last);
  absl::StrAppend(&job.data, "\n\n");
  if (first < 0) first = last = 0;
  const double truth = cell.truth_ns / t_ns;
  const double estimate = cell.averaged_ns / t_ns;
  const double x_low = std::max(std::min({first - 0.5, truth - 0.5, estimate - 0.5}), -0.5);
  const double x_high = std::max({last + 0.5, truth + 0.5, estimate + 0.5});
  const bool open_last = static_cast<size_t>(last) + 1 == cell.histogram.size() && last > 0;
  AppendXRange(x_low, x_high, 1, job.script);
  absl::StrAppend(&job.script, "set boxwidth 0.5\n");
  AppendPanelLines(truth, estimate, TruthLabel(cell, t_ns), PanelTitle(cell),
                   absl::StrFormat("reading, in ticks of T = %s%s", DurationText(t_ns),
                                   open_last ? " (last bar: that or more)" : ""),
                   job.script);
  const std::string data = Quote(kGnuplotDataName);
  absl::StrAppend(&job.script, "plot ", data, " index ", index,
                  " using 1:2 with boxes lc rgb '#4477aa' title 'readings', ");
  if (cell.prediction_applies) {
    absl::StrAppend(&job.script, data, " index ", index,
                    " using 1:3 with points pt 9 ps 1.2 lc rgb '#cc3311' title "
                    "'theory: n or n+1 ticks', ");
  }
  absl::StrAppend(&job.script, kPanelLineKeys);
}

// A fine clock's panel (T small against the RTT): the readings binned in time, in us.
void AppendTimePanel(const StudyCell& cell, size_t index, GnuplotJob& job) {
  absl::StrAppendFormat(&job.data,
                        "# %s at %d B, T = %s, binned in time at the percentiles min, p1, "
                        "p50, p90, p99, max: centre_us share_of_readings width_us\n",
                        GnuplotSafeText(cell.clock), cell.size_bytes,
                        DurationText(cell.resolution_ns));
  const std::pair<double, double> range = AppendTimeBinData(cell, job.data);
  absl::StrAppend(&job.data, "\n\n");
  AppendXRange(range.first, range.second, 0, job.script);
  const double truth_us = cell.truth_ns * 1e-3;
  AppendPanelLines(truth_us, cell.averaged_ns * 1e-3, TruthLabel(cell, 0), PanelTitle(cell),
                   absl::StrFormat("reading (us; T = %s), binned at percentiles",
                                   DurationText(cell.resolution_ns)),
                   job.script);
  absl::StrAppend(
      &job.script, "plot ", Quote(kGnuplotDataName), " index ", index,
      " using 1:2:3 with boxes lc rgb '#4477aa' title 'readings, bins at percentiles', ",
      kPanelLineKeys);
}

}  // namespace

GnuplotJob StudyHistogramJob(const std::vector<StudyCell>& cells) {
  // One panel per clock and size, in us.
  GnuplotJob job;
  const int panels = std::max<int>(1, static_cast<int>(cells.size()));
  const int columns = std::min(3, panels);
  const int rows = (panels + columns - 1) / columns;
  absl::StrAppendFormat(
      &job.script,
      "set terminal svg size %d,%d dynamic background rgb 'white'\n"
      "set termoption noenhanced\nset output %s\nset grid\nset multiplot layout %d,%d title %s\n"
      "set style fill solid 0.5\n"
      "set key top right font ',8'\n"
      "set ylabel 'share of readings'\nset yrange [0:1.05]\n",
      400 * columns, 320 * rows, Quote(kGnuplotSvgName), rows, columns,
      Quote("single round trips: what each clock read"));
  for (size_t c = 0; c < cells.size(); ++c) {
    if (StudyCellBinnedInTime(cells[c])) {
      AppendTimePanel(cells[c], c, job);
    } else {
      AppendTickPanel(cells[c], c, job);
    }
  }
  if (cells.empty()) absl::StrAppend(&job.script, "plot NaN notitle\n");
  absl::StrAppend(&job.script, "unset multiplot\n");
  return job;
}

absl::Status PlotStudyHistograms(const std::string& svg_path, const std::vector<StudyCell>& cells) {
  return RunGnuplotJob(svg_path, StudyHistogramJob(cells));
}

}  // namespace tickbench::harness
