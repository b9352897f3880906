// --help: every tickbench flag in one group of what it is for (what to run, clocks,
// transports, outputs, analysis, remote), each with its true default, instead of
// Abseil's flat list. --helpfull and --help=SUBSTRING stay Abseil's.
//
// What is promised (grouped_help_test): every flag defined in harness/cli/flags.cc is in
// exactly one group; the default printed is the flag's own (absl::CommandLineFlag's
// DefaultValue(), "none" for an empty one), or where the flag's value stands for
// something else (an empty --sizes is the experiment's sizes; --receive_timeout's 1s
// holds for the warm-up only) words that begin with that value, never a contradiction.
#ifndef HARNESS_CLI_HELP_GROUPED_HELP_H_
#define HARNESS_CLI_HELP_GROUPED_HELP_H_

#include <string>
#include <vector>

namespace tickbench::harness {

struct HelpGroup {
  const char* title;               // "Clocks"
  std::vector<const char*> flags;  // in the order they are listed
};

// The groups, in the order --help prints them.
const std::vector<HelpGroup>& HelpGroups();

// The default --help prints for `flag`: its default value, "none" when empty, or the words
// that say what that value means.
std::string HelpDefault(const std::string& flag);

// The groups, each flag as "  --name (default: D)" and its help wrapped at 100 columns,
// for the flags registered with Abseil (a flag not registered is left out).
std::string GroupedFlagHelp();

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_HELP_GROUPED_HELP_H_
