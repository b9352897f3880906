#include "analysis/printed_resolution.h"

#include <cmath>
#include <cstddef>

#include "absl/strings/ascii.h"

namespace tickbench::analysis {
namespace {

// Digits from `i` on; returns how many.
size_t SkipDigits(absl::string_view text, size_t& i) {
  const size_t start = i;
  while (i < text.size() && absl::ascii_isdigit(static_cast<unsigned char>(text[i]))) ++i;
  return i - start;
}

}  // namespace

double PrintedResolution(absl::string_view number) {
  number = absl::StripAsciiWhitespace(number);
  size_t i = 0;
  if (i < number.size() && (number[i] == '+' || number[i] == '-')) ++i;
  const size_t whole = SkipDigits(number, i);
  size_t fraction = 0;
  if (i < number.size() && number[i] == '.') {
    ++i;
    fraction = SkipDigits(number, i);
  }
  if (whole + fraction == 0) return 0;
  long exponent = 0;
  if (i < number.size() && (number[i] == 'e' || number[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < number.size() && (number[i] == '+' || number[i] == '-')) negative = number[i++] == '-';
    const size_t start = i;
    if (SkipDigits(number, i) == 0 || i - start > 4) return 0;  // no exponent, or absurd
    for (size_t k = start; k < i; ++k) exponent = exponent * 10 + (number[k] - '0');
    if (negative) exponent = -exponent;
  }
  if (i != number.size()) return 0;  // hexadecimal, a suffix: not a plain decimal
  const double half_unit =
      0.5 * std::pow(10.0, static_cast<double>(exponent) - static_cast<double>(fraction));
  return std::isfinite(half_unit) ? half_unit : 0;
}

}  // namespace tickbench::analysis
