// Fuzz entry for --compare on JSON bytes (harness::CompareSweepJson: the JSON reader, the
// checks of harness/json/compare_input.h, the ratios and their tests, the three formats).
//
// Input: file A, then a line "---" and file B; without that line, A compared with itself.
// Checked besides memory safety: a refusal is InvalidArgument (exit 2) with a message of
// printable ASCII only; an accepted pair prints no "nan" or "inf" in any format, and its
// JSON reads back with, per size and figure: a valid ratio with both means and the ratio;
// an interval with its p-value only where each side has 2 runs or more, holding the ratio;
// a "p < 0.05" verdict only there.
#ifndef FUZZ_COMPARE_FUZZ_H_
#define FUZZ_COMPARE_FUZZ_H_

#include <cstddef>
#include <cstdint>

namespace tickbench::fuzz {

void FuzzCompare(const uint8_t* data, size_t size);

}  // namespace tickbench::fuzz

#endif  // FUZZ_COMPARE_FUZZ_H_
