// The study's table for people (study_report.h): today's every column with --wide, or
// 100 columns with one time unit; the words below wrapped at 100 columns in both.
#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "harness/engine/no_figure.h"
#include "harness/output/terminal_text.h"
#include "harness/output/text_wrap.h"
#include "harness/report/study_report.h"
#include "harness/report/sweep_report.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

std::string Histogram(const std::vector<int64_t>& counts) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    parts.push_back(absl::StrFormat("%s%d:%d", i + 1 == counts.size() ? ">=" : "", i, counts[i]));
  }
  return absl::StrJoin(parts, " ");
}

// A time in the table's unit: `scale` ns a unit.
struct Unit {
  double scale = 1e3;
  const char* name = "us";
};

// The half-width of `ci` where it is an interval of some width, else 0.
double Half(const timing::ConfidenceInterval& ci) {
  return ci.valid && ci.half_width() > 0 && std::isfinite(ci.half_width()) ? ci.half_width() : 0;
}

// The decimals of a study row's figures in unit `u` (timing::FigureDecimals: two
// significant digits of each 95% interval, never finer than its grid: T/N for the averaged
// figures and the per-iteration mean, T for a reading's median). The truth is shown to the
// averaged figure's digits (whole units at least), the figure it is the truth of: a
// simulated 1300 us known to a picosecond is "1300" beside "1300 ± 8", not "1300.00000000".
struct StudyDigits {
  int truth = 0, averaged = 0, mean = 0, sd = 0, p50 = 0;
};

StudyDigits DigitsOf(const StudyCell& c, const Unit& u) {
  // The averaged figures and the per-iteration mean are means over every run's round trips:
  // their grid is T / (N x runs). A reading's SD is on no grid; its median is on T's.
  const double n = static_cast<double>(std::max<int64_t>(1, c.iterations) * std::max(1, c.runs));
  const double quantum = c.resolution_ns / n / u.scale, grid = c.resolution_ns / u.scale;
  StudyDigits d;
  d.averaged = timing::FigureDecimals(c.averaged_ci.estimate / u.scale,
                                      Half(c.averaged_ci) / u.scale, quantum);
  d.truth = std::min(std::max(d.averaged, 0),
                     timing::FigureDecimals(c.truth_ns / u.scale, Half(c.truth_ci) / u.scale,
                                            c.reference_resolution_ns / n / u.scale));
  d.mean = timing::FigureDecimals(c.per_iteration.mean / u.scale,
                                  Half(c.per_iteration_mean_ci) / u.scale, quantum);
  d.sd = timing::FigureDecimals(c.per_iteration.sd / u.scale, Half(c.sd_ci) / u.scale);
  d.p50 = timing::FigureDecimals(c.per_iteration.p50 / u.scale, Half(c.median_ci) / u.scale, grid);
  return d;
}

// The decimals each column shares within a clock's rows: the most of its rows'.
StudyDigits ColumnDigits(const std::vector<StudyDigits>& rows) {
  StudyDigits d;
  for (int StudyDigits::*const field : {&StudyDigits::truth, &StudyDigits::averaged,
                                        &StudyDigits::mean, &StudyDigits::sd, &StudyDigits::p50}) {
    std::vector<int> column;
    for (const StudyDigits& row : rows) column.push_back(row.*field);
    d.*field = timing::ColumnDecimals(column);
  }
  return d;
}

// Each cell's decimals: its own averaged figure's, and the columns' a clock's rows share.
std::vector<StudyDigits> BlockDigits(const std::vector<StudyCell>& cells, const Unit& u) {
  std::vector<StudyDigits> digits;
  for (size_t k = 0; k < cells.size();) {
    size_t end = k;
    std::vector<StudyDigits> block;
    while (end < cells.size() && cells[end].clock == cells[k].clock)
      block.push_back(DigitsOf(cells[end++], u));
    const StudyDigits shared = ColumnDigits(block);
    for (StudyDigits& d : block) {
      const int averaged = d.averaged;
      d = shared;
      d.averaged = averaged;  // beside its own interval
      digits.push_back(d);
    }
    k = end;
  }
  return digits;
}

