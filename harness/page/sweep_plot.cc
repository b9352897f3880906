#include "harness/page/sweep_plot.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "analysis/models/buffer_models.h"
#include "timing/stats/confidence.h"
#include "timing/stats/statistics.h"

namespace tickbench::harness {
namespace {

std::string Quote(absl::string_view text) { return GnuplotQuote(text); }
std::string QuoteUser(absl::string_view text) { return GnuplotQuoteUser(text); }

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

// The value's column name in the plot's unit, the unit named once: "averaged_rtt_us" for
// an "averaged_rtt_ns" sweep drawn in us, "rtt_us" for a CSV's "rtt_ms" read in ns and drawn
// in us, and for a throughput column read as the round trip it implies.
std::string ColumnName(const analysis::Sweep& sweep, const std::string& unit) {
  absl::string_view name = sweep.value_name;
  if (sweep.unit == "ns") {  // a round-trip time, whatever unit its column was written in
    for (absl::string_view suffix : {"_ns", "_us", "_ms", "_s"}) {
      if (absl::ConsumeSuffix(&name, suffix)) break;
    }
    if (!absl::StrContains(name, "rtt")) name = "rtt";
  } else {
    absl::ConsumeSuffix(&name, absl::StrCat("_", sweep.unit));
  }
  return GnuplotSafeText(absl::StrCat(name, "_", unit));
}

// Writes a sweep plot's data blocks to `data` and returns the beyond-range block's lines.
// Block 0: every run's value; 1: per size, the mean and the extras; 2: the fit;
// 3: values beyond the y range, at the edge.
std::string SweepData(const analysis::Sweep& sweep, const SweepPlotExtras& extras, double scale,
                      const std::string& unit, double y_max, std::string& data) {
  const double kNaN = std::numeric_limits<double>::quiet_NaN();
  auto clip = [&](double v) { return v > y_max ? kNaN : v; };
  data = absl::StrFormat("# size_bytes %s run\n", ColumnName(sweep, unit));
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
  absl::StrAppend(&data, "\n\n# size_bytes fit (", GnuplotSafeText(unit), ")\n");
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
                                "'#4477aa' title ",
                                QuoteUser(absl::StrCat(extras.value_label, ", each run"))));
  if (any_interval) {
    series.push_back(absl::StrCat(
        data,
        " index 1 using 1:2:3:4 with yerrorlines lw 2 pt 5 ps "
        "0.5 lc rgb '#222222' title ",
        QuoteUser(absl::StrCat(extras.value_label, ", mean of runs with 95% interval"))));
  } else {
    series.push_back(absl::StrCat(data,
                                  " index 1 using 1:2 with lines lw 2 lc rgb '#222222' "
                                  "title ",
                                  QuoteUser(absl::StrCat(extras.value_label, ", mean of runs"))));
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

}  // namespace

std::vector<StepLabel> PlaceStepLabels(const std::vector<analysis::Step>& steps, double first,
                                       double last) {
  std::vector<StepLabel> labels;
  for (const analysis::Step& step : steps) {
    labels.push_back({0.5 * (step.size_before + step.size_after),
                      absl::StrFormat(" %s %.0f-%.0f ", analysis::StepKindName(step.kind),
                                      step.size_before, step.size_after)});
  }
  std::sort(labels.begin(), labels.end(),
            [](const StepLabel& a, const StepLabel& b) { return a.x < b.x; });
  const double span = last > first ? last - first : 1;
  // Each row's right end, in sizes: a label goes to the first row it does not overlap.
  std::vector<double> row_end(kStepLabelRows, -std::numeric_limits<double>::infinity());
  bool all_placed = true;
  for (StepLabel& label : labels) {
    const double width = label.text.size() * kStepLabelCharWidth * span;
    label.right_aligned = label.x + width > last;
    const double left = label.right_aligned ? label.x - width : label.x;
    int row = 0;
    while (row < kStepLabelRows && row_end[row] >= left) ++row;
    if (row == kStepLabelRows) {
      all_placed = false;
      break;
    }
    row_end[row] = left + width;
    label.height = 0.96 - kStepLabelRowHeight * row;
  }
  if (all_placed) return labels;
  // Too crowded for rows: upright labels hanging from the top, beside their lines; a line
  // closer than a character's height to the previous label's gives its text to that label.
  StepLabel* previous = nullptr;
  for (StepLabel& label : labels) {
    label.rotated = true;
    label.right_aligned = false;
    label.height = 0.98;
    if (previous != nullptr && label.x - previous->x < 2 * kStepLabelCharWidth * span) {
      absl::StrAppend(&previous->text, "+", label.text);
      label.text.clear();
    } else {
      previous = &label;
    }
  }
  return labels;
}

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
  // The x label ends in an empty line (character 10, as no quote or backslash may reach
  // the script), which keeps it clear of the legend's box below it.
  absl::StrAppend(&job.script,
                  "set xlabel sprintf('message size (bytes)%c', 10)\n"
                  "set ylabel ",
                  in_ns ? Quote("round-trip time (us)")
                        : QuoteUser(absl::StrCat(sweep.value_name, " (", unit, ")")),
                  " noenhanced\n");
  absl::StrAppendFormat(&job.script, "set yrange [0:%s]\n", Number(y_max));
  double first = 0, last = 0;
  if (!sweep.points.empty()) {
    first = sweep.points.front().size_bytes;
    last = sweep.points.back().size_bytes;
  }
  for (const StepLabel& label : PlaceStepLabels(steps, first, last)) {
    absl::StrAppendFormat(&job.script,
                          "set arrow from %.1f, graph 0 to %.1f, graph 1 nohead dt 2 lc rgb "
                          "'red'\n",
                          label.x, label.x);
    if (label.text.empty()) continue;
    absl::StrAppendFormat(
        &job.script, "set label %s at %.1f, graph %.2f %s tc rgb 'red' font ',9' noenhanced\n",
        QuoteUser(label.text), label.x, label.height,
        label.rotated ? "rotate by 90 right offset 1,0" : (label.right_aligned ? "right" : "left"));
  }
  const std::vector<std::string> series = SweepSeries(extras, !beyond.empty());
  absl::StrAppend(&job.script, "plot ", absl::StrJoin(series, ", "), "\n");
  return job;
}

absl::Status PlotSweep(const std::string& svg_path, const analysis::Sweep& sweep,
                       const std::vector<analysis::Step>& steps, const std::string& title,
                       const SweepPlotExtras& extras) {
  return RunGnuplotJob(svg_path, SweepPlotJob(sweep, steps, title, extras));
}

}  // namespace tickbench::harness
