// Fuzz entry for the whole of --analyze --explain --fit_sim on a CSV's bytes
// (harness::AnalyzeCsvText: the CSV reader, the throughput conversion, the step detector,
// the noise model, the buffer-layout fits, the simulation fit and the report), and the
// JSON of --format=json (harness::FormatAnalysisJson).
//
// Input: the first line is --analyze_column (an empty line picks the default column), the
// rest the CSV text. Checked besides memory safety: a refusal is InvalidArgument (exit 2)
// with a short message of printable ASCII only; an accepted text gives a sweep that passes
// ValidateSweep, a report with no control byte and no "nan" or "inf" printed, a --fit_sim
// that prints its flags or is refused with InvalidArgument, and JSON that reads back.
#ifndef FUZZ_ANALYZE_FUZZ_H_
#define FUZZ_ANALYZE_FUZZ_H_

#include <cstddef>
#include <cstdint>

namespace tickbench::fuzz {

void FuzzAnalyze(const uint8_t* data, size_t size);

}  // namespace tickbench::fuzz

#endif  // FUZZ_ANALYZE_FUZZ_H_
