#include "harness/report/readings/run_readings.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/json/interval_fields.h"

namespace tickbench::harness {

bool ReadingsKept(const RunRecord& record) {
  return record.clock_marks.size() >= 2 &&
         record.faulty_intervals.size() + 1 == record.clock_marks.size();
}

void ForEachReading(const RunRecord& record, const std::function<void(const Reading&)>& visit) {
  if (!ReadingsKept(record)) return;
  const int64_t intervals = static_cast<int64_t>(record.faulty_intervals.size());
  const int64_t closed = record.timed_trips + record.excluded_trips;
  const bool reference = record.reference_marks.size() == record.clock_marks.size();
  const std::vector<int64_t>& marks = record.clock_marks;
  for (int64_t j = 0; j < intervals; ++j) {
    // As the engine's ForEachPerTrip: ticks times ns per tick, over the interval's trips.
    const double trips = static_cast<double>(
        j + 1 < intervals ? record.batch : closed - (intervals - 1) * record.batch);
    Reading reading;
    reading.index = j;
    reading.measured_ns =
        static_cast<double>(marks[j + 1] - marks[j]) * record.nanos_per_tick / trips;
    reading.reference_ns =
        reference ? static_cast<double>(record.reference_marks[j + 1] - record.reference_marks[j]) *
                        record.reference_nanos_per_tick / trips
                  : std::numeric_limits<double>::quiet_NaN();
    reading.valid = record.faulty_intervals[j] == 0;
    visit(reading);
  }
}

absl::StatusOr<std::vector<double>> ParsePercentiles(absl::string_view text) {
  std::vector<double> percentiles;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    item = absl::StripAsciiWhitespace(item);
    double p = 0;
    if (!absl::SimpleAtod(item, &p) || !(p > 0 && p < 100)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "\"%s\" is not a percentile; allowed: up to %d numbers, each above 0 and below 100, "
          "comma-separated (e.g. 50,90,99,99.9)",
          absl::CHexEscape(item), kMaxPercentiles));
    }
    if (std::find(percentiles.begin(), percentiles.end(), p) != percentiles.end()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s is given twice; allowed: each percentile once", PercentileName(p)));
    }
    percentiles.push_back(p);
  }
  if (static_cast<int>(percentiles.size()) > kMaxPercentiles) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%d percentiles given; allowed: at most %d, each above 0 and below 100",
                        percentiles.size(), kMaxPercentiles));
  }
  return percentiles;
}

std::string PercentileName(double percent) {
  return absl::StrCat("p", absl::StrReplaceAll(absl::StrFormat("%.10g", percent), {{".", "_"}}));
}

PooledPercentiles PoolSizePercentiles(const std::vector<const RunRecord*>& runs,
                                      const std::vector<double>& percentiles) {
  PooledPercentiles p;
  std::vector<double> values;
  for (const RunRecord* r : runs) {
    p.size_bytes = r->size_bytes;
    if (!r->valid()) continue;
    if (!ReadingsKept(*r)) {
      ++p.runs_not_kept;
      continue;
    }
    ++p.runs;
    ForEachReading(*r, [&values](const Reading& reading) {
      if (reading.valid) values.push_back(reading.measured_ns);
    });
  }
  p.readings = static_cast<int64_t>(values.size());
  std::sort(values.begin(), values.end());
  for (double percent : percentiles) {
    p.values.push_back(timing::QuantileInterval(values, percent / 100));
  }
  return p;
}

std::vector<PooledPercentiles> PoolPercentiles(const std::vector<RunRecord>& records,
                                               const std::vector<double>& percentiles) {
  std::map<size_t, std::vector<const RunRecord*>> by_size;
  for (const RunRecord& r : records) by_size[r.size_bytes].push_back(&r);
  std::vector<PooledPercentiles> pooled;
  for (const auto& [size, runs] : by_size) pooled.push_back(PoolSizePercentiles(runs, percentiles));
  return pooled;
}

void WritePooledJson(JsonWriter& json, const std::vector<double>& percentiles,
                     const std::vector<PooledPercentiles>& pooled) {
  if (percentiles.empty()) return;
  json.Key("pooled_percentiles");
  json.BeginArray();
  for (const PooledPercentiles& p : pooled) {
    json.BeginObject();
    json.IntegerField("size_bytes", static_cast<int64_t>(p.size_bytes));
    json.IntegerField("runs", p.runs);
    json.IntegerField("runs_not_kept", p.runs_not_kept);
    json.IntegerField("readings", p.readings);
    for (size_t i = 0; i < percentiles.size() && i < p.values.size(); ++i) {
      const timing::ConfidenceInterval& ci = p.values[i];
      const std::string name = absl::StrCat(PercentileName(percentiles[i]), "_ns");
      json.NumberField(name, ci.valid ? ci.estimate : std::numeric_limits<double>::quiet_NaN());
      WriteIntervalJson(json, name, ci);
    }
    json.EndObject();
  }
  json.EndArray();
}

std::string PooledCsvHeader(const std::vector<double>& percentiles) {
  std::string header;
  for (double percent : percentiles) {
    const std::string name = absl::StrCat(PercentileName(percent), "_ns");
    absl::StrAppend(&header, ",", name, ",", name, "_ci95_low,", name, "_ci95_high");
  }
  return header;
}

std::string PooledCsvCells(const std::vector<PooledPercentiles>& pooled, size_t size_bytes,
                           size_t percentiles) {
  std::string cells;
  const PooledPercentiles* found = nullptr;
  for (const PooledPercentiles& p : pooled)
    if (p.size_bytes == size_bytes) found = &p;
  for (size_t i = 0; i < percentiles; ++i) {
    if (found == nullptr || i >= found->values.size() || !found->values[i].valid) {
      cells += ",,,";
      continue;
    }
    const timing::ConfidenceInterval& ci = found->values[i];
    absl::StrAppendFormat(&cells, ",%.3f,%s", ci.estimate, CsvInterval(ci, CsvDigits::kFixed3));
  }
  return cells;
}

std::string FormatRawCsv(const std::vector<RunRecord>& records) {
  std::string text = "size_bytes,run,index,measured_ns,reference_ns,valid,attempt\n";
  for (const RunRecord& r : records) {
    ForEachReading(r, [&](const Reading& reading) {
      absl::StrAppendFormat(&text, "%d,%d,%d,%.17g,%s,%d,%d\n", r.size_bytes, r.run, reading.index,
                            reading.measured_ns,
                            std::isnan(reading.reference_ns)
                                ? std::string()
                                : absl::StrFormat("%.17g", reading.reference_ns),
                            reading.valid ? 1 : 0, r.attempt);
    });
  }
  return text;
}

}  // namespace tickbench::harness
