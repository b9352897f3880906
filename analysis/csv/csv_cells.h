// The cells of a sweep CSV read by what they mean, and how messages quote the file: the one
// place where ParseSweepCsv (analysis/csv/csv_sweep_reader.h) checks a number. Every error is
// InvalidArgument "line N: <problem>", the cell quoted escaped.
#ifndef ANALYSIS_CSV_CELLS_H_
#define ANALYSIS_CSV_CELLS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tickbench::analysis::csv_internal {

absl::Status LineError(int line, absl::string_view problem);

// Text of the file (or of the caller) as a message may quote it: control bytes and non-ASCII
// C-escaped, at most kMaxQuotedBytes of it, then "..."; Quoted() adds single quotes.
std::string Escaped(absl::string_view text);
std::string Quoted(absl::string_view text);

// Whether the field reads as a number in any spelling ("0x10", "inf" too): a line of such
// fields is data, not a header, and its cells then get the checks below.
bool LooksNumeric(absl::string_view field);

// A plain decimal number (analysis::IsPlainDecimal), finite: "'0x10' is not a decimal
// number", "'1e999' is not finite", "'fast' is not a number", after the column's name.
absl::StatusOr<double> ParseDecimal(absl::string_view field, absl::string_view column, int line);

// A message size: a whole number of bytes from 1 to kMaxSweepSizeBytes (the transports'
// largest message), so that distinct sizes stay distinct.
absl::StatusOr<double> ParseSize(absl::string_view field, int line);

// A value and the resolution it was printed to (analysis::PrintedResolution), both in the
// sweep's unit.
struct ValueCell {
  double value = 0;
  double resolution = 0;
};

// A value of `column` in the sweep's unit (`unit`, "" for none), the cell times `scale`:
// a round-trip time or a throughput, so not negative, a throughput (unit "B/s") positive,
// and in the analysis' range (analysis::InSweepRange), its printed resolution at most
// kMaxSweepMagnitude too ("0e41" is 0 written to ±5e40).
absl::StatusOr<ValueCell> ParseValue(absl::string_view field, absl::string_view column,
                                     absl::string_view unit, double scale, int line);

}  // namespace tickbench::analysis::csv_internal

#endif  // ANALYSIS_CSV_CELLS_H_