// `ns` in unit `u` at `decimals`; "-" where nothing measured it.
std::string At(double ns, const Unit& u, int decimals) {
  return std::isnan(ns) ? std::string(kNoFigureTable)
                        : timing::FormatDecimals(ns / u.scale, decimals);
}

std::string ZeroPercent(const StudyCell& c) {
  const std::string percent = FigureText(100 * c.per_iteration.zero_fraction, 0, kNoFigureTable);
  return std::isnan(c.per_iteration.zero_fraction) ? percent : percent + "%";
}

// The averaged figure "1300.0 ± 8.0" at its own decimals (its interval is beside it).
std::string AveragedText(const StudyCell& c, const Unit& u, const StudyDigits& d) {
  std::string text = At(c.averaged_ci.estimate, u, d.averaged);
  if (Half(c.averaged_ci) > 0 && !std::isnan(c.averaged_ci.estimate)) {
    absl::StrAppend(&text, " ± ", At(c.averaged_ci.half_width(), u, d.averaged));
  }
  return absl::StrCat(text, c.averaged_unresolved ? " ?" : "");
}

// A percentage of the truth to two significant digits, without an exponent from 1% up
// ("-100", "490", "1.5"; "9.9e-05" below 1%).
std::string PercentOfTruth(const StudyCell& c, double ns) {
  if (std::isnan(c.truth_ns) || std::isnan(ns)) return std::string(kNoFigureTable);
  if (!(c.truth_ns > 0)) return "0";
  const double v = 100 * ns / c.truth_ns;
  const double a = std::fabs(v);
  if (!(a >= 1) || !std::isfinite(a)) return absl::StrFormat("%.2g", v);
  const int digits = static_cast<int>(std::floor(std::log10(a))) + 1;
  const double step = std::pow(10.0, digits - 2);
  const double rounded = std::round(v / step) * step;
  return digits >= 2 ? absl::StrFormat("%.0f", rounded) : absl::StrFormat("%.1f", rounded);
}

// "pred/obs" shares of readings above n ticks, each rounded to its own 95% interval; an
// exact one (no width: the prediction from a fixed duration) borrows the other's, so that a
// prediction of 0.0005 is not shown as 0.000 beside an observed 0.0010; 0.01 where
// neither has a width.
std::string TheoryShares(const StudyCell& c) {
  if (std::isnan(c.prediction.f) || std::isnan(c.observed.share_above_n)) {
    return std::string(kNoFigureTable);
  }
  const auto width = [](const timing::ConfidenceInterval& ci) {
    const double h = ci.half_width();
    return ci.valid && h > 0 && std::isfinite(h) ? h : 0.0;
  };
  double predicted = width(c.predicted.f), observed = width(c.observed_intervals.share);
  if (predicted == 0) predicted = observed;
  if (observed == 0) observed = predicted;
  if (predicted == 0) predicted = observed = 0.01;
  return absl::StrCat(timing::FormatRounded(c.prediction.f, predicted), "/",
                      timing::FormatRounded(c.observed.share_above_n, observed));
}

std::string Verdict(const StudyCell& c) { return StudyCell::TheoryVerdictName(c.theory_verdict()); }

// The clock's line over its cells; their N as a range where the study chose it per size.
std::string ClockHeading(const std::vector<StudyCell>& cells, const StudyCell& c) {
  int64_t fewest = c.iterations, most = c.iterations;
  for (const StudyCell& other : cells) {
    if (other.clock != c.clock) continue;
    fewest = std::min(fewest, other.iterations);
    most = std::max(most, other.iterations);
  }
  const std::string trips =
      fewest == most ? Counted(c.iterations, "round trip")
                     : absl::StrFormat("%d to %d round trips (N chosen per size)", fewest, most);
  return WrapText(absl::StrFormat("\n%s: %s, resolution T = %s, %s x %s\n", TerminalText(c.clock),
                                  TerminalText(c.clock_name),
                                  absl::FormatDuration(absl::Nanoseconds(c.resolution_ns)), trips,
                                  Counted(c.runs, "run")),
                  kTableColumns, 2);
}

