// Reports of a sweep: a table for people (one row per size, runs aggregated), CSV (one
// row per transport x clock x size x run; columns in README.md) and JSON (context and
// results).
#ifndef HARNESS_REPORT_SWEEP_REPORT_H_
#define HARNESS_REPORT_SWEEP_REPORT_H_

#include <string>
#include <utility>
#include <vector>

#include "harness/context/run_context.h"
#include "harness/engine/run_record.h"
#include "harness/report/readings/run_readings.h"

namespace tickbench::harness {

// Which figure leads the table, as the classic experiments printed theirs.
enum class TableStyle {
  kThroughput,  // KB/s (1 KB = 1000 bytes), 2n bytes per round trip
  kRttMillis,   // round-trip time in ms
  kRttMicros,   // round-trip time in us
};

// How wide a table for people is.
enum class TableWidth {
  kNarrow,  // at most 100 columns (for sizes, figures and intervals of usual widths), one
            // time unit per table: the figures that tell the story, with their intervals
  kWide,    // --wide: every column (SDs, retried runs, the study's probe effect...), the
            // lead figure in its style's unit and the rest in us
};

// The one time unit of a narrow table (a wide one's are fixed by its style).
enum class TimeUnit { kMicros, kMillis };

// us, or ms where a valid run among `records` took 10 ms or more a round trip (the
// reference's averaged RTT where there is one, the clock's otherwise).
TimeUnit TableTimeUnit(const std::vector<RunRecord>& records);

// The table (sweep_table.cc), its time unit TableTimeUnit(records); the prose wrapped at
// 100 columns in both widths.
// `value` at `precision` decimals, "-" for NaN (no figure), "inf" for an infinity.
std::string TableNumber(double value, int precision);

// "1 size", "3 sizes", "1 round trip": a count and its noun, plural by the count.
std::string Counted(int64_t count, absl::string_view noun);

std::string FormatTable(const std::vector<RunRecord>& records, TableStyle style,
                        TableWidth width = TableWidth::kNarrow);

// The decimals of a table's figure columns. Each figure's are timing::FigureDecimals of
// its 95% interval and its grid (the lead and the reference across runs, their quantum
// T/N; the per-iteration mean, SD, p50 and p99 the widest of a run's intervals, on the
// clock's grid T/batch); a column keeps its first row's, so that it reads alike down a
// table printed as each size is done ("15.579" over "17.300", never "15.5790" over
// "17.30"). `set` once the first row has set them.
struct TableDigits {
  bool set = false;
  int lead = 0, mean = 0, sd = 0, p50 = 0, p99 = 0, ref = 0, ref_sd = 0;
};
// FormatTable in parts, for a table printed as each size finishes: the header lines; the
// row of one size (its runs among `records`), its notes appended to `notes`; then the
// notes and the footer. Header, the rows in size order and footer make FormatTable when
// `unit` is TableTimeUnit of all the records (a streamed table takes its first size's) and
// the rows share one `digits` (null: the row's own).
std::string FormatTableHeader(TableStyle style, TableWidth width = TableWidth::kNarrow,
                              TimeUnit unit = TimeUnit::kMicros);
std::string FormatTableRow(const std::vector<RunRecord>& records, size_t size_bytes,
                           TableStyle style, std::string& notes,
                           TableWidth width = TableWidth::kNarrow,
                           TimeUnit unit = TimeUnit::kMicros, TableDigits* digits = nullptr);
std::string FormatTableFooter(const std::vector<RunRecord>& records, const std::string& notes,
                              TableWidth width = TableWidth::kNarrow);

// The narrow table as cells, for the report page's HTML table: the groups over the columns
// with their spans, the columns' names, one row per size (the digits as the printed table
// has them), and the footer (legend and notes) as text.
struct SweepTableCells {
  std::vector<std::pair<std::string, int>> groups;
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> rows;
  std::string legend;
};
SweepTableCells FormatSweepTableCells(const std::vector<RunRecord>& records, TableStyle style);

// The CSV header line and rows, without the context (a preamble breaks CSV readers).
// After kCsvColumns, each run's row ends with its size's `percentiles` pooled over its
// runs (harness/report/readings/run_readings.h: PooledCsvHeader), the same on every run of a size.
std::string FormatCsv(const std::vector<RunRecord>& records,
                      const std::vector<double>& percentiles = {});
extern const char* const kCsvColumns[];

// "results" is followed by "pooled_percentiles" (harness/report/readings/run_readings.h:
// WritePooledJson) unless `percentiles` is empty.
std::string FormatJson(const RunContext& context, const std::vector<RunRecord>& records,
                       const std::string& experiment, const std::vector<double>& percentiles = {});

}  // namespace tickbench::harness

#endif  // HARNESS_REPORT_SWEEP_REPORT_H_
