#include "harness/sweep_report.h"

#include <cmath>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/json_writer.h"
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

void WriteSummary(JsonWriter& json, const timing::Summary& s) {
  json.Key("mean_ns"); json.Number(s.mean);
  json.Key("sd_ns"); json.Number(s.sd);
  json.Key("min_ns"); json.Number(s.min);
  json.Key("p50_ns"); json.Number(s.p50);
  json.Key("p90_ns"); json.Number(s.p90);
  json.Key("p99_ns"); json.Number(s.p99);
  json.Key("max_ns"); json.Number(s.max);
  json.Key("zero_fraction"); json.Number(s.zero_fraction);
  json.Key("intervals"); json.Integer(s.count);
}

}  // namespace

const char* const kCsvColumns[] = {
    "transport", "clock", "reference_clock", "size_bytes", "run", "iterations", "completed",
    "batch", "averaged_rtt_ns", "throughput_bytes_per_s", "per_iteration_mean_ns",
    "per_iteration_sd_ns", "per_iteration_min_ns", "per_iteration_p50_ns", "per_iteration_p99_ns",
    "per_iteration_max_ns", "zero_fraction", "reference_averaged_rtt_ns",
    "reference_per_iteration_mean_ns", "reference_per_iteration_sd_ns", "lost", "late",
    "reordered", "corrupted", "error"};

std::string FormatTable(const std::vector<RunRecord>& records, TableStyle style) {
  const char* lead = style == TableStyle::kThroughput ? "throughput KB/s"
                     : style == TableStyle::kRttMillis ? "avg RTT ms"
                                                       : "avg RTT us";
  std::string text = absl::StrFormat(
      "%8s %4s %16s %10s | %-41s | %-23s | %s\n", "size B", "runs", lead, "(sd runs)",
      "per-iteration, us: mean     sd    p50   p99  zero%", "reference avg, us: RTT  sd",
      "faults");
  for (const auto& [size, runs] : BySize(records)) {
    timing::RunningStats lead_stats, mean, sd, p50, p99, zero, ref_rtt, ref_sd;
    int64_t faults = 0;
    for (const RunRecord* r : runs) {
      const double figure = style == TableStyle::kThroughput ? r->throughput_bytes_per_s / 1e3
                            : style == TableStyle::kRttMillis ? r->averaged_rtt_ns / 1e6
                                                              : r->averaged_rtt_ns / 1e3;
      lead_stats.Add(figure);
      mean.Add(r->per_iteration_ns.mean / 1e3);
      sd.Add(r->per_iteration_ns.sd / 1e3);
      p50.Add(r->per_iteration_ns.p50 / 1e3);
      p99.Add(r->per_iteration_ns.p99 / 1e3);
      zero.Add(r->per_iteration_ns.zero_fraction * 100);
      if (r->has_reference) {
        ref_rtt.Add(r->reference_averaged_rtt_ns / 1e3);
        ref_sd.Add(r->reference_per_iteration_ns.sd / 1e3);
      }
      faults += r->integrity.total() + (r->error.empty() ? 0 : 1);
    }
    const int precision = style == TableStyle::kRttMillis ? 4 : style == TableStyle::kThroughput ? 0 : 2;
    absl::StrAppendFormat(&text, "%8d %4d %16s %10s | %18s %6s %6s %5s %5s | %18s %4s | %d\n", size,
                          runs.size(), Number(lead_stats.mean(), precision),
                          runs.size() > 1 ? Number(lead_stats.sd(), precision) : "-",
                          Number(mean.mean(), 2),
                          Number(sd.mean(), 2), Number(p50.mean(), 1), Number(p99.mean(), 1),
                          Number(zero.mean(), 0),
                          ref_rtt.count() ? Number(ref_rtt.mean(), 2) : "-",
                          ref_sd.count() ? Number(ref_sd.mean(), 2) : "-", faults);
  }
  absl::StrAppend(&text,
                  "Averaged figures time the whole loop: (last reading - first) / round trips; "
                  "throughput counts 2n bytes per round trip (1 KB = 1000 bytes). Per-iteration "
                  "figures are the mean over runs of each run's statistic; zero% is the share of "
                  "readings that were 0.\n");
  return text;
}

