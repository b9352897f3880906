// The sweep's table for people (sweep_report.h): today's every column with --wide, or 100
// columns with one time unit.
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
#include "harness/report/size_summary.h"
#include "harness/report/sweep_report.h"
#include "timing/stats/confidence.h"
#include "timing/stats/statistics.h"

namespace tickbench::harness {
namespace {

std::string Number(double value, int precision) { return TableNumber(value, precision); }

// The receive timeouts in force over `records`, in one line (empty without records).
std::string ReceiveTimeoutLine(const std::vector<RunRecord>& records) {
  int64_t low = 0, high = 0;
  for (const RunRecord& r : records) {
    if (r.receive_timeout_ns <= 0) continue;
    low = low == 0 ? r.receive_timeout_ns : std::min(low, r.receive_timeout_ns);
    high = std::max(high, r.receive_timeout_ns);
  }
  if (high == 0) return "";
  const std::string range = low == high
                                ? absl::FormatDuration(absl::Nanoseconds(low))
                                : absl::StrCat(absl::FormatDuration(absl::Nanoseconds(low)), " to ",
                                               absl::FormatDuration(absl::Nanoseconds(high)));
  return absl::StrCat("Receive timeout in force for the timed round trips: ", range, ".\n");
}

// How a table shows its figures: the lead figure's divisor (from ns, or from bytes/s for
// throughput), the time columns' divisor from ns, and their decimals where no interval
// says how many.
struct Scale {
  double lead = 1e3;
  double time = 1e3;
  int lead_decimals = 2;
  int mean_decimals = 2;      // per-iteration mean, reference average
  int quantile_decimals = 1;  // p50, p99
  const char* unit = "us";
};

Scale ScaleOf(TableStyle style, TableWidth width, TimeUnit unit) {
  Scale s;
  if (width == TableWidth::kWide) {  // today's: the lead in its style's unit, the rest in us
    s.lead = style == TableStyle::kRttMillis ? 1e6 : 1e3;
    s.lead_decimals = style == TableStyle::kRttMillis ? 4 : 2;
  } else if (unit == TimeUnit::kMillis) {
    s = {1e6, 1e6, 4, 3, 2, "ms"};
  }
  if (style == TableStyle::kThroughput) {
    s.lead = 1e3;  // KB/s
    s.lead_decimals = 0;
  }
  return s;
}

// One size's runs summed up for the table, figures in the Scale's units.
struct TableRow {
  timing::RunningStats lead_stats, mean, sd, p50, p99, zero, ref_rtt, ref_sd;
  std::vector<double> lead_values;
  double quantum = 0;  // the largest T/N of a run, in the lead figure's unit
  int64_t round_trips_to_resolve = 0;
  bool unresolved = false;
  std::string throughput_note;
  int64_t faults = 0, lost = 0, warmup_lost = 0, trips = 0, retried = 0, valid = 0;
  // The widest 95% half-width of a run's per-iteration mean, p50 and p99 (0: none), which
  // their printed digits follow.
  double mean_half = 0, p50_half = 0, p99_half = 0;
};

// The widest finite half-width of `ci` so far, in the Scale's time unit.
void Widest(const timing::ConfidenceInterval& ci, double unit, double& half) {
  if (ci.valid && std::isfinite(ci.half_width())) half = std::max(half, ci.half_width() / unit);
}

// `value` to the digits `half` supports, or at `decimals` without an interval.
std::string Rounded(double value, double half, int decimals) {
  return half > 0 && std::isfinite(value) ? timing::FormatRounded(value, half)
                                          : Number(value, decimals);
}

void AddRun(const RunRecord& r, TableStyle style, const Scale& s, TableRow& row) {
  const double figure = style == TableStyle::kThroughput ? r.throughput_bytes_per_s / s.lead
                                                         : r.averaged_rtt_ns / s.lead;
  row.lead_stats.Add(figure);
  row.lead_values.push_back(figure);
  if (style != TableStyle::kThroughput) {
    row.quantum = std::max(row.quantum, r.quantum_ns / s.lead);
  } else if (r.averaged_rtt_ns > 0 && std::isfinite(figure)) {
    row.quantum = std::max(row.quantum, figure * r.quantum_ns / r.averaged_rtt_ns);  // 1st order
  }
  row.unresolved = row.unresolved || r.averaged_unresolved;
  row.round_trips_to_resolve = std::max(row.round_trips_to_resolve, r.round_trips_to_resolve);
  if (row.throughput_note.empty()) row.throughput_note = r.throughput_note;
  Widest(r.per_iteration_mean_ci95, s.time, row.mean_half);
  Widest(r.per_iteration_p50_ci95, s.time, row.p50_half);
  Widest(r.per_iteration_p99_ci95, s.time, row.p99_half);
  row.mean.Add(r.per_iteration_ns.mean / s.time);
  row.sd.Add(r.per_iteration_ns.sd / s.time);
  row.p50.Add(r.per_iteration_ns.p50 / s.time);
  row.p99.Add(r.per_iteration_ns.p99 / s.time);
  row.zero.Add(r.per_iteration_ns.zero_fraction * 100);
  if (r.has_reference) {
    row.ref_rtt.Add(r.reference_averaged_rtt_ns / s.time);
    row.ref_sd.Add(r.reference_per_iteration_ns.sd / s.time);
  }
}

TableRow SummarizeSize(const std::vector<const RunRecord*>& runs, TableStyle style,
                       const Scale& s) {
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
  return row;
}

// The lead figure and its "± half-width" ("-" for one run): 95% across runs (Student t),
// the SD floored at what identical quantized runs allow; digits follow the half-width;
// "?" marks T/N above 10% of the RTT: after the figure (--wide, as it was), or after its
// interval (`mark_after_interval`).
std::pair<std::string, std::string> LeadCells(const TableRow& row, const Scale& s,
                                              bool mark_after_interval = false) {
  const timing::ConfidenceInterval ci = timing::AcrossRunsInterval(
      row.lead_values,
      timing::QuantizedSdFloor(row.quantum, static_cast<int64_t>(row.lead_values.size())));
  const bool interval = row.valid > 1 && ci.valid && std::isfinite(ci.half_width());
  std::string lead = interval ? timing::FormatRounded(row.lead_stats.mean(), ci.half_width())
                              : Number(row.lead_stats.mean(), s.lead_decimals);
  std::string half =
      interval ? absl::StrCat("± ", timing::FormatRounded(ci.half_width(), ci.half_width())) : "-";
  if (row.unresolved) (mark_after_interval ? half : lead) += " ?";
  return {lead, half};
}

std::string LossPercent(const TableRow& row) {
  return row.trips > 0 ? Number(100.0 * row.lost / row.trips, 2) : "-";
}

// Today's line, every column (--wide).
std::string WideRow(size_t size, const TableRow& row, const Scale& s) {
  if (row.valid == 0) {  // never a number for a size with nothing timed: what was lost
    return absl::StrFormat("%8d %4d %16s %10s | %-41s | %-23s | %5s %8d %7d\n", size, 0,
                           absl::StrCat("lost ", row.lost + row.warmup_lost), "-", "no valid run",
                           "-", LossPercent(row), row.retried, row.faults);
  }
  const auto [lead, half] = LeadCells(row, s);
  return absl::StrFormat("%8d %4d %16s %10s | %18s %6s %6s %5s %5s | %18s %4s | %5s %8d %7d\n",
                         size, row.valid, lead, half, Number(row.mean.mean(), 2),
                         Number(row.sd.mean(), 2), Number(row.p50.mean(), 1),
                         Number(row.p99.mean(), 1), Number(row.zero.mean(), 0),
                         row.ref_rtt.count() ? Number(row.ref_rtt.mean(), 2) : "-",
                         row.ref_sd.count() ? Number(row.ref_sd.mean(), 2) : "-", LossPercent(row),
                         row.retried, row.faults);
}

// The narrow table's cells, segment by segment; widths in characters. A segment's cells
// are joined by one space, segments by " | ".
constexpr size_t kWidths[4][4] = {{8, 4, 12, 10}, {8, 7, 7, 5}, {9}, {6, 6}};
constexpr size_t kCells[4] = {4, 4, 1, 2};

size_t SegmentWidth(int segment) {
  size_t w = kCells[segment] - 1;
  for (size_t i = 0; i < kCells[segment]; ++i) w += kWidths[segment][i];
  return w;
}

// Cells right-aligned, except the "±" cell (segment 0, cell 3), left-aligned.
std::string NarrowLine(const std::vector<std::vector<std::string>>& cells) {
  std::vector<std::string> segments;
  for (int g = 0; g < 4; ++g) {
    std::vector<std::string> padded;
    for (size_t i = 0; i < kCells[g]; ++i) {
      const std::string& text = i < cells[g].size() ? cells[g][i] : "";
      padded.push_back(g == 0 && i == 3 ? PadRight(text, kWidths[g][i])
                                        : PadLeft(text, kWidths[g][i]));
    }
    segments.push_back(absl::StrJoin(padded, " "));
  }
  return absl::StrCat(absl::StripTrailingAsciiWhitespace(absl::StrJoin(segments, " | ")), "\n");
}

std::string NarrowRow(size_t size, const TableRow& row, const Scale& s) {
  const std::string loss = LossPercent(row);
  if (row.valid == 0) {  // never a number for a size with nothing timed: what was lost
    // The round trips lost, the warm-up's too (a peer silent from the start loses only those).
    std::string line = NarrowLine(
        {{absl::StrCat(size), "0", absl::StrCat("lost ", row.lost + row.warmup_lost), "-"},
         {},
         {"-"},
         {loss, absl::StrCat(row.faults)}});
    const size_t at = SegmentWidth(0) + 3;  // "no valid run" where the figures would be
    return line.replace(at, SegmentWidth(1), PadRight("no valid run", SegmentWidth(1)));
  }
  const auto [lead, half] = LeadCells(row, s, true);
  return NarrowLine(
      {{absl::StrCat(size), absl::StrCat(row.valid), lead, half},
       {Rounded(row.mean.mean(), row.mean_half, s.mean_decimals),
        Rounded(row.p50.mean(), row.p50_half, s.quantile_decimals),
        Rounded(row.p99.mean(), row.p99_half, s.quantile_decimals), Number(row.zero.mean(), 0)},
       {row.ref_rtt.count() ? Number(row.ref_rtt.mean(), s.mean_decimals) : "-"},
       {loss, absl::StrCat(row.faults)}});
}

// The table's line for one size, its throughput note into `notes` (the unresolved sizes'
// note is the footer's: UnresolvedNote).
std::string TableLine(size_t size, const TableRow& row, TableStyle style, TableWidth width,
                      const Scale& s, std::string& notes) {
  if (row.valid > 0 && style == TableStyle::kThroughput && !row.throughput_note.empty()) {
    notes += absl::StrFormat("  %d B: throughput %s\n", size, row.throughput_note);
  }
  return width == TableWidth::kWide ? WideRow(size, row, s) : NarrowRow(size, row, s);
}

std::string NarrowHeader(TableStyle style, const Scale& s) {
  const bool throughput = style == TableStyle::kThroughput;
  const std::string lead_group = throughput ? "throughput" : absl::StrCat("averaged, ", s.unit);
  std::string groups = NarrowLine({{"", "", lead_group, ""}, {}, {}, {}});
  // The group names left-aligned over their segments.
  const size_t second = SegmentWidth(0) + 3, third = second + SegmentWidth(1) + 3;
  groups.replace(second, SegmentWidth(1),
                 PadRight(absl::StrCat("per-iteration, ", s.unit), SegmentWidth(1)));
  groups.replace(third, SegmentWidth(2), PadRight("reference", SegmentWidth(2)));
  groups = absl::StrCat(absl::StripTrailingAsciiWhitespace(groups), "\n");
  return groups + NarrowLine({{"size B", "runs", throughput ? "KB/s" : "RTT", "± 95% CI"},
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
  if (width == TableWidth::kNarrow) return NarrowHeader(style, ScaleOf(style, width, unit));
  const char* lead = style == TableStyle::kThroughput  ? "throughput KB/s"
                     : style == TableStyle::kRttMillis ? "avg RTT ms"
                                                       : "avg RTT us";
  return absl::StrFormat("%8s %4s %16s %10s | %-41s | %-23s | %s\n", "size B", "runs", lead,
                         "(± 95% CI)", "per-iteration, us: mean     sd    p50   p99  zero%",
                         "reference avg, us: RTT  sd", "lost%  retried  faults");
}

std::string FormatTableRow(const std::vector<RunRecord>& records, size_t size_bytes,
                           TableStyle style, std::string& notes, TableWidth width, TimeUnit unit) {
  std::vector<const RunRecord*> runs;
  for (const RunRecord& r : records)
    if (r.size_bytes == size_bytes) runs.push_back(&r);
  const Scale s = ScaleOf(style, width, unit);
  return TableLine(size_bytes, SummarizeSize(runs, style, s), style, width, s, notes);
}

// The clock's rate against the reference over the runs, with its interval and bound, in
// one wrapped line (empty without a reference).
std::string RateLine(const std::vector<RunRecord>& records) {
  const RateSummary rate = SummarizeRate(records);
  if (rate.runs == 0) return "";
  const std::string figure =
      rate.ppm.valid ? timing::FormatWithHalfWidth(rate.ppm.estimate, rate.ppm.half_width())
                     : timing::FormatRounded(rate.ppm.estimate, rate.bound_ppm);
  return WrapText(
      absl::StrFormat(
          "Clock rate against the reference over the %d runs: %s ppm (%s; the clock's "
          "quantization allows up to ± %s ppm a run; the reference's resolution and the skew "
          "between a pair's two reads are not measured by a sweep, the study measures them).\n",
          rate.runs, figure,
          rate.ppm.valid ? "95% interval across runs, Student t" : "one run: no interval",
          timing::FormatRounded(rate.bound_ppm, rate.bound_ppm)),
      kTableColumns, 0);
}

// The note on the sizes marked '?': one line each for one or two of them, else one line for
// all (a 40-size sweep read by a 20 ms tick gave 40 lines that differed by one number).
std::string UnresolvedNote(const std::vector<RunRecord>& records) {
  std::map<size_t, int64_t> unresolved;  // size: round trips to resolve (0: unknown)
  for (const RunRecord& r : records) {
    if (!r.valid() || !r.averaged_unresolved) continue;
    int64_t& trips = unresolved[r.size_bytes];
    trips = std::max(trips, r.round_trips_to_resolve);
  }
  if (unresolved.empty()) return "";
  auto trips_text = [](int64_t trips) {
    return trips > 0 ? absl::StrCat(trips) : std::string("(unknown)");
  };
  if (unresolved.size() <= 2) {
    std::string text;
    for (const auto& [size, trips] : unresolved) {
      absl::StrAppendFormat(&text,
                            "  %d B: ? unresolved: T/N is over 10%% of the RTT; N >= 100 T/d = %s "
                            "round trips would resolve it to 1%%\n",
                            size, trips_text(trips));
    }
    return text;
  }
  std::set<size_t> sizes;
  int64_t fewest = 0, most = 0;
  for (const auto& [size, trips] : unresolved) {
    sizes.insert(size);
    if (trips > 0) fewest = fewest == 0 ? trips : std::min(fewest, trips);
    most = std::max(most, trips);
  }
  std::set<size_t> all;
  for (const RunRecord& r : records) all.insert(r.size_bytes);
  return absl::StrFormat(
      "  ? unresolved at %d of %d sizes (%d to %d B): T/N is over 10%% of the RTT; N >= 100 "
      "T/d = %s round trips would resolve them to 1%%\n",
      unresolved.size(), all.size(), *sizes.begin(), *sizes.rbegin(),
      most == 0        ? trips_text(0)
      : fewest == most ? trips_text(most)
                       : absl::StrCat(fewest, " to ", most));
}

std::string FormatTableFooter(const std::vector<RunRecord>& records, const std::string& notes,
                              TableWidth width) {
  std::string text = WrapText(UnresolvedNote(records) + notes, kTableColumns, 4);
  absl::StrAppend(
      &text,
      WrapText(absl::StrCat(
          "Averaged figures time the whole loop: (last reading - first) / round trips, with the "
          "half-width of their 95% interval across runs (Student t; the SD floored at what runs "
          "that all read the same quantum T/N allow); throughput counts 2n bytes per round trip "
          "(1 KB = 1000 bytes). Per-iteration figures are the mean over runs of each run's "
          "statistic; zero% is the share of readings that were 0. A lost, late, reordered or "
          "corrupted round trip is never timed: its interval is cut out of every figure; lost% "
          "is the share of timed round trips whose datagram got no echo, ",
          width == TableWidth::kWide
              ? "retried the runs measured again because faults left them nothing to time, "
                "faults every fault counted.\n"
              : "faults every fault counted (--wide adds the SDs and the runs retried).\n")));
  absl::StrAppend(&text, ReceiveTimeoutLine(records), RateLine(records));
  return text;
}

std::string FormatTable(const std::vector<RunRecord>& records, TableStyle style, TableWidth width) {
  const TimeUnit unit = TableTimeUnit(records);
  std::map<size_t, std::vector<const RunRecord*>> by_size;
  for (const RunRecord& record : records) by_size[record.size_bytes].push_back(&record);
  const Scale s = ScaleOf(style, width, unit);
  std::string notes;
  std::string text = FormatTableHeader(style, width, unit);
  for (const auto& [size, runs] : by_size) {
    text += TableLine(size, SummarizeSize(runs, style, s), style, width, s, notes);
  }
  return text + FormatTableFooter(records, notes, width);
}

}  // namespace tickbench::harness
