// Reads a sweep from CSV text: a plain two-column file of size,value, or a tickbench results
// file with a header naming its columns.
//
// Accepted input:
//  * Lines are separated by '\n' ('\r\n' too). Blank lines and lines whose first non-blank
//    character is '#' are ignored anywhere.
//  * Fields are separated by ',' and trimmed of blanks; a field may be double-quoted (a quote
//    inside is written "").
//  * The first remaining line is a header unless all its fields are numbers.
//      - No header: exactly two fields per line, size then value.
//      - A header with a size_bytes column: the values come from options.value_column, or
//        else from the first of averaged_rtt_ns, rtt_ns, value that the header has. Other
//        columns are ignored except `run`, which, if present, must hold whole numbers ≥ 0
//        and may not repeat for one size, and, with averaged_rtt_ns as the value,
//        `averaged_quantum_ns`, whose largest value per size becomes SweepPoint::quantum
//        (an empty, unreadable, negative or absurd cell, past 1e20, is left out).
//      - A header of two columns without size_bytes: size then value, as without header.
//    options.value_column names a header column; naming one for a file without a header is
//    an error.
//  * Each size's SweepPoint::resolution is the largest printed resolution of its value cells
//    (analysis/csv/printed_resolution.h: half a unit of the last digit written), in the sweep's
//    unit: the noise model's floor for a table written with few digits.
//  * Several rows of one size become that size's runs, in file order. Sizes may come in any
//    order; the sweep is sorted by size. A file holds one sweep: rows of several transports
//    or value columns in one file would be merged, so split such files first.
// Rejected with InvalidArgument naming the 1-based line number and the problem: a field that
// is not a plain decimal number ("0x10", "inf" and "nan" are not) or is too large to be
// finite; a size that is not a whole number from 1 to kMaxSweepSizeBytes (16 MiB, the
// transports' largest message: distinct sizes stay distinct); a value that is negative (a
// time or a throughput), a throughput of 0, or a value outside the analysis' range once in
// the sweep's unit (analysis::InSweepRange: 0 or a magnitude from 1e-20 to 1e20) or
// written to a resolution past 1e20 ("0e41"); a wrong number of fields; an unterminated
// quote; a missing column; a value column whose name has control characters or is not
// UTF-8 (the name is printed as it is); a repeated run; more than kMaxCsvRows data rows;
// more than kMaxCsvSizes distinct sizes; a line longer than kMaxCsvLineBytes; no data rows
// at all. Every cell is checked in analysis/csv/csv_cells.h.
// Messages quote the file's text (a cell, the header's column names) and options.value_column
// C-escaped (absl::CHexEscape: no control byte reaches a terminal) and cut after
// kMaxQuotedBytes bytes, marked "...".
// Time and memory: linear in the text, at most kMaxCsvRows values; the caller bounds the
// text's size (platform::ReadUserFile's 64 MiB for a file).
#ifndef ANALYSIS_CSV_SWEEP_READER_H_
#define ANALYSIS_CSV_SWEEP_READER_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "analysis/steps/step_detector.h"
#include "analysis/sweep.h"

namespace tickbench::analysis {

// Bounds that keep a malformed or hostile file from taking unbounded memory or time: a
// million rows is 40 sizes × 25000 runs, far beyond any real sweep.
inline constexpr size_t kMaxCsvRows = 1'000'000;
inline constexpr size_t kMaxCsvLineBytes = 64 * 1024;  // without the line break
// The step detector's limit (its time grows with the square of the sizes; runs of one size
// cost nothing there): a file with more sizes could never be analysed.
inline constexpr size_t kMaxCsvSizes = kMaxStepDetectorSizes;
// Of a cell or column name quoted in an error message, before its escaping.
inline constexpr size_t kMaxQuotedBytes = 40;

struct CsvSweepOptions {
  // The value column of a file with a header; empty picks the default described above.
  std::string value_column;
};

// The sweep's value_name is the value column's name ("value" without a header). Its unit
// comes from the name's suffix, and the values are scaled to it: time columns _ns, _us, _ms,
// _s are read in "ns" (×1, ×1e3, ×1e6, ×1e9); throughput columns _bytes_per_s (or
// _bytes_per_second), _kb_per_s (1000 bytes), _kib_per_s (1024), _mb_per_s (1e6 bytes) in
// "B/s". Without such a suffix the unit is "" and the values are kept. A header with
// size_bytes but none of the default value columns takes the first column whose name ends
// in a known unit. A value column whose name ends in something that looks like a unit but
// is none of these ("_per_" anything, "_" and one to three letters: rtt_sec, rtt_min, or
// a unit word: rtt_usec, throughput_mbps, rtt_cycles) is refused, the known suffixes listed.
absl::StatusOr<Sweep> ParseSweepCsv(absl::string_view text, const CsvSweepOptions& options = {});

}  // namespace tickbench::analysis

#endif  // ANALYSIS_CSV_SWEEP_READER_H_
