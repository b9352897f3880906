// Fuzz entry for analysis::ParseSweepCsv, the reader of sweep CSV files.
//
// Input: the first line is options.value_column (an empty line picks the default column),
// the rest is the CSV text. Checked besides memory safety: an accepted file gives a sweep
// that passes ValidateSweep, has data, holds at most kMaxCsvRows values, and is named
// after the column asked for (or "value", for a file without a header), a name without
// control bytes; a rejected one gives a short InvalidArgument message of printable ASCII
// only (the file's bytes quoted escaped).
#ifndef FUZZ_CSV_READER_FUZZ_H_
#define FUZZ_CSV_READER_FUZZ_H_

#include <cstddef>
#include <cstdint>

namespace tickbench::fuzz {

void FuzzCsvReader(const uint8_t* data, size_t size);

}  // namespace tickbench::fuzz

#endif  // FUZZ_CSV_READER_FUZZ_H_
