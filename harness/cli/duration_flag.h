// The type of the duration flags (flags.cc defines them with it).
#ifndef HARNESS_CLI_DURATION_FLAG_H_
#define HARNESS_CLI_DURATION_FLAG_H_

#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace tickbench::harness {

// The value of a duration flag. Parsed as absl::ParseDuration does ("250ms", "1.5s",
// "inf"), but a value without a unit is refused with a message that names the units
// (Abseil's own absl::Duration flag says only "Illegal value"). Ranges are MakePlan's.
struct DurationFlag {
  absl::Duration value;
  bool none = false;  // given as "none" (value absl::InfiniteDuration()); "inf" is not
};
bool AbslParseFlag(absl::string_view text, DurationFlag* flag, std::string* error);
std::string AbslUnparseFlag(const DurationFlag& flag);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_DURATION_FLAG_H_
