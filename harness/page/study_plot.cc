#include "harness/page/study_plot.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "timing/stats/statistics.h"

namespace tickbench::harness {
namespace {

std::string Quote(absl::string_view text) { return GnuplotQuote(text); }
std::string QuoteUser(absl::string_view text) { return GnuplotQuoteUser(text); }

std::string Number(double value) {
  return std::isfinite(value) ? absl::StrFormat("%.6g", value) : std::string("NaN");
}

// Writes a study cell's histogram rows (reading in us, share, predicted share) to `data`;
// sets `first` and `last` to the first and last bucket with either share above 0.
void AppendHistogramData(const StudyCell& cell, double t_us, std::string& data, int& first,
                         int& last) {
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
    absl::StrAppendFormat(&data, "%.6g %.6g %s\n", i * t_us, share, Number(predicted));
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

// The x range and its tics: at most 5 intervals of 1, 2 or 5 times a power of 10, so that
// the tic labels of a 400-pixel panel do not run into each other.
void AppendXRange(double low, double high, std::string& script) {
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
  absl::StrAppendFormat(&script, "set xtics %s\n", Number(step));
}

// The truth and the estimate as vertical lines, and the panel's title.
void AppendPanelLines(const StudyCell& cell, const std::string& title, std::string& script) {
  const double truth_us = cell.truth_ns * 1e-3;
  const double estimate_us = cell.averaged_ns * 1e-3;
  absl::StrAppendFormat(
      &script,
      "set arrow 1 from %s, graph 0 to %s, graph 1 nohead lw 2 lc rgb '#009988'\n"
      "set arrow 2 from %s, graph 0 to %s, graph 1 nohead dt 2 lw 2 lc rgb '#222222'\n",
      Number(truth_us), Number(truth_us), Number(estimate_us), Number(estimate_us));
  absl::StrAppend(&script, "set title ", QuoteUser(title), " noenhanced\n");
}

const char kPanelLineKeys[] =
    "NaN with lines lw 2 lc rgb '#009988' title 'truth (reference, averaged pass)', "
    "NaN with lines dt 2 lw 2 lc rgb '#222222' title 'averaged estimate'\n";

// A coarse clock's panel: the share of readings at each multiple of T, with the theory.
void AppendTickPanel(const StudyCell& cell, size_t index, GnuplotJob& job) {
  // T in us; a cell without one (nothing measured) is drawn on a 1 us grid.
  const double t_us = cell.resolution_ns > 0 ? cell.resolution_ns * 1e-3 : 1.0;
  absl::StrAppendFormat(&job.data, "# %s, %d bytes, T %.6g us: reading_us share predicted\n",
                        GnuplotSafeText(cell.clock), cell.size_bytes, t_us);
  int first = -1, last = -1;
  AppendHistogramData(cell, t_us, job.data, first, last);
  absl::StrAppend(&job.data, "\n\n");
  if (first < 0) first = last = 0;
  const double truth_us = cell.truth_ns * 1e-3;
  const double estimate_us = cell.averaged_ns * 1e-3;
  double x_low = (first - 1) * t_us, x_high = (last + 1) * t_us;
  x_low = std::min({x_low, truth_us - t_us / 2, estimate_us - t_us / 2});
  x_high = std::max({x_high, truth_us + t_us / 2, estimate_us + t_us / 2});
  x_low = std::max(x_low, -t_us / 2);
  const bool open_last = static_cast<size_t>(last) + 1 == cell.histogram.size() && last > 0;
  AppendXRange(x_low, x_high, job.script);
  absl::StrAppendFormat(&job.script, "set boxwidth %s\n", Number(0.8 * t_us));
  AppendPanelLines(
      cell,
      absl::StrFormat("%s, %d bytes, T = %.6g us, in ticks of T%s", cell.clock, cell.size_bytes,
                      t_us, open_last ? " (last bar: that or more)" : ""),
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

// A fine clock's panel (T small against the RTT): the readings binned in time.
void AppendTimePanel(const StudyCell& cell, size_t index, GnuplotJob& job) {
  const double t_us = cell.resolution_ns * 1e-3;
  absl::StrAppendFormat(&job.data,
                        "# %s, %d bytes, T %.6g us, binned in time at the percentiles min, p1, "
                        "p50, p90, p99, max: centre_us share width_us\n",
                        GnuplotSafeText(cell.clock), cell.size_bytes, t_us);
  const std::pair<double, double> range = AppendTimeBinData(cell, job.data);
  absl::StrAppend(&job.data, "\n\n");
  AppendXRange(range.first, range.second, job.script);
  AppendPanelLines(cell,
                   absl::StrFormat("%s, %d bytes, T = %.6g us, binned in time", cell.clock,
                                   cell.size_bytes, t_us),
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
      "set key top right font ',8'\nset xlabel 'reading (us)'\n"
      "set ylabel 'share of readings'\nset yrange [0:1.05]\n",
      400 * columns, 320 * rows, Quote(kGnuplotSvgName), rows, columns,
      Quote("each clock's per-iteration readings at each size, in time units"));
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
