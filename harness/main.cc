// tickbench: round-trip time and throughput of IPC and network transports across message
// sizes, timed by a clock of your choice against a fine reference clock.
//
// Parses the flags (harness/cli/flags.h) and runs the command of their mode
// (harness/commands/dispatch.h). Exit codes: 0 success; 1 a fault during the measurement (what was
// measured is still printed and written); 2 bad input (a flag, a file); 130 / 143
// stopped by SIGINT / SIGTERM.
#include <csignal>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "harness/cli/flags.h"
#include "harness/commands/dispatch.h"
#include "harness/output/command_status.h"
#include "harness/report/reporter.h"

int main(int argc, char** argv) {
  using namespace tickbench::harness;
  // A peer gone mid-write must be an error status, not a signal that kills the harness
  // before it writes what it measured. Ignoring SIGPIPE up front also lets the pipe
  // transport write without blocking the signal around each write (~0.5 us a write).
  std::signal(SIGPIPE, SIG_IGN);
  const ParsedCommandLine parsed = ParseCommandLine(argc, argv);
  if (!parsed.positional.empty()) {
    return ExitAfterStandardStreams(Usage(absl::InvalidArgumentError(
        absl::StrCat("unexpected argument '", absl::CHexEscape(parsed.positional[0]),
                     "'; flags take the form --name=value (see --help)"))));
  }
  // Every write to standard output or error is checked: a failed one ends in exit 1.
  return ExitAfterStandardStreams(Dispatch(parsed.flags, DefaultCommands(), StandardStreams()));
}
