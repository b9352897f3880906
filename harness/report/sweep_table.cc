// The sweep's table for people (sweep_report.h): today's every column with --wide, or 100
// columns with one time unit.
// Over 400 lines because the printed table and its cells for the report page share the
// row, digit and layout helpers of one file-local namespace.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "harness/output/text_wrap.h"
#include "harness/report/readings/run_readings.h"
#include "harness/report/size_summary.h"
#include "harness/report/sweep_report.h"
#include "timing/stats/confidence.h"
#include "timing/stats/statistics.h"

namespace tickbench::harness {
namespace {

std::string Number(double value, int precision) { return TableNumber(value, precision); }

// How a table shows its figures: the lead figure's divisor (from ns, or from bytes/s for
// throughput) and the time columns' divisor from ns; the digits are TableDigits'.
struct Scale {
  double lead = 1e3;
  double time = 1e3;
  const char* unit = "us";
};

Scale ScaleOf(TableStyle style, TableWidth width, TimeUnit unit) {
  Scale s;
  if (width == TableWidth::kWide) {  // today's: the lead in its style's unit, the rest in us
    s.lead = style == TableStyle::kRttMillis ? 1e6 : 1e3;
  } else if (unit == TimeUnit::kMillis) {
    s = {1e6, 1e6, "ms"};
  }
  if (style == TableStyle::kThroughput) s.lead = 1e3;  // KB/s
  return s;
}

// One size's runs summed up for the table, figures in the Scale's units.
struct TableRow {
  timing::RunningStats mean, sd, p50, p99, zero, ref_rtt, ref_sd;
  std::vector<double> ref_values;
  double quantum = 0;       // the largest T/N of a run, in the lead figure's unit
  double time_quantum = 0;  // the same in the time unit: the per-iteration mean's grid
  double grid = 0;          // the largest T/batch of a run in the time unit: one reading's
  double ref_quantum = 0;   // the reference's largest tick / timed round trips, time unit
  double ref_grid = 0;      // the reference's largest tick / batch: one reading's
  int64_t round_trips_to_resolve = 0;
  bool unresolved = false;
  std::string throughput_note;
  int64_t faults = 0, lost = 0, warmup_lost = 0, trips = 0, retried = 0, valid = 0;
  // The size's pooled figure, interval and groups (SizeSummary): the lead column's, in
  // the Scale's lead unit.
  SizeSummary summary;
  timing::ConfidenceInterval lead;
  // The widest 95% half-width of a run's per-iteration mean, p50 and p99 (0: none), which
  // their printed digits follow.
  double mean_half = 0, sd_half = 0, p50_half = 0, p99_half = 0;
  // The p50 and p99 shown: pooled over every reading of the runs (the JSON's and CSV's
  // pooled_percentiles, harness/report/readings/run_readings.h), their half-widths from
  // their own intervals; the mean of the runs' own only where a run kept no readings.
  double p50_shown = 0, p99_shown = 0;
};

// The widest finite half-width of `ci` so far, in the Scale's time unit.
void Widest(const timing::ConfidenceInterval& ci, double unit, double& half) {
  if (ci.valid && std::isfinite(ci.half_width())) half = std::max(half, ci.half_width() / unit);
}

// `value` at `decimals`, "-" for no figure, "inf" for an infinity; with fewer decimals
// where `width` would not hold it (a column's first row set its decimals, and a later row's
// larger figure must still fit the column: 25000.0000 is 25000.00 in a column of 8).
std::string Digits(double value, int decimals, size_t width = 100) {
  if (!std::isfinite(value)) return Number(value, 0);
  std::string text = timing::FormatDecimals(value, decimals);
  while (text.size() > width && decimals > 0) text = timing::FormatDecimals(value, --decimals);
  return text;
}

// A quantile at `decimals`, but never "0" for a figure above 0: rounded to its interval's
// place, a 31.6 us p99 known within +-46 us is "30", and a 4 us one "4", one significant digit.
std::string Quantile(double value, int decimals, size_t width) {
  std::string text = Digits(value, decimals, width);
  if (value > 0 && std::isfinite(value) && std::stod(text) == 0) {
    const int place = static_cast<int>(std::floor(std::log10(value)));
    text = Digits(value, std::max(0, -place), width);
  }
  return text;
}

void AddRun(const RunRecord& r, TableStyle style, const Scale& s, TableRow& row) {
  const double figure = style == TableStyle::kThroughput ? r.throughput_bytes_per_s / s.lead
                                                         : r.averaged_rtt_ns / s.lead;
  if (style != TableStyle::kThroughput) {
    row.quantum = std::max(row.quantum, r.quantum_ns / s.lead);
  } else if (r.averaged_rtt_ns > 0 && std::isfinite(figure)) {
    row.quantum = std::max(row.quantum, figure * r.quantum_ns / r.averaged_rtt_ns);  // 1st order
  }
  row.time_quantum = std::max(row.time_quantum, r.quantum_ns / s.time);
  row.grid = std::max(
      row.grid, r.resolution_ns / static_cast<double>(std::max<int64_t>(1, r.batch)) / s.time);
  row.unresolved = row.unresolved || r.averaged_unresolved;
  row.round_trips_to_resolve = std::max(row.round_trips_to_resolve, r.round_trips_to_resolve);
  if (row.throughput_note.empty()) row.throughput_note = r.throughput_note;
  Widest(r.per_iteration_mean_ci95, s.time, row.mean_half);
  Widest(r.per_iteration_sd_ci95, s.time, row.sd_half);
  Widest(r.per_iteration_p50_ci95, s.time, row.p50_half);
  Widest(r.per_iteration_p99_ci95, s.time, row.p99_half);
  row.mean.Add(r.per_iteration_ns.mean / s.time);
  row.sd.Add(r.per_iteration_ns.sd / s.time);
  row.p50.Add(r.per_iteration_ns.p50 / s.time);
  row.p99.Add(r.per_iteration_ns.p99 / s.time);
  row.zero.Add(r.per_iteration_ns.zero_fraction * 100);
  if (r.has_reference) {
    row.ref_rtt.Add(r.reference_averaged_rtt_ns / s.time);
    row.ref_values.push_back(r.reference_averaged_rtt_ns / s.time);
    row.ref_grid =
        std::max(row.ref_grid, r.reference_nanos_per_tick /
                                   static_cast<double>(std::max<int64_t>(1, r.batch)) / s.time);
    if (r.timed_trips > 0) {
      row.ref_quantum = std::max(row.ref_quantum, r.reference_nanos_per_tick /
                                                      static_cast<double>(r.timed_trips) / s.time);
    }
    row.ref_sd.Add(r.reference_per_iteration_ns.sd / s.time);
  }
}

// The longer side of an interval about its estimate (0 where it is none).
double LongerSide(const timing::ConfidenceInterval& ci) {
  if (!ci.valid || !std::isfinite(ci.low) || !std::isfinite(ci.high)) return 0;
  return std::max(ci.high - ci.estimate, ci.estimate - ci.low);
}

TableRow TableRowOf(const std::vector<const RunRecord*>& runs, TableStyle style, const Scale& s) {
  TableRow row;
  for (const RunRecord* r : runs) {
    row.faults += r->integrity.total() + r->warmup_lost + (r->error.empty() ? 0 : 1);
    row.lost += r->integrity.lost;
    row.warmup_lost += r->warmup_lost;
    row.trips += r->completed;
    if (r->attempt > 1) ++row.retried;
    if (!r->valid()) continue;  // no figure: a faulty trip is never timed
    ++row.valid;
    AddRun(*r, style, s, row);
  }
  row.p50_shown = row.p50.mean();
  row.p99_shown = row.p99.mean();
  const PooledPercentiles pooled = PoolSizePercentiles(runs, {50, 99});
  if (pooled.readings > 0 && pooled.runs_not_kept == 0) {
    row.p50_shown = pooled.values[0].estimate / s.time;
    row.p99_shown = pooled.values[1].estimate / s.time;
    row.p50_half = LongerSide(pooled.values[0]) / s.time;
    row.p99_half = LongerSide(pooled.values[1]) / s.time;
  }
  row.summary = harness::SummarizeSize(runs);
  row.lead = style == TableStyle::kThroughput ? row.summary.throughput_bytes_per_s
                                              : row.summary.averaged_rtt_ns;
  for (double* x : {&row.lead.estimate, &row.lead.low, &row.lead.high}) *x /= s.lead;
  return row;
}

// A table's cells, segment by segment; widths in characters. A segment's cells are
// joined by one space, segments by " | "; every line of a table, its headers too, is laid
// out by its Layout, so that its columns are at the same offsets on every line.
using Layout = std::vector<std::vector<size_t>>;
const Layout kNarrow = {{8, 4, 12, 10}, {8, 7, 7, 5}, {9}, {6, 6}};
// --wide: the lead, per-iteration mean, SD, p50, p99 and zero%, the reference's average and
// SD, lost%, retried runs and faults.
const Layout kWide = {{8, 4, 16, 10}, {10, 9, 9, 9, 5}, {10, 9}, {6, 7, 7}};

// The averaged figure's 95% interval across runs (Student t), the SD floored at what
// identical runs on a grid of `quantum` allow.
timing::ConfidenceInterval AcrossRuns(const std::vector<double>& values, double quantum) {
  return timing::AcrossRunsInterval(
      values, timing::QuantizedSdFloor(quantum, static_cast<int64_t>(values.size())));
}

// The half-width of `ci` where it is an interval, else 0.
double HalfOf(const timing::ConfidenceInterval& ci, int runs) {
  return runs > 1 && ci.valid && std::isfinite(ci.half_width()) ? ci.half_width() : 0;
}

// A log-scale interval's longer side (its upper), where it is one, else 0.
double LeadHalf(const timing::ConfidenceInterval& ci) {
  if (!ci.valid || !std::isfinite(ci.high) || !std::isfinite(ci.low)) return 0;
  return std::max(ci.high - ci.estimate, ci.estimate - ci.low);
}

// The half-width the lead's digits follow: the longer side for "±", the shorter for "×÷"
// (a figure known within a factor of 3 still has its first digit).
double DigitsHalf(const timing::ConfidenceInterval& ci) {
  const double half = LeadHalf(ci);
  if (half > 0 && timing::IntervalFactor(ci) - 1 > kPlusMinusLimit) return ci.estimate - ci.low;
  return half;
}

// The decimals this row's figures support (TableDigits).
TableDigits RowDigits(const TableRow& row) {
  // The lead, the reference and the per-iteration mean are means over the runs' round
  // trips: their grid is T/N over the runs. A reading's SD is on no grid; its p50 and p99
  // on T/batch.
  TableDigits d;
  d.set = true;
  const int runs = static_cast<int>(row.valid);
  const double k = std::max(1, runs);
  d.lead = timing::FigureDecimals(row.lead.estimate, DigitsHalf(row.lead), row.quantum / k);
  d.mean = timing::FigureDecimals(row.mean.mean(), row.mean_half, row.time_quantum / k);
  d.sd = timing::FigureDecimals(row.sd.mean(), row.sd_half);
  d.p50 = timing::FigureDecimals(row.p50_shown, row.p50_half, row.grid);
  d.p99 = timing::FigureDecimals(row.p99_shown, row.p99_half, row.grid);
  d.ref = timing::FigureDecimals(row.ref_rtt.mean(),
                                 HalfOf(AcrossRuns(row.ref_values, row.ref_quantum), runs),
                                 row.ref_quantum / k);
  d.ref_sd = timing::FigureDecimals(row.ref_sd.mean(), 0, row.ref_grid);
  return d;
}

// The lead figure and its interval at the column's decimals: "± half-width" (the longer
// side) where the interval is within +-kPlusMinusLimit of the figure, else "×÷ f" (the
// figure divided to multiplied by f, as a log-scale interval is), "-" for none. Marks after
// the figure (--wide, as it was) or after its interval (`mark_after_interval`): "?" for T/N
// above 10% of the RTT, "‡" for runs in two groups.
std::pair<std::string, std::string> LeadCells(const TableRow& row, const TableDigits& d,
                                              bool mark_after_interval = false) {
  const double half = LeadHalf(row.lead);
  std::string lead = Digits(row.lead.estimate, d.lead, kNarrow[0][2] - 2);
  std::string marks;
  if (row.unresolved) marks += " ?";
  if (row.summary.groups.grouped) marks += " ‡";
  const size_t marks_columns =
      2 * ((row.unresolved ? 1 : 0) + (row.summary.groups.grouped ? 1 : 0));
  const size_t room = kNarrow[0][3] - 2 - (mark_after_interval ? marks_columns : 0);
  std::string interval = "-";
  if (half > 0 && timing::IntervalFactor(row.lead) - 1 > kPlusMinusLimit) {
    interval = absl::StrCat("×÷ ", FactorText(timing::IntervalFactor(row.lead)));
  } else if (half > 0) {
    interval = absl::StrCat("± ", Digits(half, d.lead, room));
  }
  (mark_after_interval ? interval : lead) += marks;
  return {lead, interval};
}

std::string LossPercent(const TableRow& row) {
  return row.trips > 0 ? Number(100.0 * row.lost / row.trips, 2) : "-";
}

size_t SegmentWidth(const Layout& layout, size_t segment) {
  size_t w = layout[segment].size() - 1;
  for (size_t width : layout[segment]) w += width;
  return w;
}

// Cells right-aligned, except the "±" cell (segment 0, cell 3), left-aligned.
std::string Line(const Layout& layout, const std::vector<std::vector<std::string>>& cells) {
  std::vector<std::string> segments;
  for (size_t g = 0; g < layout.size(); ++g) {
    std::vector<std::string> padded;
    for (size_t i = 0; i < layout[g].size(); ++i) {
      const std::string text = g < cells.size() && i < cells[g].size() ? cells[g][i] : "";
      padded.push_back(g == 0 && i == 3 ? PadRight(text, layout[g][i])
                                        : PadLeft(text, layout[g][i]));
    }
    segments.push_back(absl::StrJoin(padded, " "));
  }
  return absl::StrCat(absl::StripTrailingAsciiWhitespace(absl::StrJoin(segments, " | ")), "\n");
}

// A size with nothing timed: never a number, but what was lost (the warm-up's too: a peer
// silent from the start loses only those), and "no valid run" where the figures would be.
std::string NoValidRunLine(const Layout& layout, size_t size, const TableRow& row) {
  std::vector<std::string> last = {LossPercent(row), absl::StrCat(row.faults)};
  if (layout.back().size() == 3) last.insert(last.begin() + 1, absl::StrCat(row.retried));
  std::string line = Line(
      layout, {{absl::StrCat(size), "0", absl::StrCat("lost ", row.lost + row.warmup_lost), "-"},
               {},
               {"-"},
               last});
  const size_t at = SegmentWidth(layout, 0) + 3;
  return line.replace(at, SegmentWidth(layout, 1),
                      PadRight("no valid run", SegmentWidth(layout, 1)));
}

// Every column (--wide).
std::string WideRow(size_t size, const TableRow& row, const TableDigits& d) {
  if (row.valid == 0) return NoValidRunLine(kWide, size, row);
  const auto [lead, half] = LeadCells(row, d);
  const std::vector<size_t>& it = kWide[1];
  return Line(kWide, {{absl::StrCat(size), absl::StrCat(row.valid), lead, half},
                      {Digits(row.mean.mean(), d.mean, it[0]), Digits(row.sd.mean(), d.sd, it[1]),
                       Quantile(row.p50_shown, d.p50, it[2]), Quantile(row.p99_shown, d.p99, it[3]),
                       Number(row.zero.mean(), 0)},
                      {row.ref_rtt.count() ? Digits(row.ref_rtt.mean(), d.ref, kWide[2][0]) : "-",
                       row.ref_sd.count() ? Digits(row.ref_sd.mean(), d.ref_sd, kWide[2][1]) : "-"},
                      {LossPercent(row), absl::StrCat(row.retried), absl::StrCat(row.faults)}});
}

// The narrow row's cells, segment by segment (a valid row's).
std::vector<std::vector<std::string>> NarrowSegments(size_t size, const TableRow& row,
                                                     const TableDigits& d) {
  const auto [lead, half] = LeadCells(row, d, true);
  const std::vector<size_t>& it = kNarrow[1];
  return {{absl::StrCat(size), absl::StrCat(row.valid), lead, half},
          {Digits(row.mean.mean(), d.mean, it[0]), Quantile(row.p50_shown, d.p50, it[1]),
           Quantile(row.p99_shown, d.p99, it[2]), Number(row.zero.mean(), 0)},
          {row.ref_rtt.count() ? Digits(row.ref_rtt.mean(), d.ref, kNarrow[2][0]) : "-"},
          {LossPercent(row), absl::StrCat(row.faults)}};
}

std::string NarrowRow(size_t size, const TableRow& row, const TableDigits& d) {
  if (row.valid == 0) return NoValidRunLine(kNarrow, size, row);
  return Line(kNarrow, NarrowSegments(size, row, d));
}

// A valid row's digits: the column's (`digits`, set from this row where not yet set; null:
// this row's own). A column keeps its first row's decimals; where those round to tens or
// more (a coarse tick's first row), each row shows its own whole units at most, so that the
// finer rows after it are not rounded away (15 ms is not "20").
TableDigits ShownDigits(const TableRow& row, TableDigits* digits) {
  TableDigits own = RowDigits(row);
  TableDigits& column = digits != nullptr ? *digits : own;
  if (!column.set) column = own;
  TableDigits shown = column;
  int TableDigits::*const fields[] = {&TableDigits::lead,  &TableDigits::mean, &TableDigits::sd,
                                      &TableDigits::p50,   &TableDigits::p99,  &TableDigits::ref,
                                      &TableDigits::ref_sd};
  for (const auto field : fields) {
    if (shown.*field < 0) shown.*field = std::min(own.*field, 0);
  }
  return shown;
}

// The table's line for one size, its throughput note into `notes` (the unresolved sizes'
// note is the footer's: UnresolvedNote).
// `digits`: the columns' decimals, set from this row where not yet set (null: this row's).
std::string TableLine(size_t size, const TableRow& row, TableStyle style, TableWidth width,
                      TableDigits* digits, std::string& notes) {
  if (row.valid > 0 && style == TableStyle::kThroughput && !row.throughput_note.empty()) {
    notes += absl::StrFormat("  %d B: throughput %s\n", size, row.throughput_note);
  }
  if (row.valid == 0) {
    const TableDigits none;
    return width == TableWidth::kWide ? WideRow(size, row, none) : NarrowRow(size, row, none);
  }
  const TableDigits shown = ShownDigits(row, digits);
  return width == TableWidth::kWide ? WideRow(size, row, shown) : NarrowRow(size, row, shown);
}

std::string LeadGroup(TableStyle style, bool wide, const Scale& s) {
  const std::string lead_unit = wide && style == TableStyle::kRttMillis ? "ms" : s.unit;
  return style == TableStyle::kThroughput ? "throughput" : absl::StrCat("averaged, ", lead_unit);
}

// The two header lines: the group names left-aligned over their segments, then the
// columns' names, both laid out as the rows are.
std::string Header(const Layout& layout, TableStyle style, const Scale& s) {
  const bool throughput = style == TableStyle::kThroughput, wide = &layout == &kWide;
  const std::string lead_group = LeadGroup(style, wide, s);
  std::string groups = Line(layout, {{"", "", lead_group, ""}});
  groups.resize(std::max(groups.size(), SegmentWidth(layout, 0) + 1), ' ');
  groups.pop_back();  // the "\n"
  const std::string names[] = {absl::StrCat("per-iteration, ", s.unit),
                               wide ? absl::StrCat("reference, ", s.unit) : "reference"};
  size_t at = SegmentWidth(layout, 0) + 3;
  for (size_t g = 1; g <= 2; ++g) {
    groups.resize(at, ' ');
    absl::StrAppend(&groups, PadRight(names[g - 1], SegmentWidth(layout, g)), " | ");
    at += SegmentWidth(layout, g) + 3;
  }
  groups = absl::StrCat(absl::StripTrailingAsciiWhitespace(groups), "\n");
  const std::vector<std::string> lead = {"size B", "runs", throughput ? "KB/s" : "RTT", "± 95% CI"};
  if (wide) {
    return groups + Line(layout, {lead,
                                  {"mean", "sd", "p50", "p99", "zero%"},
                                  {"avg", "sd"},
                                  {"lost%", "retried", "faults"}});
  }
  return groups + Line(layout, {lead,
                                {"mean", "p50", "p99", "zero%"},
                                {absl::StrCat("avg ", s.unit)},
                                {"lost%", "faults"}});
}

}  // namespace

TimeUnit TableTimeUnit(const std::vector<RunRecord>& records) {
  for (const RunRecord& r : records) {
    if (!r.valid()) continue;
    const double rtt = r.has_reference ? r.reference_averaged_rtt_ns : r.averaged_rtt_ns;
    if (rtt >= 1e7) return TimeUnit::kMillis;
  }
  return TimeUnit::kMicros;
}

std::string FormatTableHeader(TableStyle style, TableWidth width, TimeUnit unit) {
  return Header(width == TableWidth::kWide ? kWide : kNarrow, style, ScaleOf(style, width, unit));
}

std::string FormatTableRow(const std::vector<RunRecord>& records, size_t size_bytes,
                           TableStyle style, std::string& notes, TableWidth width, TimeUnit unit,
                           TableDigits* digits) {
  std::vector<const RunRecord*> runs;
  for (const RunRecord& r : records)
    if (r.size_bytes == size_bytes) runs.push_back(&r);
  const Scale s = ScaleOf(style, width, unit);
  return TableLine(size_bytes, TableRowOf(runs, style, s), style, width, digits, notes);
}

std::string FormatTable(const std::vector<RunRecord>& records, TableStyle style, TableWidth width) {
  const TimeUnit unit = TableTimeUnit(records);
  std::map<size_t, std::vector<const RunRecord*>> by_size;
  for (const RunRecord& record : records) by_size[record.size_bytes].push_back(&record);
  const Scale s = ScaleOf(style, width, unit);
  std::string notes;
  TableDigits digits;
  std::string text = FormatTableHeader(style, width, unit);
  for (const auto& [size, runs] : by_size) {
    text += TableLine(size, TableRowOf(runs, style, s), style, width, &digits, notes);
  }
  return text + FormatTableFooter(records, notes, width);
}

SweepTableCells FormatSweepTableCells(const std::vector<RunRecord>& records, TableStyle style) {
  const TimeUnit unit = TableTimeUnit(records);
  const Scale s = ScaleOf(style, TableWidth::kNarrow, unit);
  SweepTableCells table;
  table.groups = {{"", 2},
                  {LeadGroup(style, false, s), 2},
                  {absl::StrCat("per-iteration, ", s.unit), 4},
                  {"reference", 1},
                  {"", 2}};
  table.names = {"size B",   "runs",  "",
                 "± 95% CI", "mean",  "p50",
                 "p99",      "zero%", absl::StrCat("avg ", s.unit),
                 "lost%",    "faults"};
  table.names[2] = style == TableStyle::kThroughput ? "KB/s" : "RTT";
  std::map<size_t, std::vector<const RunRecord*>> by_size;
  for (const RunRecord& record : records) by_size[record.size_bytes].push_back(&record);
  std::string notes;
  TableDigits digits;
  for (const auto& [size, runs] : by_size) {
    const TableRow row = TableRowOf(runs, style, s);
    // As the printed table: the columns' digits set from the first valid row, the notes.
    TableLine(size, row, style, TableWidth::kNarrow, &digits, notes);
    std::vector<std::string> cells;
    if (row.valid == 0) {
      cells = {absl::StrCat(size),
               "0",
               absl::StrCat("lost ", row.lost + row.warmup_lost),
               "-",
               "no valid run",
               "",
               "",
               "",
               "-",
               LossPercent(row),
               absl::StrCat(row.faults)};
    } else {
      for (const auto& segment : NarrowSegments(size, row, ShownDigits(row, &digits))) {
        for (const std::string& cell : segment) cells.push_back(cell);
      }
    }
    table.rows.push_back(std::move(cells));
  }
  table.legend = FormatTableFooter(records, notes, TableWidth::kNarrow);
  return table;
}

}  // namespace tickbench::harness
