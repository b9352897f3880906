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
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

// Every figure of the table goes through FigureText: "-" where nothing measured it
// (harness/engine/no_figure.h).
std::string Micros(double ns) { return FigureText(ns / 1e3, 2, kNoFigureTable); }

std::string Histogram(const std::vector<int64_t>& counts) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    parts.push_back(absl::StrFormat("%s%d:%d", i + 1 == counts.size() ? ">=" : "", i, counts[i]));
  }
  return absl::StrJoin(parts, " ");
}

// A time in the table's unit: `scale` ns a unit, fixed decimals where no interval says.
struct Unit {
  double scale = 1e3;
  int decimals = 2;
  const char* name = "us";
};

std::string Fixed(double ns, const Unit& u) {
  return FigureText(ns / u.scale, u.decimals, kNoFigureTable);
}

// An interval's figure rounded to its half-width, with "± half-width".
std::string WithInterval(const timing::ConfidenceInterval& ci, const Unit& u) {
  if (!ci.valid || std::isnan(ci.estimate)) return Fixed(ci.estimate, u);
  return timing::FormatWithHalfWidth(ci.estimate / u.scale, ci.half_width() / u.scale);
}

// A statistic rounded to its interval where it has one of some width.
std::string Rounded(double ns, const timing::ConfidenceInterval& ci, const Unit& u) {
  if (!ci.valid || !(ci.half_width() > 0) || std::isnan(ns)) return Fixed(ns, u);
  return timing::FormatRounded(ns / u.scale, ci.half_width() / u.scale);
}

std::string MeanText(const StudyCell& c, const Unit& u) {
  return c.per_iteration_mean_ci.valid && !std::isnan(c.per_iteration.mean)
             ? timing::FormatRounded(c.per_iteration.mean / u.scale,
                                     c.per_iteration_mean_ci.half_width() / u.scale)
             : Fixed(c.per_iteration.mean, u);
}

std::string ZeroPercent(const StudyCell& c) {
  const std::string percent = FigureText(100 * c.per_iteration.zero_fraction, 0, kNoFigureTable);
  return std::isnan(c.per_iteration.zero_fraction) ? percent : percent + "%";
}