// A table of the study: segments of cells, joined by " | "; cells by one space. Each
// column as wide as its widest cell or name over the whole table, so that every clock's
// rows, and every line of a clock's rows, have their columns at the same offsets.
using Cells = std::vector<std::string>;
struct StudyLayout {
  std::vector<size_t> segments;     // cells per segment
  std::vector<size_t> left;         // the left-aligned columns; the rest right-aligned
  std::vector<std::string> groups;  // a name over each segment, "" for none
};

std::string Line(const StudyLayout& layout, const Cells& cells, const std::vector<size_t>& widths) {
  std::string line;
  size_t column = 0;
  for (size_t g = 0; g < layout.segments.size(); ++g) {
    if (g > 0) line += " | ";
    for (size_t i = 0; i < layout.segments[g]; ++i, ++column) {
      if (i > 0) line += ' ';
      const bool left =
          std::find(layout.left.begin(), layout.left.end(), column) != layout.left.end();
      line +=
          left ? PadRight(cells[column], widths[column]) : PadLeft(cells[column], widths[column]);
    }
  }
  return absl::StrCat(absl::StripTrailingAsciiWhitespace(line), "\n");
}

// The two header lines: group names over their segments, then the column names.
std::string Header(const StudyLayout& layout, const std::vector<size_t>& widths,
                   const Cells& names) {
  std::vector<std::string> parts;
  size_t column = 0;
  for (size_t g = 0; g < layout.segments.size(); ++g) {
    size_t w = layout.segments[g] - 1;
    for (size_t i = 0; i < layout.segments[g]; ++i) w += widths[column++];
    parts.push_back(PadRight(layout.groups[g], w));
  }
  return absl::StrCat(absl::StripTrailingAsciiWhitespace(absl::StrJoin(parts, " | ")), "\n",
                      Line(layout, names, widths));
}

// The rows of `cells` (each made by `row`) under each clock's heading and header.
std::string LaidOut(const std::vector<StudyCell>& cells, const StudyLayout& layout,
                    const Cells& names, const std::vector<Cells>& rows) {
  std::vector<size_t> widths(names.size());
  for (size_t i = 0; i < names.size(); ++i) widths[i] = DisplayWidth(names[i]);
  for (const Cells& row : rows) {
    for (size_t i = 0; i < names.size(); ++i) widths[i] = std::max(widths[i], DisplayWidth(row[i]));
  }
  std::string text;
  std::string current;
  for (size_t k = 0; k < cells.size(); ++k) {
    if (cells[k].clock != current) {
      current = cells[k].clock;
      text += ClockHeading(cells, cells[k]) + Header(layout, widths, names);
    }
    text += Line(layout, rows[k], widths);
  }
  return text;
}

Cells NarrowCells(const StudyCell& c, const Unit& u, const StudyDigits& d) {
  return {absl::StrCat(c.size_bytes),
          At(c.truth_ns, u, d.truth),
          AveragedText(c, u, d),
          PercentOfTruth(c, c.averaged_error_ns),
          PercentOfTruth(c, c.total_bound_ns()),
          At(c.per_iteration.mean, u, d.mean),
          At(c.per_iteration.sd, u, d.sd),
          At(c.per_iteration.p50, u, d.p50),
          ZeroPercent(c),
          Verdict(c)};
}

Unit NarrowUnit(const std::vector<StudyCell>& cells) {
  double longest = 0;
  for (const StudyCell& c : cells) longest = std::max(longest, c.truth_ns);
  return longest >= 1e7 ? Unit{1e6, "ms"} : Unit{};
}

