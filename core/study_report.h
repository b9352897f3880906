// Reports of the board's study in the layout of the host's (harness/report/study_report.h): a
// table with a plain-words line per clock and size, CSV (one row per clock x size, the
// host's column names where the figure is the same) and JSON.
//
// Freestanding (core/README.md): plain C++17, no Abseil, no OS, no exceptions, no heap;
// the text goes to a TextSink as it is made.
//
// What is promised:
//   * The table's columns up to the theory's are the host's (size, truth, averaged with
//     its error and bound in % of the truth, per-iteration mean/sd/p50/min/zero%, theory
//     f pred/obs); the board adds the zero share against 1 - d/T with its bound.
//   * CSV and JSON numbers are printed with fixed decimals, so the same cells print the
//     same bytes on every platform with IEEE doubles.
//   * The host's names where the figure is the same, so that the host's `--analyze` and
//     `--plot` read the board's CSV: the truth is `truth_ns` in CSV and the `reference`
//     object in JSON (as the host study's), the results are JSON's `results`, the pairing
//     skew `pair_skew_ns`; the reference clock's name is `reference_clock`.
// What is NOT promised:
//   * The host's phase test and probe columns: the board does not measure them.
#ifndef CORE_STUDY_REPORT_H_
#define CORE_STUDY_REPORT_H_

#include <cstdint>

#include "core/text_sink.h"
#include "core/tick_study.h"

namespace tickbench::core {

// A duration as the host prints one ("10ms", "40ns", "1.5us"), into `buffer` (>= 24 bytes).
const char* FormatDurationNs(double ns, char* buffer, int size);

void WriteStudyTable(const StudyCell* cells, int count, TextSink& out);
void WriteStudyCsv(const StudyCell* cells, int count, TextSink& out);
// `platform` names where it ran, as a JSON string's contents (no quotes or backslashes).
void WriteStudyJson(const StudyCell* cells, int count, const char* platform, TextSink& out);

}  // namespace tickbench::core

#endif  // CORE_STUDY_REPORT_H_
