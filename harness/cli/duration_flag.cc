#include "harness/cli/duration_flag.h"

#include <cmath>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"

namespace tickbench::harness {

bool AbslParseFlag(absl::string_view text, DurationFlag* flag, std::string* error) {
  // "none": no bound (absl::InfiniteDuration(), told apart from "inf", which the ranges
  // refuse); the flags that take it say so, the others refuse it by their range.
  flag->none = absl::StripAsciiWhitespace(text) == "none";
  if (flag->none) {
    flag->value = absl::InfiniteDuration();
    return true;
  }
  if (absl::ParseDuration(absl::StripAsciiWhitespace(text), &flag->value)) return true;
  double number = 0;
  if (absl::SimpleAtod(text, &number) && !std::isnan(number)) {
    *error = "a duration needs a unit: e.g. 5s, 250ms, 100us (units: ns, us, ms, s, m, h)";
  } else {
    *error =
        "not a duration: write a decimal number (no exponent, not nan) and a unit, e.g. 5s, "
        "250ms, 100us (units: ns, us, ms, s, m, h)";
  }
  return false;
}

std::string AbslUnparseFlag(const DurationFlag& flag) {
  return flag.none ? "none" : absl::FormatDuration(flag.value);
}

}  // namespace tickbench::harness
