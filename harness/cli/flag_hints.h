// What tickbench says beside Abseil's error for a command line it refused: "did you mean
// ...?" for a mistyped flag (the registered name nearest to it by edit distance), and the
// range of a number flag given a value it cannot hold.
#ifndef HARNESS_CLI_FLAG_HINTS_H_
#define HARNESS_CLI_FLAG_HINTS_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace tickbench::harness {

// One flag as written on a command line: "--name=value", "--name value", "-name", "--noname".
struct FlagArgument {
  std::string name;                  // without its dashes and "=value"; "noquiet" as written
  std::optional<std::string> value;  // after "=", or the next argument where it takes one
};

// The one scan of a command line's arguments (without the program name) for its flags,
// which Abseil 20220623 keeps to itself: each flag in order, up to "--". A flag written
// without "=value" takes the next argument as its value where `takes_value(name)` says it
// does (nullptr: none does) and there is a next argument.
std::vector<FlagArgument> ScanFlags(const std::vector<std::string>& args,
                                    const std::function<bool(absl::string_view name)>& takes_value);

// Levenshtein distance (insertions, deletions, substitutions; a swap of neighbours counts 1,
// as typing them in the wrong order is one slip).
int EditDistance(absl::string_view a, absl::string_view b);

// The name in `names` nearest to `typed`, when near enough to be what was meant: at most
// 1 edit for names up to 4 characters, 2 up to 8, 3 beyond. Ties go to the first in
// `names`. "" when none is that near. A prefix of a name (--iter for --iterations) is
// also offered: the shortest name it begins, if it is 3 characters or longer.
std::string NearestName(absl::string_view typed, const std::vector<std::string>& names);

// The hint lines for the arguments of a command line (without the program name) that
// name no flag in `names`: "tickbench: unknown flag --X; did you mean --Y?" for each that
// has a near name. `takes_value(name)` says whether a known flag given without "=value"
// consumes the next argument; "--" ends the flags. A "--noNAME" of a known NAME is known.
std::vector<std::string> UnknownFlagHints(const std::vector<std::string>& args,
                                          const std::vector<std::string>& names,
                                          bool (*takes_value)(absl::string_view name));

// The lines for the arguments of a command line (without the program name) whose value
// a number flag cannot hold, which Abseil's parser refuses without the range: "tickbench:
// --iterations: must be 1..1000000000; got '99999999999999999999', past what a whole
// number holds here" for whole numbers past 64 bits or not whole, durations that are NaN,
// written with an exponent or past what a duration holds. ParseCommandLine prints them
// beside Abseil's error. The ranges are the plan's (MakePlan), tested to agree.
std::vector<std::string> NumberValueHints(const std::vector<std::string>& args);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_FLAG_HINTS_H_
