// The flags as they stand after parsing, for the reports and for "did you mean": their
// names, and each tickbench flag as a Setting (value, type, given or not), with what a
// plan put in force in place of the flags' values (SettingsInForce).
#ifndef HARNESS_CLI_FLAG_SETTINGS_H_
#define HARNESS_CLI_FLAG_SETTINGS_H_

#include <set>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "harness/cli/command_line.h"
#include "harness/cli/plan.h"
#include "harness/context/setting.h"

namespace tickbench::harness {

// Every registered flag's name (tickbench's and Abseil's own, such as help), sorted.
std::vector<std::string> RegisteredFlagNames();

// Whether the registered flag `name`, given without "=value", takes the next argument as
// its value (every flag but a bool); false for a name not registered.
bool RegisteredFlagTakesValue(absl::string_view name);

// Every flag defined in harness/cli/flags.cc, sorted by name, with its current value as the
// flag prints it, its type, and whether its name is in `given`. Call after parsing.
std::vector<Setting> FlagSettings(const std::set<std::string>& given);

// `command_line.settings` with the plan's values where it chose them: the experiment's
// transport, sizes, iterations, runs, warm-up and retries, and the clocks as resolved
// (the study's list, or the one clock), the reference "none" when there is none.
std::vector<Setting> SettingsInForce(const CommandLine& command_line, const Plan& plan);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_FLAG_SETTINGS_H_
