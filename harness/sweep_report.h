// Reports of a sweep: a table for people (one row per size, runs aggregated), CSV (one
// row per transport x clock x size x run; columns in README.md) and JSON (context and
// results).
#ifndef HARNESS_SWEEP_REPORT_H_
#define HARNESS_SWEEP_REPORT_H_

#include <string>
#include <vector>

#include "harness/run_context.h"
#include "harness/run_record.h"

namespace tickbench::harness {

// Which figure leads the table, as the classic experiments printed theirs.
enum class TableStyle {
  kThroughput,  // KB/s (1 KB = 1000 bytes), 2n bytes per round trip
  kRttMillis,   // round-trip time in ms
  kRttMicros,   // round-trip time in us
};

std::string FormatTable(const std::vector<RunRecord>& records, TableStyle style);

// The CSV header line and rows, without the context (a preamble breaks CSV readers).
std::string FormatCsv(const std::vector<RunRecord>& records);
extern const char* const kCsvColumns[];

std::string FormatJson(const RunContext& context, const std::vector<RunRecord>& records,
                       const std::string& experiment);

}  // namespace tickbench::harness

#endif  // HARNESS_SWEEP_REPORT_H_
