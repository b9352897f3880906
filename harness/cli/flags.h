// The command line: every tickbench flag is defined once, in flags.cc, with its default
// taken from CommandLine (command_line.h), and read into a CommandLine here and nowhere
// else. Nothing outside flags.cc reads a flag.
#ifndef HARNESS_CLI_FLAGS_H_
#define HARNESS_CLI_FLAGS_H_

#include <string>
#include <vector>

#include "harness/cli/command_line.h"

namespace tickbench::harness {

struct ParsedCommandLine {
  CommandLine flags;                    // every flag's value; `specified` names those given
  std::vector<std::string> positional;  // arguments that are not flags (an error to the caller)
};

// Parses argv with Abseil's parser. Does not return for an unknown flag or a bad value
// (exits 2, the message on stderr, --help beside it or not) nor for --help, --helpfull,
// --version and Abseil's other usage flags alone (exits 0, the text on stdout). Otherwise
// every flag's value, which were given (`specified`, with their values as given in
// `given_values`), and the positional arguments after the program name.
ParsedCommandLine ParseCommandLine(int argc, char** argv);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_FLAGS_H_
