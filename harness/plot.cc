#include "harness/plot.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "harness/output_file.h"
#include "timing/statistics.h"

namespace tickbench::harness {
namespace {

bool GnuplotInstalled() {
  const char* path = std::getenv("PATH");
  for (absl::string_view dir : absl::StrSplit(path != nullptr ? path : "/usr/bin:/bin", ':')) {
    if (access(absl::StrCat(dir, "/gnuplot").c_str(), X_OK) == 0) return true;
  }
  return false;
}

// gnuplot takes single-quoted strings; a quote inside is doubled.
std::string Quote(absl::string_view text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') quoted += '\'';
    quoted += c;
  }
  return quoted + "'";
}

absl::Status RunGnuplot(const std::string& script) {
  FILE* pipe = popen("gnuplot 2>&1", "w");
  if (pipe == nullptr) return absl::InternalError("cannot start gnuplot");
  std::fwrite(script.data(), 1, script.size(), pipe);
  const int status = pclose(pipe);
  if (status != 0) {
    return absl::InternalError(absl::StrFormat("gnuplot failed (status %d)", status));
  }
  return absl::OkStatus();
}

absl::Status WriteDataThenPlot(const std::string& svg_path, const std::string& data,
                               const std::string& script) {
  const std::string data_path = PlotDataPath(svg_path);
  if (absl::Status s = WriteFileAtomically(data_path, data); !s.ok()) return s;
  if (!GnuplotInstalled()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "gnuplot is not installed (apt-get install gnuplot-nox); the plot's data is in ", data_path));
  }
  return RunGnuplot(script);
}

std::string Header(const std::string& svg_path, const std::string& title) {
  return absl::StrCat("set terminal svg size 960,600 dynamic background rgb 'white'\n",
                      "set output ", Quote(svg_path), "\nset title ", Quote(title),
                      " noenhanced\nset grid\nset key top left\n");
}

}  // namespace

std::string PlotDataPath(const std::string& svg_path) {
  std::string stem = svg_path;
  if (absl::EndsWith(stem, ".svg")) stem.resize(stem.size() - 4);
  return stem + ".dat";
}

absl::Status PlotSweep(const std::string& svg_path, const analysis::Sweep& sweep,
                       const std::vector<analysis::Step>& steps, const std::string& title) {
  // Block 0: every run's value; block 1: the median per size. Values in us.
  const double scale = sweep.unit == "ns" ? 1e-3 : 1.0;
  const std::string unit = sweep.unit == "ns" ? "us" : sweep.unit;
  std::string data = absl::StrFormat("# size_bytes %s_%s run\n", sweep.value_name, unit);
  for (const analysis::SweepPoint& point : sweep.points) {
    for (size_t run = 0; run < point.values.size(); ++run) {
      absl::StrAppendFormat(&data, "%.0f %.6g %d\n", point.size_bytes, point.values[run] * scale, run + 1);
    }
  }
  absl::StrAppend(&data, "\n\n# size_bytes median\n");
  for (const analysis::SweepPoint& point : sweep.points) {
    absl::StrAppendFormat(&data, "%.0f %.6g\n", point.size_bytes, timing::Median(point.values) * scale);
  }
  std::string script = Header(svg_path, title);
  absl::StrAppend(&script, "set xlabel 'message size (bytes)'\nset ylabel ",
                  Quote(absl::StrCat(sweep.value_name, " (", unit, ")")), " noenhanced\n");
  for (const analysis::Step& step : steps) {
    const double x = 0.5 * (step.size_before + step.size_after);
    absl::StrAppendFormat(&script,
                          "set arrow from %.1f, graph 0 to %.1f, graph 1 nohead dt 2 lc rgb 'red'\n"
                          "set label %s at %.1f, graph 0.95 tc rgb 'red' font ',9'\n",
                          x, x,
                          Quote(absl::StrFormat(" %s %.0f-%.0f", analysis::StepKindName(step.kind),
                                                step.size_before, step.size_after)),
                          x);
  }
  absl::StrAppend(&script, "plot ", Quote(PlotDataPath(svg_path)),
                  " index 0 using 1:2 with points pt 7 ps 0.4 lc rgb '#4477aa' title 'each run', ",
                  Quote(PlotDataPath(svg_path)),
                  " index 1 using 1:2 with lines lw 2 lc rgb '#222222' title 'median'\n");
  return WriteDataThenPlot(svg_path, data, script);
}

absl::Status PlotStudyHistograms(const std::string& svg_path, const std::vector<StudyCell>& cells) {
  // One histogram per clock, all sizes together, in ticks of the clock's resolution.
  std::map<std::string, std::vector<int64_t>> by_clock;
  std::vector<std::string> order;
  for (const StudyCell& cell : cells) {
    auto [it, inserted] = by_clock.try_emplace(cell.clock, cell.histogram.size(), 0);
    if (inserted) order.push_back(cell.clock);
    for (size_t i = 0; i < cell.histogram.size() && i < it->second.size(); ++i) it->second[i] += cell.histogram[i];
  }
  std::string data;
  for (const std::string& clock : order) {
    absl::StrAppendFormat(&data, "# %s: ticks count\n", clock);
    const std::vector<int64_t>& counts = by_clock[clock];
    for (size_t i = 0; i < counts.size(); ++i) absl::StrAppendFormat(&data, "%d %d\n", i, counts[i]);
    absl::StrAppend(&data, "\n\n");
  }
  std::string script = Header(svg_path, "per-iteration readings in ticks of each clock's resolution");
  const int columns = std::min<int>(3, std::max<size_t>(1, order.size()));
  const int rows = (static_cast<int>(order.size()) + columns - 1) / columns;
  absl::StrAppendFormat(&script, "set multiplot layout %d,%d\nset style fill solid 0.6\nset boxwidth 0.8\n"
                        "set xlabel 'reading (ticks; last bar: 15 or more)'\nset ylabel 'round trips'\n"
                        "set logscale y\nset yrange [0.8:*]\n", std::max(rows, 1), columns);
  for (size_t i = 0; i < order.size(); ++i) {
    absl::StrAppend(&script, "set title ", Quote(order[i]), " noenhanced\nplot ",
                    Quote(PlotDataPath(svg_path)), " index ", i,
                    " using 1:($2 > 0 ? $2 : NaN) with boxes notitle\n");
  }
  absl::StrAppend(&script, "unset multiplot\n");
  return WriteDataThenPlot(svg_path, data, script);
}

}  // namespace tickbench::harness
