// The resolution a number was printed to: what the digits of a CSV cell say about how far
// the written value may be from the one that was rounded to it.
#ifndef ANALYSIS_PRINTED_RESOLUTION_H_
#define ANALYSIS_PRINTED_RESOLUTION_H_

#include "absl/strings/string_view.h"

namespace tickbench::analysis {

// Half a unit of the last digit of a decimal number as written: "42" → 0.5, "1631.25" →
// 0.005, "1.5e3" → 50, "-0.010" → 0.0005 (a trailing zero written is a digit). A whole
// number's trailing zeros are taken as digits too ("4200" → 0.5): the text cannot say they
// are not, and 0.5 is the least the rounding can be. 0 for anything else (hexadecimal,
// "inf", "nan", no digits), whose resolution is unknown.
double PrintedResolution(absl::string_view number);

// Whether `number` (blanks around it allowed) is a plain decimal: an optional sign, digits
// with an optional point (a digit on one side of it at least), an optional exponent
// e[+-]digits. Not "0x10", "inf", "nan", "1e", "1.5x".
bool IsPlainDecimal(absl::string_view number);

}  // namespace tickbench::analysis

#endif  // ANALYSIS_PRINTED_RESOLUTION_H_
