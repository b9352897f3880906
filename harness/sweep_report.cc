// Over 400 lines because it holds all three sweep reports (table, CSV, JSON), which share their
// helpers.
#include "harness/sweep_report.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "harness/json_writer.h"
#include "timing/confidence.h"
#include "timing/statistics.h"

namespace tickbench::harness {
namespace {

// Runs of one size, in the order the records came.
std::map<size_t, std::vector<const RunRecord*>> BySize(const std::vector<RunRecord>& records) {
  std::map<size_t, std::vector<const RunRecord*>> groups;
  for (const RunRecord& record : records) groups[record.size_bytes].push_back(&record);
  return groups;
}

std::string Number(double value, int precision) {
  if (std::isnan(value)) return "-";
  if (std::isinf(value)) return "inf";
  return absl::StrFormat("%.*f", precision, value);
}

std::string CsvField(absl::string_view text) {
  if (text.find_first_of(",\"\n") == absl::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

// "<name>_ci95": [low, high], or an empty array when there is no interval.
void WriteInterval(JsonWriter& json, absl::string_view name, const timing::ConfidenceInterval& ci) {
  json.Key(absl::StrCat(name, "_ci95"));
  json.BeginArray();
  if (ci.valid) {
    json.Number(ci.low);
    json.Number(ci.high);
  }
  json.EndArray();
}

// "<low>,<high>," of an interval at 3 decimals, or two empty cells.
std::string CsvInterval(const timing::ConfidenceInterval& ci) {
  return ci.valid ? absl::StrFormat("%.3f,%.3f,", ci.low, ci.high) : ",,";
}

void WriteSummary(JsonWriter& json, const timing::Summary& s) {
  json.NumberField("mean_ns", s.mean);
  json.NumberField("sd_ns", s.sd);
  json.NumberField("min_ns", s.min);
  json.NumberField("p50_ns", s.p50);
  json.NumberField("p90_ns", s.p90);
  json.NumberField("p99_ns", s.p99);
  json.NumberField("max_ns", s.max);
  json.NumberField("zero_fraction", s.zero_fraction);
  json.IntegerField("intervals", s.count);
}

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

double LossRate(const RunRecord& r) {
  return r.completed > 0 ? static_cast<double>(r.integrity.lost) / r.completed
                         : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

const char* const kCsvColumns[] = {"transport",
                                   "clock",
                                   "reference_clock",
                                   "size_bytes",
                                   "run",
                                   "iterations",
                                   "completed",
                                   "batch",
                                   "averaged_rtt_ns",
                                   "throughput_bytes_per_s",
                                   "per_iteration_mean_ns",
                                   "per_iteration_sd_ns",
                                   "per_iteration_min_ns",
                                   "per_iteration_p50_ns",
                                   "per_iteration_p99_ns",
                                   "per_iteration_max_ns",
                                   "zero_fraction",
                                   "per_iteration_mean_ns_ci95_low",
                                   "per_iteration_mean_ns_ci95_high",
                                   "per_iteration_p50_ns_ci95_low",
                                   "per_iteration_p50_ns_ci95_high",
                                   "per_iteration_p99_ns_ci95_low",
                                   "per_iteration_p99_ns_ci95_high",
                                   "reference_averaged_rtt_ns",
                                   "reference_per_iteration_mean_ns",
                                   "reference_per_iteration_sd_ns",
                                   "lost",
                                   "late",
                                   "reordered",
                                   "corrupted",
                                   "error",
                                   "attempt",
                                   "valid",
                                   "timed_trips",
                                   "excluded_trips",
                                   "loss_rate",
                                   "warmup_lost",
                                   "receive_timeout_ns",
                                   "invalid_reason",
                                   "resolution_ns",
                                   "averaged_quantum_ns",
                                   "averaged_unresolved",
                                   "round_trips_to_resolve",
                                   "throughput_note",
                                   "per_iteration_p90_ns",
                                   "per_iteration_sd_ns_ci95_low",
                                   "per_iteration_sd_ns_ci95_high"};

namespace {

// One size's runs summed up for the table, figures in the lead column's unit.
struct TableRow {
  timing::RunningStats lead_stats, mean, sd, p50, p99, zero, ref_rtt, ref_sd;
  std::vector<double> lead_values;
  double quantum = 0;  // the largest T/N of a run, in the lead figure's unit (RTT styles)
  int64_t round_trips_to_resolve = 0;
  bool unresolved = false;
  std::string throughput_note;
  int64_t faults = 0, lost = 0, trips = 0, retried = 0, valid = 0;
};

TableRow SummarizeSize(const std::vector<const RunRecord*>& runs, TableStyle style) {
  TableRow row;
  for (const RunRecord* r : runs) {
    row.faults += r->integrity.total() + r->warmup_lost + (r->error.empty() ? 0 : 1);
    row.lost += r->integrity.lost;
    row.trips += r->completed;
    if (r->attempt > 1) ++row.retried;
    if (!r->valid()) continue;  // no figure: a faulty trip is never timed
    ++row.valid;
    const double figure = style == TableStyle::kThroughput  ? r->throughput_bytes_per_s / 1e3
                          : style == TableStyle::kRttMillis ? r->averaged_rtt_ns / 1e6
                                                            : r->averaged_rtt_ns / 1e3;
    row.lead_stats.Add(figure);
    row.lead_values.push_back(figure);
    if (style != TableStyle::kThroughput) {
      row.quantum =
          std::max(row.quantum, r->quantum_ns / (style == TableStyle::kRttMillis ? 1e6 : 1e3));
    } else if (r->averaged_rtt_ns > 0 && std::isfinite(figure)) {
      row.quantum =
          std::max(row.quantum, figure * r->quantum_ns / r->averaged_rtt_ns);  // first order
    }
    row.unresolved = row.unresolved || r->averaged_unresolved;
    row.round_trips_to_resolve = std::max(row.round_trips_to_resolve, r->round_trips_to_resolve);
    if (row.throughput_note.empty()) row.throughput_note = r->throughput_note;
    row.mean.Add(r->per_iteration_ns.mean / 1e3);
    row.sd.Add(r->per_iteration_ns.sd / 1e3);
    row.p50.Add(r->per_iteration_ns.p50 / 1e3);
    row.p99.Add(r->per_iteration_ns.p99 / 1e3);
    row.zero.Add(r->per_iteration_ns.zero_fraction * 100);
    if (r->has_reference) {
      row.ref_rtt.Add(r->reference_averaged_rtt_ns / 1e3);
      row.ref_sd.Add(r->reference_per_iteration_ns.sd / 1e3);
    }
  }
  return row;
}

// The table's line for one size into `text`, its notes (unresolved, throughput) into `notes`.
void AppendTableRow(size_t size, const TableRow& row, TableStyle style, std::string& text,
                    std::string& notes) {
  const int precision = style == TableStyle::kRttMillis    ? 4
                        : style == TableStyle::kThroughput ? 0
                                                           : 2;
  const std::string loss_rate = row.trips > 0 ? Number(100.0 * row.lost / row.trips, 2) : "-";
  if (row.valid == 0) {
    // Never a number for a size with nothing timed: what was lost, in its place.
    absl::StrAppendFormat(&text, "%8d %4d %16s %10s | %-41s | %-23s | %5s %8d %7d\n", size, 0,
                          absl::StrCat("lost ", row.lost), "-", "no valid run", "-", loss_rate,
                          row.retried, row.faults);
    return;
  }
  // 95% across runs (Student t), the SD floored at what identical quantized runs allow;
  // one run has no interval. Digits follow the half-width; "?" marks T/N above 10% of
  // the RTT.
  const timing::ConfidenceInterval ci = timing::AcrossRunsInterval(
      row.lead_values,
      timing::QuantizedSdFloor(row.quantum, static_cast<int64_t>(row.lead_values.size())));
  const bool interval = row.valid > 1 && ci.valid && std::isfinite(ci.half_width());
  std::string lead_text = interval ? timing::FormatRounded(row.lead_stats.mean(), ci.half_width())
                                   : Number(row.lead_stats.mean(), precision);
  if (row.unresolved) lead_text += " ?";
  absl::StrAppendFormat(
      &text, "%8d %4d %16s %10s | %18s %6s %6s %5s %5s | %18s %4s | %5s %8d %7d\n", size, row.valid,
      lead_text,
      interval ? absl::StrCat("± ", timing::FormatRounded(ci.half_width(), ci.half_width())) : "-",
      Number(row.mean.mean(), 2), Number(row.sd.mean(), 2), Number(row.p50.mean(), 1),
      Number(row.p99.mean(), 1), Number(row.zero.mean(), 0),
      row.ref_rtt.count() ? Number(row.ref_rtt.mean(), 2) : "-",
      row.ref_sd.count() ? Number(row.ref_sd.mean(), 2) : "-", loss_rate, row.retried, row.faults);
  if (row.unresolved) {
    notes += absl::StrFormat(
        "  %d B: ? unresolved: T/N is over 10%% of the RTT; N >= 100 T/d = %s round trips would "
        "resolve it to 1%%\n",
        size,
        row.round_trips_to_resolve > 0 ? absl::StrCat(row.round_trips_to_resolve) : "(unknown)");
  }
  if (style == TableStyle::kThroughput && !row.throughput_note.empty()) {
    notes += absl::StrFormat("  %d B: throughput %s\n", size, row.throughput_note);
  }
}

}  // namespace

std::string FormatTableHeader(TableStyle style) {
  const char* lead = style == TableStyle::kThroughput  ? "throughput KB/s"
                     : style == TableStyle::kRttMillis ? "avg RTT ms"
                                                       : "avg RTT us";
  return absl::StrFormat("%8s %4s %16s %10s | %-41s | %-23s | %s\n", "size B", "runs", lead,
                         "(± 95% CI)", "per-iteration, us: mean     sd    p50   p99  zero%",
                         "reference avg, us: RTT  sd", "lost%  retried  faults");
}

std::string FormatTableRow(const std::vector<RunRecord>& records, size_t size_bytes,
                           TableStyle style, std::string& notes) {
  std::vector<const RunRecord*> runs;
  for (const RunRecord& r : records)
    if (r.size_bytes == size_bytes) runs.push_back(&r);
  std::string text;
  AppendTableRow(size_bytes, SummarizeSize(runs, style), style, text, notes);
  return text;
}

std::string FormatTableFooter(const std::vector<RunRecord>& records, const std::string& notes) {
  std::string text = notes;
  absl::StrAppend(&text,
                  "Averaged figures time the whole loop: (last reading - first) / round trips, "
                  "with the half-width of their 95% interval across runs (Student t; the SD "
                  "floored at what runs that all read the same quantum T/N allow); "
                  "throughput counts 2n bytes per round trip (1 KB = 1000 bytes). Per-iteration "
                  "figures are the mean over runs of each run's statistic; zero% is the share of "
                  "readings that were 0. A lost, late, reordered or corrupted round trip is never "
                  "timed: its interval is cut out of every figure; lost% is the share of timed "
                  "round trips whose datagram got no echo, retried the runs measured again "
                  "because faults left them nothing to time, faults every fault counted.\n");
  absl::StrAppend(&text, ReceiveTimeoutLine(records));
  return text;
}

std::string FormatTable(const std::vector<RunRecord>& records, TableStyle style) {
  std::string notes;
  std::string text = FormatTableHeader(style);
  for (const auto& [size, runs] : BySize(records)) {
    AppendTableRow(size, SummarizeSize(runs, style), style, text, notes);
  }
  return text + FormatTableFooter(records, notes);
}

std::string FormatCsv(const std::vector<RunRecord>& records,
                      const std::vector<double>& percentiles) {
  const std::vector<PooledPercentiles> pooled = PoolPercentiles(records, percentiles);
  std::string text = absl::StrJoin(std::begin(kCsvColumns), std::end(kCsvColumns), ",") +
                     PooledCsvHeader(percentiles) + "\n";
  for (const RunRecord& r : records) {
    absl::StrAppendFormat(&text, "%s,%s,%s,%d,%d,%d,%d,%d,", r.transport, CsvField(r.clock),
                          CsvField(r.reference_clock), r.size_bytes, r.run, r.iterations,
                          r.completed, r.batch);
    if (!r.valid()) {
      text += std::string(9, ',');  // no figure: empty cells, never a number
    } else {
      absl::StrAppendFormat(&text, "%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.6f,",
                            r.averaged_rtt_ns, r.throughput_bytes_per_s, r.per_iteration_ns.mean,
                            r.per_iteration_ns.sd, r.per_iteration_ns.min, r.per_iteration_ns.p50,
                            r.per_iteration_ns.p99, r.per_iteration_ns.max,
                            r.per_iteration_ns.zero_fraction);
    }
    // The per-iteration intervals of one run (RunRecord's *_ci95), empty where invalid.
    absl::StrAppend(&text, CsvInterval(r.per_iteration_mean_ci95),
                    CsvInterval(r.per_iteration_p50_ci95), CsvInterval(r.per_iteration_p99_ci95));
    if (r.valid() && r.has_reference) {
      absl::StrAppendFormat(&text, "%.3f,%.3f,%.3f,", r.reference_averaged_rtt_ns,
                            r.reference_per_iteration_ns.mean, r.reference_per_iteration_ns.sd);
    } else {
      text += ",,,";
    }
    absl::StrAppendFormat(&text, "%d,%d,%d,%d,%s,%d,%d,%d,%d,%s,%d,%d,%s,", r.integrity.lost,
                          r.integrity.late, r.integrity.reordered, r.integrity.corrupted,
                          CsvField(r.error), r.attempt, r.valid() ? 1 : 0, r.timed_trips,
                          r.excluded_trips, r.completed > 0 ? Number(LossRate(r), 6) : "",
                          r.warmup_lost, r.receive_timeout_ns, CsvField(r.invalid_reason));
    if (r.valid()) {
      absl::StrAppendFormat(&text, "%.6g,%.6g,%d,%d,%s,%.3f,", r.resolution_ns, r.quantum_ns,
                            r.averaged_unresolved ? 1 : 0, r.round_trips_to_resolve,
                            CsvField(r.throughput_note), r.per_iteration_ns.p90);
    } else {
      text += ",,,,,,";
    }
    // The SD's interval, last so that the columns before keep their places.
    const std::string sd_interval = CsvInterval(r.per_iteration_sd_ci95);
    absl::StrAppend(&text, sd_interval.substr(0, sd_interval.size() - 1),
                    PooledCsvCells(pooled, r.size_bytes, percentiles.size()), "\n");
  }
  return text;
}

namespace {

// A record's per-iteration intervals (RunRecord's *_ci95).
void WritePerIterationIntervals(JsonWriter& json, const RunRecord& r) {
  WriteInterval(json, "mean_ns", r.per_iteration_mean_ci95);
  WriteInterval(json, "sd_ns", r.per_iteration_sd_ci95);
  WriteInterval(json, "p50_ns", r.per_iteration_p50_ci95);
  WriteInterval(json, "p99_ns", r.per_iteration_p99_ci95);
}

// A record's "reference" figures (or "none") and its "faults".
void WriteReferenceAndFaults(JsonWriter& json, const RunRecord& r) {
  json.Key("reference");
  if (r.has_reference) {
    json.BeginObject();
    json.NumberField("averaged_rtt_ns", r.reference_averaged_rtt_ns);
    json.NumberField("per_iteration_mean_ns", r.reference_per_iteration_ns.mean);
    json.NumberField("per_iteration_sd_ns", r.reference_per_iteration_ns.sd);
    json.NumberField("per_iteration_p50_ns", r.reference_per_iteration_ns.p50);
    json.NumberField("per_iteration_p99_ns", r.reference_per_iteration_ns.p99);
    json.EndObject();
  } else {
    json.String("none");
  }
  json.Key("faults");
  json.BeginObject();
  json.IntegerField("lost", r.integrity.lost);
  json.IntegerField("late", r.integrity.late);
  json.IntegerField("reordered", r.integrity.reordered);
  json.IntegerField("corrupted", r.integrity.corrupted);
  json.IntegerField("warmup_lost", r.warmup_lost);
  json.NumberField("loss_rate", LossRate(r));
  json.EndObject();
}

}  // namespace

std::string FormatJson(const RunContext& context, const std::vector<RunRecord>& records,
                       const std::string& experiment, const std::vector<double>& percentiles) {
  JsonWriter json;
  json.BeginObject();
  WriteProvenanceJson(json, "sweep");
  json.Key("context");
  WriteContextJson(json, context, experiment);

  json.Key("results");
  json.BeginArray();
  for (const RunRecord& r : records) {
    json.BeginObject();
    json.StringField("transport", r.transport);
    json.StringField("clock", r.clock);
    json.StringField("reference_clock", r.reference_clock);
    json.IntegerField("size_bytes", r.size_bytes);
    json.IntegerField("run", r.run);
    json.IntegerField("iterations", r.iterations);
    json.IntegerField("completed", r.completed);
    json.IntegerField("batch", r.batch);
    json.IntegerField("attempt", r.attempt);
    json.BoolField("valid", r.valid());
    json.IntegerField("timed_trips", r.timed_trips);
    json.IntegerField("excluded_trips", r.excluded_trips);
    json.IntegerField("receive_timeout_ns", r.receive_timeout_ns);
    const double nan = std::numeric_limits<double>::quiet_NaN();  // written as null
    json.Key("averaged");
    json.BeginObject();
    json.NumberField("rtt_ns", r.valid() ? r.averaged_rtt_ns : nan);
    json.IntegerField("elapsed_ticks", r.elapsed_ticks);
    json.NumberField("throughput_bytes_per_s", r.valid() ? r.throughput_bytes_per_s : nan);
    json.StringField("throughput_note", r.throughput_note);
    json.NumberField("resolution_ns", r.resolution_ns);
    json.NumberField("quantum_ns", r.valid() ? r.quantum_ns : nan);
    json.BoolField("unresolved", r.valid() && r.averaged_unresolved);
    json.IntegerField("round_trips_to_resolve", r.round_trips_to_resolve);
    json.EndObject();
    json.Key("per_iteration");
    json.BeginObject();
    WriteSummary(json, r.per_iteration_ns);
    WritePerIterationIntervals(json, r);
    json.Key("resolution_histogram");
    json.BeginArray();
    for (int64_t count : r.resolution_histogram) json.Integer(count);
    json.EndArray();
    json.EndObject();
    WriteReferenceAndFaults(json, r);
    json.StringField("invalid_reason", r.invalid_reason);
    json.StringField("error", r.error);
    json.EndObject();
  }
  json.EndArray();
  WritePooledJson(json, percentiles, PoolPercentiles(records, percentiles));
  json.EndObject();
  return json.text() + "\n";
}

}  // namespace tickbench::harness
