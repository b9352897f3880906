#include "harness/json/compare_input.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analysis/sweep.h"
#include "harness/json/json_reader.h"
#include "harness/output/build_info.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

// Where a problem is: the file, and the result's index in its "results".
struct Place {
  absl::string_view name;
  size_t index;
  absl::Status Error(absl::string_view problem) const {
    return absl::InvalidArgumentError(absl::StrFormat("%s: results[%d]: %s", name, index, problem));
  }
};

// The member `group`.`key` of a result; nullptr when missing (or null: not given).
const JsonValue* Member(const JsonValue& record, absl::string_view group, absl::string_view key) {
  const JsonValue* g = record.Get(group);
  const JsonValue* v = g == nullptr ? nullptr : g->Get(key);
  return v == nullptr || v->kind == JsonValue::Kind::kNull ? nullptr : v;
}

// The duration in ns at `group`.`key` into `out`; a missing one is an error when `required`,
// else leaves `out` as it is.
absl::Status ReadDuration(const JsonValue& record, absl::string_view group, absl::string_view key,
                          bool required, const Place& place, double& out) {
  const std::string path = absl::StrCat(group, ".", key);
  const JsonValue* v = Member(record, group, key);
  if (v == nullptr) return required ? place.Error(path + " is missing") : absl::OkStatus();
  if (v->kind != JsonValue::Kind::kNumber) return place.Error(path + " is not a number");
  if (v->number < 0 || !analysis::InSweepRange(v->number)) {
    return place.Error(absl::StrFormat("%s is %s: a duration is %s ns", path,
                                       timing::FormatExact(v->number), analysis::SweepRangeText()));
  }
  out = v->number;
  return absl::OkStatus();
}

absl::StatusOr<int64_t> ReadSize(const JsonValue& record, const Place& place) {
  const JsonValue* size = record.Get("size_bytes");
  if (size == nullptr) return place.Error("no size_bytes");
  const bool number = size->kind == JsonValue::Kind::kNumber;
  if (!number || !(size->number >= 1 && size->number <= analysis::kMaxSweepSizeBytes) ||
      size->number != std::floor(size->number)) {
    return place.Error(absl::StrFormat(
        "size_bytes %sis not a whole number from 1 to %.0f bytes (the transports' largest message)",
        number ? absl::StrCat(timing::FormatExact(size->number), " ") : "",
        analysis::kMaxSweepSizeBytes));
  }
  return static_cast<int64_t>(size->number);
}

// One result into `runs` (of its size), if it is a valid run.
absl::Status ReadRun(const JsonValue& record, const Place& place, SizeRuns& runs) {
  const JsonValue* valid = record.Get("valid");
  if (valid != nullptr && valid->kind != JsonValue::Kind::kBool) {
    return place.Error("valid is not true or false");
  }
  if (valid != nullptr && !valid->boolean) return absl::OkStatus();
  double averaged = 0, per_iteration = 0, quantum = 0, resolution = 0;
  for (const auto& [group, key, required, out] :
       {std::make_tuple("averaged", "rtt_ns", true, &averaged),
        std::make_tuple("per_iteration", "mean_ns", true, &per_iteration),
        std::make_tuple("averaged", "quantum_ns", false, &quantum),
        std::make_tuple("averaged", "resolution_ns", false, &resolution)}) {
    if (absl::Status s = ReadDuration(record, group, key, required, place, *out); !s.ok()) return s;
  }
  double intervals = 0;
  if (const JsonValue* v = Member(record, "per_iteration", "intervals"); v != nullptr) {
    intervals = v->kind == JsonValue::Kind::kNumber ? v->number : -1;
    if (!(intervals >= 0 && intervals <= 0x1p53 && intervals == std::floor(intervals))) {
      return place.Error(v->kind == JsonValue::Kind::kNumber
                             ? absl::StrCat("per_iteration.intervals is ",
                                            timing::FormatExact(v->number),
                                            ", not a whole number >= 0")
                             : "per_iteration.intervals is not a number");
    }
  }
  runs.per_iteration_is_averaged =
      runs.per_iteration_is_averaged && std::fabs(per_iteration - averaged) <= 1e-9 * averaged;
  runs.averaged.push_back(averaged);
  runs.per_iteration.push_back(per_iteration);
  runs.averaged_quantum = std::max(runs.averaged_quantum, quantum);
  if (intervals > 0) {
    runs.per_iteration_quantum = std::max(runs.per_iteration_quantum, resolution / intervals);
  }
  return absl::OkStatus();
}

// What the file as a whole must be: JSON, a sweep's results, of a schema this reads.
absl::StatusOr<JsonValue> ReadSweepRoot(absl::string_view text, absl::string_view name) {
  absl::StatusOr<JsonValue> root = ParseJson(text);
  if (!root.ok()) {
    return absl::Status(root.status().code(), absl::StrCat(name, ": ", root.status().message()));
  }
  // A study's JSON has "results" too, one per clock and size: not a sweep's runs.
  if (const std::string mode = StringAt(*root, "mode"); !mode.empty() && mode != "sweep") {
    const std::string what =
        mode == "study" ? "a study" : absl::StrCat("mode \"", absl::CHexEscape(mode), "\"");
    return absl::InvalidArgumentError(absl::StrCat(
        name, ": the results of ", what,
        ", not of a sweep; --compare sets two sweeps' --format=json results side by side "
        "(a study compares its clocks within one file)"));
  }
  const JsonValue* version = root->Get("schema_version");
  if (version == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, ": no schema_version (a sweep's --format=json results have ", kSchemaVersion, ")"));
  }
  if (version->kind != JsonValue::Kind::kNumber || version->number != kSchemaVersion) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: schema_version %s is not one this tickbench reads (%d)", name,
        version->kind == JsonValue::Kind::kNumber ? timing::FormatExact(version->number)
                                                  : std::string("(not a number)"),
        kSchemaVersion));
  }
  const JsonValue* results = root->Get("results");
  if (results == nullptr || results->kind != JsonValue::Kind::kArray) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": no \"results\" array (a sweep's --format=json output is expected)"));
  }
  return root;
}

}  // namespace

absl::StatusOr<SweepFile> ReadSweepFile(absl::string_view text, absl::string_view name) {
  absl::StatusOr<JsonValue> root = ReadSweepRoot(text, name);
  if (!root.ok()) return root.status();
  SweepFile file;
  std::set<std::string> transports;
  const std::vector<JsonValue>& results = root->Get("results")->items;
  for (size_t i = 0; i < results.size(); ++i) {
    const JsonValue& record = results[i];
    const Place place{name, i};
    if (record.kind != JsonValue::Kind::kObject) return place.Error("not an object");
    transports.insert(StringAt(record, "transport"));
    if (file.clock.empty()) file.clock = StringAt(record, "clock");
    absl::StatusOr<int64_t> size = ReadSize(record, place);
    if (!size.ok()) return size.status();
    if (file.sizes.size() == kMaxCompareSizes && file.sizes.count(*size) == 0) {
      return place.Error(
          absl::StrFormat("more than %d sizes, the most a sweep measures", kMaxCompareSizes));
    }
    if (absl::Status s = ReadRun(record, place, file.sizes[*size]); !s.ok()) return s;
  }
  if (file.sizes.empty()) return absl::InvalidArgumentError(absl::StrCat(name, ": no results"));
  if (transports.size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": results of more than one transport (",
                                                   absl::CHexEscape(absl::StrJoin(transports, ",")),
                                                   ")"));
  }
  file.transport = *transports.begin();
  return file;
}

}  // namespace tickbench::harness
