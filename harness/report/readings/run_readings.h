// Every per-iteration reading of a sweep's runs, read back from their kept marks after the
// sweep (nothing here runs in the measurement loop): for --raw, and for percentiles pooled
// over the runs of a size (--percentiles).
//
// Promised:
//   * A reading is one interval of a run (RunRecord::batch round trips; the last interval
//     what remained) divided by its round trips, in ns, computed as the round-trip engine
//     computes its per-iteration figures: the same values, in time order.
//   * A faulty interval's reading is visited with valid false and is in no percentile.
//   * Pooled percentiles are over every valid reading of every valid run of a size (not
//     the mean of the runs' percentiles), type 7 as timing::QuantileOfSorted, each with
//     the distribution-free 95% interval of timing::QuantileInterval (which assumes
//     independent readings).
// Not promised: anything of a run timed in chunks (EngineOptions::max_kept_intervals),
// whose readings were folded and not kept: it is visited not at all, and its size's pooled
// percentiles leave it out and count it in runs_not_kept.
#ifndef HARNESS_REPORT_RUN_READINGS_H_
#define HARNESS_REPORT_RUN_READINGS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/engine/run_record.h"
#include "harness/json/json_writer.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {

struct Reading {
  int64_t index = 0;        // the interval's place in its run, from 0
  double measured_ns = 0;   // per round trip
  double reference_ns = 0;  // per round trip; NaN without a reference clock
  bool valid = true;        // false: the interval was cut out for a fault
};

// Whether `record` kept its readings (a run timed in one chunk).
bool ReadingsKept(const RunRecord& record);

// Calls `visit` with every interval of `record`'s kept marks, in time order; nothing for a
// run that kept none.
void ForEachReading(const RunRecord& record, const std::function<void(const Reading&)>& visit);

// --percentiles: the default (what the reports printed before it), and the most allowed.
inline const std::vector<double>& DefaultPercentiles() {
  static const std::vector<double>* const kDefault = new std::vector<double>{50, 90, 99};
  return *kDefault;
}
inline constexpr int kMaxPercentiles = 12;

// A comma-separated list of percentiles, each 0 < p < 100, each once, at most
// kMaxPercentiles. InvalidArgument (the message names no flag; user text escaped) else.
absl::StatusOr<std::vector<double>> ParsePercentiles(absl::string_view text);

// A percentile's name in column and member names: 50 -> "p50", 99.9 -> "p99_9".
std::string PercentileName(double percent);

struct PooledPercentiles {
  size_t size_bytes = 0;
  int runs = 0;           // valid runs pooled
  int runs_not_kept = 0;  // valid runs timed in chunks, left out
  int64_t readings = 0;   // valid readings pooled
  // One per percentile asked for, in that order: the estimate and its 95% interval;
  // invalid where there is no reading.
  std::vector<timing::ConfidenceInterval> values;
};

// One size's percentiles (in percent) pooled over its valid runs among `runs` (all of one
// size): the table's p50 and p99, and each entry of PoolPercentiles.
PooledPercentiles PoolSizePercentiles(const std::vector<const RunRecord*>& runs,
                                      const std::vector<double>& percentiles);

// Per size, in increasing order, the percentiles (in percent) pooled over its valid runs.
std::vector<PooledPercentiles> PoolPercentiles(const std::vector<RunRecord>& records,
                                               const std::vector<double>& percentiles);

// "pooled_percentiles": [{"size_bytes", "runs", "runs_not_kept", "readings",
// "p50_ns", "p50_ns_ci95": [low, high], ...}, ...] (null and [] where invalid); nothing
// for no percentiles.
void WritePooledJson(JsonWriter& json, const std::vector<double>& percentiles,
                     const std::vector<PooledPercentiles>& pooled);

// The CSV's pooled columns: ",p50_ns,p50_ns_ci95_low,p50_ns_ci95_high" per percentile; and
// a size's cells in the same layout (empty where there is no figure).
std::string PooledCsvHeader(const std::vector<double>& percentiles);
std::string PooledCsvCells(const std::vector<PooledPercentiles>& pooled, size_t size_bytes,
                           size_t percentiles);

// --raw: "size_bytes,run,index,measured_ns,reference_ns,valid,attempt" and one line per
// reading of every record (retried attempts too), faulty intervals with valid 0.
std::string FormatRawCsv(const std::vector<RunRecord>& records);

}  // namespace tickbench::harness

#endif  // HARNESS_REPORT_RUN_READINGS_H_
