#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analysis/buffer_models.h"
#include "harness/plot.h"
#include "timing/confidence.h"
#include "timing/statistics.h"

// SweepPlotJob and StudyHistogramJob (declared in harness/plot.h): the gnuplot script and
// data of a sweep's plot and of a study's histograms.

namespace tickbench::harness {
namespace {

// Single-quotes text that is the program's own (the ylabel's "(bytes)", the study's
// title) or has passed GnuplotSafeText; gnuplot doubles a quote inside single quotes.
// Never call it on a user string directly: doubling quotes does not stop a newline.
std::string Quote(absl::string_view text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') quoted += '\'';
    quoted += c;
  }
  return quoted + "'";
}

std::string QuoteUser(absl::string_view text) { return Quote(GnuplotSafeText(text)); }

std::string Header(absl::string_view title_quoted) {
  return absl::StrCat("set terminal svg size 960,600 dynamic background rgb 'white'\n",
                      "set output ", Quote(kGnuplotSvgName), "\nset title ", title_quoted,
                      " noenhanced\nset grid\nset key top left\n");
}

std::string Number(double value) {
  return std::isfinite(value) ? absl::StrFormat("%.6g", value) : std::string("NaN");
}

// The y range of a sweep's plot: 1.5 x the 95th percentile of everything drawn (1 when
// that is not positive).
double PlotYMax(const analysis::Sweep& sweep, const SweepPlotExtras& extras, double scale) {
  std::vector<double> plotted;
  for (const analysis::SweepPoint& point : sweep.points) {
    for (double v : point.values) plotted.push_back(v * scale);
    plotted.push_back(analysis::PointMean(point) * scale);
  }
  for (const SweepPlotExtras::Point& p : extras.points) {
    if (p.has_interval) plotted.push_back(p.averaged_high_ns * scale);
    if (p.has_per_iteration) {
      plotted.push_back(p.median_ns * scale);
      plotted.push_back(p.band_high_ns * scale);
    }
    if (p.has_reference) plotted.push_back(p.reference_ns * scale);
  }
  std::sort(plotted.begin(), plotted.end());
  double y_max = plotted.empty() ? 1 : 1.5 * timing::QuantileOfSorted(plotted, 0.95);
  if (!(y_max > 0)) y_max = 1;
  return y_max;
}

// Writes a sweep plot's data blocks to `data` and returns the beyond-range block's lines.
// Block 0: every run's value; 1: per size, the mean and the extras; 2: the fit;
// 3: values beyond the y range, at the edge.
std::string SweepData(const analysis::Sweep& sweep, const SweepPlotExtras& extras, double scale,
                      const std::string& unit, double y_max, std::string& data) {
  const double kNaN = std::numeric_limits<double>::quiet_NaN();
  auto clip = [&](double v) { return v > y_max ? kNaN : v; };
  data = absl::StrFormat("# size_bytes %s_%s run\n", GnuplotSafeText(sweep.value_name),
                         GnuplotSafeText(unit));
  std::string beyond;
  for (const analysis::SweepPoint& point : sweep.points) {
    for (size_t run = 0; run < point.values.size(); ++run) {
      const double v = point.values[run] * scale;
      absl::StrAppendFormat(&data, "%.0f %s %d\n", point.size_bytes, Number(clip(v)), run + 1);
      if (v > y_max)
        absl::StrAppendFormat(&beyond, "%.0f %s %s\n", point.size_bytes, Number(y_max), Number(v));
    }
  }
  absl::StrAppend(&data,
                  "\n\n# size_bytes mean ci_low ci_high median band_low band_high "
                  "reference (",
                  GnuplotSafeText(unit), ")\n");
  for (size_t i = 0; i < sweep.points.size(); ++i) {
    const analysis::SweepPoint& point = sweep.points[i];
    const SweepPlotExtras::Point* e =
        i < extras.points.size() && extras.points[i].size_bytes == point.size_bytes
            ? &extras.points[i]
            : nullptr;
    const double mean = analysis::PointMean(point) * scale;
    const bool interval = e != nullptr && e->has_interval;
    const bool per_iteration = e != nullptr && e->has_per_iteration;
    const bool reference = e != nullptr && e->has_reference;
    const double band_high = per_iteration ? e->band_high_ns * scale : kNaN;
    absl::StrAppendFormat(&data, "%.0f %s %s %s %s %s %s %s\n", point.size_bytes,
                          Number(clip(mean)), Number(interval ? e->averaged_low_ns * scale : kNaN),
                          Number(interval ? std::min(e->averaged_high_ns * scale, y_max) : kNaN),
                          Number(per_iteration ? clip(e->median_ns * scale) : kNaN),
                          Number(per_iteration ? std::min(e->band_low_ns * scale, y_max) : kNaN),
                          Number(per_iteration ? std::min(band_high, y_max) : kNaN),
                          Number(reference ? clip(e->reference_ns * scale) : kNaN));
    for (double v : {mean, per_iteration ? e->median_ns * scale : 0.0, band_high,
                     reference ? e->reference_ns * scale : 0.0}) {
      if (v > y_max)
        absl::StrAppendFormat(&beyond, "%.0f %s %s\n", point.size_bytes, Number(y_max), Number(v));
    }
  }
  absl::StrAppend(&data, "\n\n# size_bytes fit\n");
  for (const auto& [size, value] : extras.fit) {
    absl::StrAppendFormat(&data, "%.0f %s\n", size, Number(clip(value * scale)));
  }
  if (extras.fit.empty()) absl::StrAppend(&data, "0 NaN\n");
  absl::StrAppend(&data, "\n\n# size_bytes drawn_at value (beyond the y range)\n",
                  beyond.empty() ? "0 NaN NaN\n" : beyond);
  return beyond;
}

// The plot command's series of a sweep plot, for the data SweepData wrote.
std::vector<std::string> SweepSeries(const SweepPlotExtras& extras, bool any_beyond) {
  const std::string data = Quote(kGnuplotDataName);
  const bool any_interval = std::any_of(extras.points.begin(), extras.points.end(),
                                        [](const auto& p) { return p.has_interval; });
  const bool any_per_iteration = std::any_of(extras.points.begin(), extras.points.end(),
                                             [](const auto& p) { return p.has_per_iteration; });
  const bool any_reference = std::any_of(extras.points.begin(), extras.points.end(),
                                         [](const auto& p) { return p.has_reference; });
  std::vector<std::string> series;
  if (any_per_iteration) {
    series.push_back(absl::StrCat(data,
                                  " index 1 using 1:6:7 with filledcurves fs transparent "
                                  "solid 0.2 lc rgb '#ee7733' title ",
                                  QuoteUser(extras.band_name)));
    series.push_back(absl::StrCat(data,
                                  " index 1 using 1:5 with lines lw 2 lc rgb '#cc3311' "
                                  "title 'per-iteration median (mean over runs)'"));
  }
  series.push_back(absl::StrCat(data,
                                " index 0 using 1:2 with points pt 7 ps 0.4 lc rgb "
                                "'#4477aa' title 'averaged RTT, each run'"));
  if (any_interval) {
    series.push_back(absl::StrCat(data,
                                  " index 1 using 1:2:3:4 with yerrorlines lw 2 pt 5 ps "
                                  "0.5 lc rgb '#222222' title 'averaged RTT, mean of "
                                  "runs with 95% interval'"));
  } else {
    series.push_back(absl::StrCat(data,
                                  " index 1 using 1:2 with lines lw 2 lc rgb '#222222' "
                                  "title 'averaged RTT, mean of runs'"));
  }
  if (any_reference) {
    series.push_back(absl::StrCat(data,
                                  " index 1 using 1:8 with lines dt 3 lw 2 lc rgb "
                                  "'#009988' title 'reference clock, averaged RTT'"));
  }
  if (!extras.fit.empty()) {
    series.push_back(absl::StrCat(data,
                                  " index 2 using 1:2 with lines lw 1.5 lc rgb '#aa3377' "
                                  "title ",
                                  QuoteUser(absl::StrCat("fit: ", extras.fit_name))));
  }
  if (any_beyond) {
    series.push_back(absl::StrCat(data,
                                  " index 3 using 1:2 with points pt 8 ps 1.2 lc rgb "
                                  "'#ee3377' title 'beyond the y range (drawn at the "
                                  "edge)'"));
  }
  return series;
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

}  // namespace

GnuplotJob SweepPlotJob(const analysis::Sweep& sweep, const std::vector<analysis::Step>& steps,
                        const std::string& title, const SweepPlotExtras& extras) {
  const bool in_ns = sweep.unit == "ns";
  const double scale = in_ns ? 1e-3 : 1.0;
  const std::string unit = in_ns ? "us" : sweep.unit;
  const double y_max = PlotYMax(sweep, extras, scale);
  GnuplotJob job;
  const std::string beyond = SweepData(sweep, extras, scale, unit, y_max, job.data);
  job.script = Header(QuoteUser(title));
  // Plain text throughout: layout names hold underscores, which enhanced text subscripts.
  absl::StrAppend(&job.script, "set termoption noenhanced\nset key outside below horizontal box\n");
  absl::StrAppend(&job.script, "set xlabel 'message size (bytes)'\nset ylabel ",
                  in_ns ? Quote("round-trip time (us)")
                        : QuoteUser(absl::StrCat(sweep.value_name, " (", unit, ")")),
                  " noenhanced\n");
  absl::StrAppendFormat(&job.script, "set yrange [0:%s]\n", Number(y_max));
  static constexpr double kLabelHeights[] = {0.96, 0.89, 0.82, 0.75};
  for (size_t i = 0; i < steps.size(); ++i) {
    const analysis::Step& step = steps[i];
    const double x = 0.5 * (step.size_before + step.size_after);
    absl::StrAppendFormat(
        &job.script,
        "set arrow from %.1f, graph 0 to %.1f, graph 1 nohead dt 2 lc rgb 'red'\n"
        "set label %s at %.1f, graph %.2f tc rgb 'red' font ',9' noenhanced\n",
        x, x,
        QuoteUser(absl::StrFormat(" %s %.0f-%.0f", analysis::StepKindName(step.kind),
                                  step.size_before, step.size_after)),
        x, kLabelHeights[i % 4]);
  }
  const std::vector<std::string> series = SweepSeries(extras, !beyond.empty());
  absl::StrAppend(&job.script, "plot ", absl::StrJoin(series, ", "), "\n");
  return job;
}

GnuplotJob StudyHistogramJob(const std::vector<StudyCell>& cells) {
  // One panel per clock and size: the share of readings at each multiple of T, in us.
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
    const StudyCell& cell = cells[c];
    // T in us; a cell without one (nothing measured) is drawn on a 1 us grid.
    const double t_us = cell.resolution_ns > 0 ? cell.resolution_ns * 1e-3 : 1.0;
    absl::StrAppendFormat(&job.data, "# %s, %d bytes, T %.6g us: reading_us share predicted\n",
                          GnuplotSafeText(cell.clock), cell.size_bytes, t_us);
    int first = -1, last = -1;
    AppendHistogramData(cell, t_us, job.data, first, last);
    absl::StrAppend(&job.data, "\n\n");
    if (first < 0) first = last = 0;
    const double truth_us = cell.per_iteration_truth_ns * 1e-3;
    const double estimate_us = cell.averaged_ns * 1e-3;
    double x_low = (first - 1) * t_us, x_high = (last + 1) * t_us;
    x_low = std::min({x_low, truth_us - t_us / 2, estimate_us - t_us / 2});
    x_high = std::max({x_high, truth_us + t_us / 2, estimate_us + t_us / 2});
    x_low = std::max(x_low, -t_us / 2);
    const bool open_last = static_cast<size_t>(last) + 1 == cell.histogram.size() && last > 0;
    absl::StrAppendFormat(&job.script, "set xrange [%s:%s]\nset boxwidth %s\n", Number(x_low),
                          Number(x_high), Number(0.8 * t_us));
    absl::StrAppendFormat(
        &job.script,
        "set arrow 1 from %s, graph 0 to %s, graph 1 nohead lw 2 lc rgb '#009988'\n"
        "set arrow 2 from %s, graph 0 to %s, graph 1 nohead dt 2 lw 2 lc rgb '#222222'\n",
        Number(truth_us), Number(truth_us), Number(estimate_us), Number(estimate_us));
    absl::StrAppend(
        &job.script, "set title ",
        QuoteUser(absl::StrFormat("%s, %d bytes, T = %.6g us%s", cell.clock, cell.size_bytes, t_us,
                                  open_last ? " (last bar: that or more)" : "")),
        " noenhanced\n");
    const std::string data = Quote(kGnuplotDataName);
    absl::StrAppend(&job.script, "plot ", data, " index ", c,
                    " using 1:2 with boxes lc rgb '#4477aa' title 'readings', ");
    if (cell.prediction_applies) {
      absl::StrAppend(&job.script, data, " index ", c,
                      " using 1:3 with points pt 9 ps 1.2 lc rgb '#cc3311' title "
                      "'theory: n or n+1 ticks', ");
    }
    absl::StrAppend(&job.script,
                    "NaN with lines lw 2 lc rgb '#009988' title 'truth (reference mean)', "
                    "NaN with lines dt 2 lw 2 lc rgb '#222222' title 'averaged estimate'\n");
  }
  if (cells.empty()) absl::StrAppend(&job.script, "plot NaN notitle\n");
  absl::StrAppend(&job.script, "unset multiplot\n");
  return job;
}

}  // namespace tickbench::harness