std::string AveragedText(const StudyCell& c, const Unit& u) {
  return absl::StrCat(WithInterval(c.averaged_ci, u), c.averaged_unresolved ? " ?" : "");
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

std::string Verdict(const StudyCell& c) {
  if (!c.prediction_applies) return "n/a";
  if (!c.verdict.agrees()) return "DISAGREES";
  // The prediction assumes uniform phases: where the phase test shows they are not, an
  // agreement is no evidence against a lock.
  return c.phase_locked ? "not judged" : "agrees";
}

std::string ClockHeading(const StudyCell& c) {
  return WrapText(absl::StrFormat("\n%s: %s, resolution T = %s, %d round trips x %d runs\n",
                                  TerminalText(c.clock), TerminalText(c.clock_name),
                                  absl::FormatDuration(absl::Nanoseconds(c.resolution_ns)),
                                  c.iterations, c.runs),
                  kTableColumns, 2);
}

// Today's header and row, every column (--wide).
std::string WideHeader() {
  return absl::StrFormat("%7s | %18s | %-22s %7s %7s | %-39s | %-22s | %8s | %s\n", "size B",
                         "truth us (sd runs)", "averaged us (95% CI)", "err%", "bound%",
                         "per-iteration us: mean    sd   p50   min zero%", "theory: f pred/obs",
                         "phase p", "probe ns/read (read)");
}

std::string WideRow(const StudyCell& c) {
  const Unit us;
  return absl::StrFormat(
      "%7d | %9s (%6s) | %-22s %7s %7s | %18s %5s %5s %5s %5s | %11s %-10s | %8s | "
      "%6s (%.1f)\n",
      c.size_bytes, Micros(c.truth_ns), Micros(c.truth_spread_ns), AveragedText(c, us),
      PercentOfTruth(c, c.averaged_error_ns), PercentOfTruth(c, c.total_bound_ns()),
      MeanText(c, us), Rounded(c.per_iteration.sd, c.sd_ci, us),
      Rounded(c.per_iteration.p50, c.median_ci, us), Micros(c.per_iteration.min), ZeroPercent(c),
      TheoryShares(c), Verdict(c),
      c.phase_tested ? absl::StrFormat("%.2g", c.phase_test.p_value) : "-",
      FigureText(c.probe_effect_ns_per_read, 1, kNoFigureTable), c.read_cost_ns);
}

// The narrow table: segments of cells, joined by " | "; cells by one space. Each column
// as wide as its widest cell or name over the whole table, so every clock's rows align.
constexpr size_t kSegments[] = {2, 3, 4, 1};
constexpr size_t kColumns = 10;
using Cells = std::vector<std::string>;  // kColumns of them

Cells NarrowCells(const StudyCell& c, const Unit& u) {
  return {absl::StrCat(c.size_bytes),
          Rounded(c.truth_ns, c.truth_ci, u),
          AveragedText(c, u),
          PercentOfTruth(c, c.averaged_error_ns),
          PercentOfTruth(c, c.total_bound_ns()),
          MeanText(c, u),
          Rounded(c.per_iteration.sd, c.sd_ci, u),
          Rounded(c.per_iteration.p50, c.median_ci, u),
          ZeroPercent(c),
          Verdict(c)};
}

// Left-aligned: the averaged figure with its interval and the verdict; the rest right.
bool LeftAligned(size_t column) { return column == 2 || column == 9; }

std::string NarrowLine(const Cells& cells, const std::vector<size_t>& widths) {
  std::string line;
  size_t column = 0;
  for (size_t g = 0; g < std::size(kSegments); ++g) {
    if (g > 0) line += " | ";
    for (size_t i = 0; i < kSegments[g]; ++i, ++column) {
      if (i > 0) line += ' ';
      line += LeftAligned(column) ? PadRight(cells[column], widths[column])
                                  : PadLeft(cells[column], widths[column]);
    }
  }
  return absl::StrCat(absl::StripTrailingAsciiWhitespace(line), "\n");
}

// The two header lines: group names over their segments, then the column names.
std::string NarrowHeader(const std::vector<size_t>& widths, const Cells& names, const Unit& u) {
  std::vector<size_t> segment_widths;
  size_t column = 0;
  for (size_t cells : kSegments) {
    size_t w = cells - 1;
    for (size_t i = 0; i < cells; ++i) w += widths[column++];
    segment_widths.push_back(w);
  }
  const std::string groups[] = {"", absl::StrCat("averaged, ", u.name),
                                absl::StrCat("per-iteration, ", u.name), ""};
  std::vector<std::string> parts;
  for (size_t g = 0; g < std::size(kSegments); ++g) {
    parts.push_back(PadRight(groups[g], segment_widths[g]));
  }
  return absl::StrCat(absl::StripTrailingAsciiWhitespace(absl::StrJoin(parts, " | ")), "\n",
                      NarrowLine(names, widths));
}

Unit NarrowUnit(const std::vector<StudyCell>& cells) {
  double longest = 0;
  for (const StudyCell& c : cells) longest = std::max(longest, c.truth_ns);
  return longest >= 1e7 ? Unit{1e6, 4, "ms"} : Unit{};
}

Cells NarrowNames(const Unit& u) {
  return {"size B",       absl::StrCat("truth ", u.name),
          "RTT ± 95% CI", "err%",
          "bound%",       "mean",
          "sd",           "p50",
          "zero%",        "theory"};
}

std::string NarrowTable(const std::vector<StudyCell>& cells) {
  const Unit u = NarrowUnit(cells);
  const Cells names = NarrowNames(u);
  std::vector<size_t> widths(kColumns);
  for (size_t i = 0; i < kColumns; ++i) widths[i] = DisplayWidth(names[i]);
  std::vector<Cells> rows;
  for (const StudyCell& c : cells) {
    rows.push_back(NarrowCells(c, u));
    for (size_t i = 0; i < kColumns; ++i)
      widths[i] = std::max(widths[i], DisplayWidth(rows.back()[i]));
  }
  std::string text;
  std::string current;
  for (size_t k = 0; k < cells.size(); ++k) {
    if (cells[k].clock != current) {
      current = cells[k].clock;
      text += ClockHeading(cells[k]) + NarrowHeader(widths, names, u);
    }
    text += NarrowLine(rows[k], widths);
  }
  return text;
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

std::string WideTable(const std::vector<StudyCell>& cells) {
  std::string text;
  std::string current;
  for (const StudyCell& c : cells) {
    if (c.clock != current) {
      current = c.clock;
      text += ClockHeading(c) + WideHeader();
    }
    text += WideRow(c);
  }
  return text;
}

}  // namespace

StudyTableCells FormatStudyTableCells(const std::vector<StudyCell>& cells) {
  const Unit u = NarrowUnit(cells);
  StudyTableCells table;
  table.groups = {{"", static_cast<int>(kSegments[0])},
                  {absl::StrCat("averaged, ", u.name), static_cast<int>(kSegments[1])},
                  {absl::StrCat("per-iteration, ", u.name), static_cast<int>(kSegments[2])},
                  {"", static_cast<int>(kSegments[3])}};
  table.names = NarrowNames(u);
  for (const StudyCell& c : cells) {
    table.rows.push_back(NarrowCells(c, u));
    table.headings.push_back(std::string(absl::StripAsciiWhitespace(ClockHeading(c))));
  }
  table.legend = kNarrowLegend;
  return table;
}

std::string FormatStudyTable(const std::vector<StudyCell>& cells, TableWidth width) {
  std::string text = width == TableWidth::kWide ? WideTable(cells) : NarrowTable(cells);
  absl::StrAppend(&text, "\nReadings in ticks of T (count per number of ticks):\n");
  for (const StudyCell& c : cells) {
    absl::StrAppend(&text, WrapText(absl::StrFormat("  %-28s %6d B: %s\n", TerminalText(c.clock),
                                                    c.size_bytes, Histogram(c.histogram)),
                                    kTableColumns, 4));
  }
  absl::StrAppend(&text, "\nIn plain words:\n");
  for (const StudyCell& c : cells) {
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

}  // namespace tickbench::harness
