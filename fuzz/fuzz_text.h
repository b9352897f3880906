// Properties of text a fuzz entry checks: what reaches a terminal, and numbers printed.
#ifndef FUZZ_FUZZ_TEXT_H_
#define FUZZ_FUZZ_TEXT_H_

#include "absl/strings/string_view.h"

namespace tickbench::fuzz {

// True when `text` has a byte below 0x20 or from 0x7f on (a message should quote the
// input's bytes escaped: printable ASCII only).
bool HasControlOrHighByte(absl::string_view text);

// True when `text` has a control byte other than '\n' (UTF-8 is allowed: a report's ±).
bool HasControlByte(absl::string_view text);

// True when `text` prints a number that is not finite: "nan" or "inf" (any case, a sign
// before it or not) standing alone, not inside a word ("information", "infinite").
bool PrintsNonFinite(absl::string_view text);

}  // namespace tickbench::fuzz

#endif  // FUZZ_FUZZ_TEXT_H_