std::string FormatCsv(const std::vector<RunRecord>& records) {
  std::string text = absl::StrJoin(std::begin(kCsvColumns), std::end(kCsvColumns), ",") + "\n";
  for (const RunRecord& r : records) {
    absl::StrAppendFormat(
        &text, "%s,%s,%s,%d,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.6f,", r.transport,
        CsvField(r.clock), CsvField(r.reference_clock), r.size_bytes, r.run, r.iterations,
        r.completed, r.batch, r.averaged_rtt_ns, r.throughput_bytes_per_s, r.per_iteration_ns.mean,
        r.per_iteration_ns.sd, r.per_iteration_ns.min, r.per_iteration_ns.p50,
        r.per_iteration_ns.p99, r.per_iteration_ns.max, r.per_iteration_ns.zero_fraction);
    if (r.has_reference) {
      absl::StrAppendFormat(&text, "%.3f,%.3f,%.3f,", r.reference_averaged_rtt_ns,
                            r.reference_per_iteration_ns.mean, r.reference_per_iteration_ns.sd);
    } else {
      text += ",,,";
    }
    absl::StrAppendFormat(&text, "%d,%d,%d,%d,%s\n", r.integrity.lost, r.integrity.late,
                          r.integrity.reordered, r.integrity.corrupted, CsvField(r.error));
  }
  return text;
}

std::string FormatJson(const RunContext& context, const std::vector<RunRecord>& records,
                       const std::string& experiment) {
  JsonWriter json;
  json.BeginObject();
  json.Key("context");
  WriteContextJson(json, context, experiment);

  json.Key("results");
  json.BeginArray();
  for (const RunRecord& r : records) {
    json.BeginObject();
    json.Key("transport"); json.String(r.transport);
    json.Key("clock"); json.String(r.clock);
    json.Key("reference_clock"); json.String(r.reference_clock);
    json.Key("size_bytes"); json.Integer(r.size_bytes);
    json.Key("run"); json.Integer(r.run);
    json.Key("iterations"); json.Integer(r.iterations);
    json.Key("completed"); json.Integer(r.completed);
    json.Key("batch"); json.Integer(r.batch);
    json.Key("averaged");
    json.BeginObject();
    json.Key("rtt_ns"); json.Number(r.averaged_rtt_ns);
    json.Key("elapsed_ticks"); json.Integer(r.elapsed_ticks);
    json.Key("throughput_bytes_per_s"); json.Number(r.throughput_bytes_per_s);
    json.EndObject();
    json.Key("per_iteration");
    json.BeginObject();
    WriteSummary(json, r.per_iteration_ns);
    json.Key("resolution_histogram");
    json.BeginArray();
    for (int64_t count : r.resolution_histogram) json.Integer(count);
    json.EndArray();
    json.EndObject();
    json.Key("reference");
    if (r.has_reference) {
      json.BeginObject();
      json.Key("averaged_rtt_ns"); json.Number(r.reference_averaged_rtt_ns);
      json.Key("per_iteration_mean_ns"); json.Number(r.reference_per_iteration_ns.mean);
      json.Key("per_iteration_sd_ns"); json.Number(r.reference_per_iteration_ns.sd);
      json.Key("per_iteration_p50_ns"); json.Number(r.reference_per_iteration_ns.p50);
      json.Key("per_iteration_p99_ns"); json.Number(r.reference_per_iteration_ns.p99);
      json.EndObject();
    } else {
      json.String("none");
    }
    json.Key("faults");
    json.BeginObject();
    json.Key("lost"); json.Integer(r.integrity.lost);
    json.Key("late"); json.Integer(r.integrity.late);
    json.Key("reordered"); json.Integer(r.integrity.reordered);
    json.Key("corrupted"); json.Integer(r.integrity.corrupted);
    json.EndObject();
    json.Key("error"); json.String(r.error);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  return json.text() + "\n";
}

}  // namespace tickbench::harness
