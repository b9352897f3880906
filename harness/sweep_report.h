// Reports of a sweep: a table for people (one row per size, runs aggregated), CSV (one
// row per transport x clock x size x run; columns in README.md) and JSON (context and
// results).
#ifndef HARNESS_SWEEP_REPORT_H_
#define HARNESS_SWEEP_REPORT_H_

#include <string>
#include <vector>

#include "harness/run_context.h"
#include "harness/run_readings.h"
#include "harness/run_record.h"

namespace tickbench::harness {

// Which figure leads the table, as the classic experiments printed theirs.
enum class TableStyle {
  kThroughput,  // KB/s (1 KB = 1000 bytes), 2n bytes per round trip
  kRttMillis,   // round-trip time in ms
  kRttMicros,   // round-trip time in us
};

std::string FormatTable(const std::vector<RunRecord>& records, TableStyle style);
// FormatTable in parts, for a table printed as each size finishes: the header line; the
// row of one size (its runs among `records`), its notes appended to `notes`; then the
// notes and the footer. Header, the rows in size order and footer make FormatTable.
std::string FormatTableHeader(TableStyle style);
std::string FormatTableRow(const std::vector<RunRecord>& records, size_t size_bytes,
                           TableStyle style, std::string& notes);
std::string FormatTableFooter(const std::vector<RunRecord>& records, const std::string& notes);

// The CSV header line and rows, without the context (a preamble breaks CSV readers).
// After kCsvColumns, each run's row ends with its size's `percentiles` pooled over its
// runs (harness/run_readings.h: PooledCsvHeader), the same on every run of a size.
std::string FormatCsv(const std::vector<RunRecord>& records,
                      const std::vector<double>& percentiles = {});
extern const char* const kCsvColumns[];

// "results" is followed by "pooled_percentiles" (harness/run_readings.h: WritePooledJson)
// unless `percentiles` is empty.
std::string FormatJson(const RunContext& context, const std::vector<RunRecord>& records,
                       const std::string& experiment, const std::vector<double>& percentiles = {});

}  // namespace tickbench::harness

#endif  // HARNESS_SWEEP_REPORT_H_