StudyLayout NarrowLayout(const Unit& u) {
  return {{2, 3, 4, 1},
          {2, 9},
          {"", absl::StrCat("averaged, ", u.name), absl::StrCat("per-iteration, ", u.name), ""}};
}

Cells NarrowNames(const Unit& u) {
  return {"size B",       absl::StrCat("truth ", u.name),
          "RTT ± 95% CI", "err%",
          "bound%",       "mean",
          "sd",           "p50",
          "zero%",        "theory"};
}

std::vector<Cells> NarrowRows(const std::vector<StudyCell>& cells, const Unit& u) {
  const std::vector<StudyDigits> digits = BlockDigits(cells, u);
  std::vector<Cells> rows;
  for (size_t k = 0; k < cells.size(); ++k) rows.push_back(NarrowCells(cells[k], u, digits[k]));
  return rows;
}

std::string NarrowTable(const std::vector<StudyCell>& cells) {
  const Unit u = NarrowUnit(cells);
  return LaidOut(cells, NarrowLayout(u), NarrowNames(u), NarrowRows(cells, u));
}

// Every column (--wide), in us: the truth's SD across runs, the minimum, the shares
// predicted/observed, the phase test and the probe effect besides the narrow table's.
Cells WideCells(const StudyCell& c, const StudyDigits& d) {
  const Unit us;
  // The narrow table's cells in us: size, truth, averaged, err%, bound%, mean, sd, p50,
  // zero%, verdict; the wide ones go in among them.
  Cells cells = NarrowCells(c, us, d);
  cells.insert(cells.begin() + 2, absl::StrCat("(", At(c.truth_spread_ns, us, d.truth), ")"));
  cells.insert(cells.begin() + 9, At(c.per_iteration.min, us, d.p50));
  cells.insert(cells.begin() + 11, TheoryShares(c));
  cells.push_back(c.phase_tested ? absl::StrFormat("%.2g", c.phase_test.p_value) : "-");
  cells.push_back(FigureText(c.probe_effect_ns_per_read, 1, kNoFigureTable));
  cells.push_back(absl::StrFormat("(%.1f)", c.read_cost_ns));
  return cells;
}

std::string WideTable(const std::vector<StudyCell>& cells) {
  const StudyLayout layout = {
      {1, 2, 3, 5, 2, 1, 2},
      {3, 12},
      {"", "truth, us", "averaged, us", "per-iteration, us", "theory", "", "probe"}};
  const Cells names = {"size B",  "truth",   "(sd runs)", "RTT (95% CI)", "err%",  "bound%",
                       "mean",    "sd",      "p50",       "min",          "zero%", "f pred/obs",
                       "verdict", "phase p", "ns/read",   "(read)"};
  const std::vector<StudyDigits> digits = BlockDigits(cells, Unit{});
  std::vector<Cells> rows;
  for (size_t k = 0; k < cells.size(); ++k) rows.push_back(WideCells(cells[k], digits[k]));
  return LaidOut(cells, layout, names, rows);
}

constexpr char kNarrowLegend[] =
    "truth: the reference clock over the averaged pass. averaged: the clock over the same "
    "pass, with its 95% interval across runs (Student t, the SD floored at what identical "
    "quantized runs allow), '?' where T/N is over 10% of the RTT (unresolved); err%: its error "
    "against the truth, which must stay within the bound (bound%: T/N + pairing skew + "
    "reference resolution + a rate difference shown, all per round trip). per-iteration: each "
    "round trip read alone; mean, sd and p50 rounded to their 95% intervals (sd: chi-square on "
    "the batch means' degrees of freedom, its upper end at least what identical quantized "
    "readings allow); zero%: the share of readings that were 0. theory: 'agrees' where the "
    "observed and predicted intervals of the share of readings above n = floor(d/T) ticks "
    "(predicted from the reference's durations), of the mean and of the SD all overlap, each "
    "at 99.2%, so that at most 5% of cells where the theory holds read DISAGREES; n/a where "
    "the theory does not apply. --wide adds the truth's SD across runs, the minimum, the "
    "shares predicted/observed, the phase test and the probe effect.\n";

