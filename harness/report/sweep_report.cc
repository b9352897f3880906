// The sweep's CSV and JSON; the table is in sweep_table.cc.
#include "harness/report/sweep_report.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/engine/no_figure.h"
#include "harness/json/interval_fields.h"
#include "harness/json/json_writer.h"
#include "harness/output/csv_field.h"
#include "harness/report/size_summary.h"
#include "timing/stats/confidence.h"
#include "timing/stats/statistics.h"

namespace tickbench::harness {
namespace {

std::string Number(double value, int precision) { return TableNumber(value, precision); }

// Each of `figures` with `decimals` decimals and a "," after it; an empty cell where
// there is no figure.
std::string CsvFigures(std::initializer_list<double> figures, int decimals) {
  std::string cells;
  for (double figure : figures)
    absl::StrAppend(&cells, FigureText(figure, decimals, kNoFigureCsv), ",");
  return cells;
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
                                   "per_iteration_sd_ns_ci95_high",
                                   "size_averaged_rtt_ns",
                                   "size_averaged_rtt_ns_ci95_low",
                                   "size_averaged_rtt_ns_ci95_high",
                                   "size_throughput_bytes_per_s",
                                   "size_throughput_bytes_per_s_ci95_low",
                                   "size_throughput_bytes_per_s_ci95_high",
                                   "size_loss_rate",
                                   "size_retried_runs",
                                   "after_fault"};

namespace {

const SizeSummary& SummaryOf(const std::vector<SizeSummary>& sizes, size_t size_bytes) {
  for (const SizeSummary& s : sizes)
    if (s.size_bytes == size_bytes) return s;
  static const SizeSummary kNone;
  return kNone;
}

// ",<value>" at `decimals`, or "," alone for NaN (no figure).
std::string CsvCell(double value, int decimals) {
  return std::isfinite(value) ? absl::StrFormat(",%.*f", decimals, value) : ",";
}

// The size_* cells of one size (every run of a size repeats them), each with a leading ",".
std::string SizeCsvCells(const SizeSummary& s) {
  std::string cells = CsvCell(s.averaged_rtt_ns.estimate, 3);
  const auto interval = [&](const timing::ConfidenceInterval& ci) {
    absl::StrAppend(&cells, ",", CsvInterval(ci, CsvDigits::kFixed3));
  };
  interval(s.averaged_rtt_ns);
  cells += CsvCell(s.throughput_bytes_per_s.estimate, 3);
  interval(s.throughput_bytes_per_s);
  return cells + CsvCell(s.loss_rate, 6) + absl::StrFormat(",%d", s.retried_runs);
}

// "sizes": one object per size, its figures across runs with their 95% intervals.
void WriteSizesJson(JsonWriter& json, const std::vector<SizeSummary>& sizes) {
  json.Key("sizes");
  json.BeginArray();
  for (const SizeSummary& s : sizes) {
    json.BeginObject();
    json.IntegerField("size_bytes", s.size_bytes);
    json.IntegerField("runs", s.runs);
    json.IntegerField("valid_runs", s.valid_runs);
    json.IntegerField("retried_runs", s.retried_runs);
    json.IntegerField("timed_trips", s.timed_trips);
    json.IntegerField("lost", s.lost);
    json.NumberField("loss_rate", s.loss_rate);
    json.NumberField("averaged_rtt_ns", s.averaged_rtt_ns.estimate);
    WriteIntervalJson(json, "averaged_rtt_ns", s.averaged_rtt_ns);
    json.NumberField("throughput_bytes_per_s", s.throughput_bytes_per_s.estimate);
    WriteIntervalJson(json, "throughput_bytes_per_s", s.throughput_bytes_per_s);
    json.BoolField("unresolved", s.unresolved);
    json.IntegerField("round_trips_to_resolve", s.round_trips_to_resolve);
    // Run until known: the interval's relative half-width (f - 1) and why the runs ended.
    json.NumberField("relative_half_width", s.relative_half_width);
    json.StringField("stop", s.stop);
    json.Key("groups");
    json.BeginObject();
    json.BoolField("tested", s.groups.tested);
    json.BoolField("grouped", s.groups.grouped);
    json.NumberField("p_value", s.groups.tested ? s.groups.p_value : std::nan(""));
    json.NumberField("level", timing::kGroupsLevel);
    for (const auto& [name, g] :
         {std::pair{"low", s.groups.low}, std::pair{"high", s.groups.high}}) {
      json.Key(name);
      json.BeginObject();
      json.IntegerField("runs", g.runs);
      json.NumberField("mean_rtt_ns", g.runs > 0 ? g.mean : std::nan(""));
      json.NumberField("min_rtt_ns", g.runs > 0 ? g.min : std::nan(""));
      json.NumberField("max_rtt_ns", g.runs > 0 ? g.max : std::nan(""));
      json.EndObject();
    }
    json.EndObject();
    json.EndObject();
  }
  json.EndArray();
}

// "rate": the clock's rate against the reference over the runs (SummarizeRate says what is
// in it).
void WriteRateJson(JsonWriter& json, const RateSummary& rate) {
  json.Key("rate");
  json.BeginObject();
  json.IntegerField("runs", rate.runs);
  json.NumberField("ppm", rate.runs > 0 ? rate.ppm.estimate : std::nan(""));
  WriteIntervalJson(json, "ppm", rate.ppm);
  json.NumberField("quantization_bound_ppm", rate.bound_ppm);
  json.EndObject();
}

// A run's "warmup": its round trips, how long, and why it ended (steady, out of time, count).
void WriteWarmupJson(JsonWriter& json, const RunRecord& r) {
  json.Key("warmup");
  json.BeginObject();
  json.IntegerField("round_trips", r.warmup_trips);
  json.IntegerField("ns", r.warmup_ns);
  json.StringField("ended", r.warmup_end);
  json.EndObject();
}

}  // namespace

std::string FormatCsv(const std::vector<RunRecord>& records,
                      const std::vector<double>& percentiles) {
  const std::vector<PooledPercentiles> pooled = PoolPercentiles(records, percentiles);
  const std::vector<SizeSummary> sizes = SummarizeSizes(records);
  std::string text = absl::StrJoin(std::begin(kCsvColumns), std::end(kCsvColumns), ",") +
                     PooledCsvHeader(percentiles) + "\n";
  for (const RunRecord& r : records) {
    absl::StrAppendFormat(&text, "%s,%s,%s,%d,%d,%d,%d,%d,", r.transport, CsvText(r.clock),
                          CsvText(r.reference_clock), r.size_bytes, r.run, r.iterations,
                          r.completed, r.batch);
    // A figure nothing measured is an empty cell (harness/engine/no_figure.h).
    const timing::Summary& it = r.per_iteration_ns;
    absl::StrAppend(&text,
                    CsvFigures({r.averaged_rtt_ns, r.throughput_bytes_per_s, it.mean, it.sd, it.min,
                                it.p50, it.p99, it.max},
                               3),
                    CsvFigures({it.zero_fraction}, 6));
    // The per-iteration intervals of one run (RunRecord's *_ci95), empty where invalid.
    // Times: their intervals clipped at 0 (timing::ClippedAtZero), as in JSON and words.
    for (const timing::ConfidenceInterval* ci :
         {&r.per_iteration_mean_ci95, &r.per_iteration_p50_ci95, &r.per_iteration_p99_ci95})
      absl::StrAppend(&text, CsvInterval(timing::ClippedAtZero(*ci), CsvDigits::kFixed3), ",");
    if (r.has_reference) {
      absl::StrAppend(&text,
                      CsvFigures({r.reference_averaged_rtt_ns, r.reference_per_iteration_ns.mean,
                                  r.reference_per_iteration_ns.sd},
                                 3));
    } else {
      text += ",,,";
    }
    absl::StrAppendFormat(&text, "%d,%d,%d,%d,%s,%d,%d,%d,%d,%s,%d,%d,%s,", r.integrity.lost,
                          r.integrity.late, r.integrity.reordered, r.integrity.corrupted,
                          CsvText(r.error), r.attempt, r.valid() ? 1 : 0, r.timed_trips,
                          r.excluded_trips, r.completed > 0 ? Number(LossRate(r), 6) : "",
                          r.warmup_lost, r.receive_timeout_ns, CsvText(r.invalid_reason));
    absl::StrAppend(&text, FigureTextSignificant(r.resolution_ns, 6, kNoFigureCsv), ",",
                    FigureTextSignificant(r.quantum_ns, 6, kNoFigureCsv), ",");
    // Whether the figure is resolved, and by how many trips: said of a figure only.
    if (r.valid()) {
      absl::StrAppendFormat(&text, "%d,%d,%s,", r.averaged_unresolved ? 1 : 0,
                            r.round_trips_to_resolve, CsvText(r.throughput_note));
    } else {
      text += ",,,";
    }
    absl::StrAppend(&text, CsvFigures({it.p90}, 3));
    // The SD's interval, last so that the columns before keep their places.
    absl::StrAppend(&text, CsvInterval(r.per_iteration_sd_ci95, CsvDigits::kFixed3),
                    SizeCsvCells(SummaryOf(sizes, r.size_bytes)), ",", r.integrity.after_fault,
                    PooledCsvCells(pooled, r.size_bytes, percentiles.size()), "\n");
  }
  return text;
}

namespace {

// A record's per-iteration intervals (RunRecord's *_ci95).
void WritePerIterationIntervals(JsonWriter& json, const RunRecord& r) {
  // Times: their intervals clipped at 0 (timing::ClippedAtZero), as in CSV and words.
  WriteIntervalJson(json, "mean_ns", timing::ClippedAtZero(r.per_iteration_mean_ci95));
  WriteIntervalJson(json, "sd_ns", timing::ClippedAtZero(r.per_iteration_sd_ci95));
  WriteIntervalJson(json, "p50_ns", timing::ClippedAtZero(r.per_iteration_p50_ci95));
  WriteIntervalJson(json, "p99_ns", timing::ClippedAtZero(r.per_iteration_p99_ci95));
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
  json.IntegerField("after_fault", r.integrity.after_fault);
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
    WriteWarmupJson(json, r);
    // A figure nothing measured is NaN, written as null (harness/engine/no_figure.h).
    json.Key("averaged");
    json.BeginObject();
    json.NumberField("rtt_ns", r.averaged_rtt_ns);
    json.IntegerField("elapsed_ticks", r.elapsed_ticks);
    json.NumberField("throughput_bytes_per_s", r.throughput_bytes_per_s);
    json.StringField("throughput_note", r.throughput_note);
    json.NumberField("resolution_ns", r.resolution_ns);
    json.NumberField("quantum_ns", r.quantum_ns);
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
  WriteSizesJson(json, SummarizeSizes(records));
  WriteRateJson(json, SummarizeRate(records));
  WritePooledJson(json, percentiles, PoolPercentiles(records, percentiles));
  json.EndObject();
  return json.text() + "\n";
}

std::string Counted(int64_t count, absl::string_view noun) {
  return absl::StrCat(count, " ", noun, count == 1 ? "" : "s");
}

std::string TableNumber(double value, int precision) {
  if (std::isinf(value)) return "inf";
  return FigureText(value, precision, kNoFigureTable);
}

}  // namespace tickbench::harness
