#include "analysis/csv/printed_resolution.h"

#include <cmath>
#include <cstddef>
#include <optional>

#include "absl/strings/ascii.h"

namespace tickbench::analysis {
namespace {

// Digits from `i` on; returns how many.
size_t SkipDigits(absl::string_view text, size_t& i) {
  const size_t start = i;
  while (i < text.size() && absl::ascii_isdigit(static_cast<unsigned char>(text[i]))) ++i;
  return i - start;
}

// A plain decimal number as written: its digits after the point, and its exponent.
struct Decimal {
  size_t fraction = 0;
  long exponent = 0;
  bool exponent_fits = true;  // at most 4 digits: past that the resolution is not computed
};

// The parts of `number` (blanks around it allowed) if it is [+-]digits[.digits][e[+-]digits]
// with a digit before or after the point; nullopt otherwise.
std::optional<Decimal> ScanDecimal(absl::string_view number) {
  number = absl::StripAsciiWhitespace(number);
  Decimal decimal;
  size_t i = 0;
  if (i < number.size() && (number[i] == '+' || number[i] == '-')) ++i;
  const size_t whole = SkipDigits(number, i);
  if (i < number.size() && number[i] == '.') {
    ++i;
    decimal.fraction = SkipDigits(number, i);
  }
  if (whole + decimal.fraction == 0) return std::nullopt;
  if (i < number.size() && (number[i] == 'e' || number[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < number.size() && (number[i] == '+' || number[i] == '-')) negative = number[i++] == '-';
    const size_t start = i;
    if (SkipDigits(number, i) == 0) return std::nullopt;
    decimal.exponent_fits = i - start <= 4;
    for (size_t k = start; k < i && decimal.exponent_fits; ++k) {
      decimal.exponent = decimal.exponent * 10 + (number[k] - '0');
    }
    if (negative) decimal.exponent = -decimal.exponent;
  }
  if (i != number.size()) return std::nullopt;  // hexadecimal, a suffix: not a plain decimal
  return decimal;
}

}  // namespace

bool IsPlainDecimal(absl::string_view number) { return ScanDecimal(number).has_value(); }

double PrintedResolution(absl::string_view number) {
  const std::optional<Decimal> decimal = ScanDecimal(number);
  if (!decimal || !decimal->exponent_fits) return 0;  // not a decimal, or an absurd exponent
  const double half_unit = 0.5 * std::pow(10.0, static_cast<double>(decimal->exponent) -
                                                    static_cast<double>(decimal->fraction));
  return std::isfinite(half_unit) ? half_unit : 0;
}

}  // namespace tickbench::analysis
