// From the flags to the command of their mode: --list_clocks, --clock_info, --analyze,
// --role=server, or a measurement (ChooseMode's precedence).
#ifndef HARNESS_COMMANDS_DISPATCH_H_
#define HARNESS_COMMANDS_DISPATCH_H_

#include <functional>

#include "absl/status/status.h"
#include "harness/cli/command_line.h"
#include "harness/report/reporter.h"

namespace tickbench::harness {

using Command = std::function<int(const CommandLine&, const ReportStreams&)>;

// One command per mode, and the step that installs the stop handlers; tests replace them.
struct Commands {
  Command list_clocks;
  Command clock_info;
  Command analyze;
  Command server;
  Command measure;
  Command compare;  // --compare, before every other mode
  std::function<absl::Status()> install_stop_handlers;
};

// The real ones (harness/commands/*_command.h, platform::InstallStopHandlers).
Commands DefaultCommands();

// Runs the command of `command_line`'s mode and returns its exit code; kExitUsage, with
// the message on stderr and no command run, when ChooseMode refuses the flags. The stop
// handlers are installed before every command but --list_clocks (which ends at once) and
// the server (which polls the signals itself); kExitFault if they cannot be.
int Dispatch(const CommandLine& command_line, const Commands& commands,
             const ReportStreams& streams);

}  // namespace tickbench::harness

#endif  // HARNESS_COMMANDS_DISPATCH_H_