constexpr char kWideLegend[] =
    "truth: the reference clock over the averaged pass. averaged: the clock over "
    "the same pass, with its 95% interval across runs (Student t, the SD floored at "
    "what identical quantized runs allow), '?' where T/N is over 10% of the RTT "
    "(unresolved); its error must stay within the bound (bound%: T/N + pairing skew + "
    "reference resolution + a rate difference shown, all per round trip). "
    "per-iteration: each "
    "round trip read alone; mean, sd and p50 rounded to their 95% intervals (sd: "
    "chi-square on the batch means' degrees of freedom, its upper end at least what "
    "identical quantized readings allow). theory: share of readings above n = floor(d/T) "
    "ticks, predicted f from the reference's durations, each rounded to its 95% "
    "interval; 'agrees' where the observed and predicted intervals of the share, the "
    "mean and the SD all overlap, each at 99.2%, so that at most 5% of cells where the "
    "theory holds read DISAGREES. phase p: chi-square test that round trips start at "
    "uniform phases within T (small p: locked). probe: extra time per round trip "
    "when the clock is read once per round trip.\n";

}  // namespace

std::string FormatStudyTable(const std::vector<StudyCell>& cells, TableWidth width) {
  std::string text = width == TableWidth::kWide ? WideTable(cells) : NarrowTable(cells);
  absl::StrAppend(&text, "\nReadings in ticks of T (count per number of ticks):\n");
  // The clocks' column as wide as the longest (28 at least): every line's sizes aligned.
  size_t clock_width = 28;
  for (const StudyCell& c : cells)
    clock_width = std::max(clock_width, DisplayWidth(TerminalText(c.clock)));
  for (const StudyCell& c : cells) {
    absl::StrAppend(&text, WrapText(absl::StrFormat("  %s %6d B: %s\n",
                                                    PadRight(TerminalText(c.clock), clock_width),
                                                    c.size_bytes, Histogram(c.histogram)),
                                    kTableColumns, 4));
  }
  absl::StrAppend(&text, "\nIn plain words:\n");
  for (const StudyCell& c : cells) {
    if (!c.count_note.empty()) {  // the study chose N, and could not take the one that resolves
      absl::StrAppend(&text,
                      WrapText(absl::StrFormat("  %s at %d B: N = %d: %s.\n", TerminalText(c.clock),
                                               c.size_bytes, c.iterations, c.count_note),
                               kTableColumns, 4));
    }
    absl::StrAppend(
        &text,
        WrapText(absl::StrCat("  ",
                              TerminalText(c.summary.empty() ? absl::StrCat(c.clock, ": ", c.error)
                                                             : c.summary),
                              "\n"),
                 kTableColumns, 2));
  }
  absl::StrAppend(&text, "\n", WrapText(width == TableWidth::kWide ? kWideLegend : kNarrowLegend));
  return text;
}

StudyTableCells FormatStudyTableCells(const std::vector<StudyCell>& cells) {
  const Unit u = NarrowUnit(cells);
  StudyTableCells table;
  const StudyLayout layout = NarrowLayout(u);
  for (size_t g = 0; g < layout.segments.size(); ++g) {
    table.groups.push_back({layout.groups[g], static_cast<int>(layout.segments[g])});
  }
  table.names = NarrowNames(u);
  table.rows = NarrowRows(cells, u);
  for (const StudyCell& c : cells) {
    table.headings.push_back(std::string(absl::StripAsciiWhitespace(ClockHeading(cells, c))));
  }
  table.legend = kNarrowLegend;
  return table;
}

}  // namespace tickbench::harness
