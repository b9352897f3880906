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
#include "harness/cli/hints/near_names.h"

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

// The lines for the arguments of a command line (without the program name) that name no
// flag in `names`, one per flag: "tickbench: unknown flag --X; did you mean --Y?" where a
// name is near, else "tickbench: unknown flag --X (--help lists every flag)".
// `takes_value(name)` says whether a known flag given without "=value" consumes the next
// argument; "--" ends the flags. A "--noNAME" of a known NAME is known.
std::vector<std::string> UnknownFlagHints(const std::vector<std::string>& args,
                                          const std::vector<std::string>& names,
                                          bool (*takes_value)(absl::string_view name));

// The lines for the arguments of a command line (without the program name) whose value
// a number flag cannot hold, which Abseil's parser refuses without the range: "tickbench:
// --iterations: must be 1..1000000000; got '99999999999999999999', past what a whole
// number holds here" for whole numbers past 64 bits or not whole, durations that are NaN,
// written with an exponent or past what a duration holds. ParseCommandLine prints them
// instead of Abseil's error, one line per mistake. The ranges are the plan's (MakePlan),
// tested to agree.
std::vector<std::string> NumberValueHints(const std::vector<std::string>& args);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_FLAG_HINTS_H_
