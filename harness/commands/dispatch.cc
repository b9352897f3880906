#include "harness/commands/dispatch.h"

#include "absl/strings/str_cat.h"
#include "harness/commands/analyze_command.h"
#include "harness/commands/clock_info_command.h"
#include "harness/commands/compare_command.h"
#include "harness/commands/list_clocks_command.h"
#include "harness/commands/measure_command.h"
#include "harness/commands/server_command.h"
#include "harness/output/command_status.h"
#include "platform/stop_signal.h"

namespace tickbench::harness {

Commands DefaultCommands() {
  Commands commands;
  commands.list_clocks = RunListClocksCommand;
  commands.clock_info = RunClockInfoCommand;
  commands.analyze = RunAnalyzeCommand;
  commands.server = RunServerCommand;
  commands.measure = RunMeasureCommand;
  commands.compare = RunCompareCommand;
  commands.install_stop_handlers = platform::InstallStopHandlers;
  return commands;
}

int Dispatch(const CommandLine& command_line, const Commands& commands,
             const ReportStreams& streams) {
  // --compare reads two files and measures nothing; it checks its own flags.
  if (command_line.specified.count("compare") > 0 && commands.compare) {
    if (absl::Status installed = commands.install_stop_handlers(); !installed.ok()) {
      streams.err(absl::StrCat("tickbench: ", installed.message(), "\n"));
      return kExitFault;
    }
    return commands.compare(command_line, streams);
  }
  absl::StatusOr<Mode> mode = ChooseMode(command_line);
  if (!mode.ok()) return Usage(mode.status());
  if (*mode == Mode::kListClocks) return commands.list_clocks(command_line, streams);
  if (*mode == Mode::kServer) return commands.server(command_line, streams);
  // Every other mode records SIGINT and SIGTERM with the stop handlers, installed before
  // anything that may take long.
  if (absl::Status installed = commands.install_stop_handlers(); !installed.ok()) {
    streams.err(absl::StrCat("tickbench: ", installed.message(), "\n"));
    return kExitFault;
  }
  switch (*mode) {
    case Mode::kClockInfo:
      return commands.clock_info(command_line, streams);
    case Mode::kAnalyze:
      return commands.analyze(command_line, streams);
    default:
      return commands.measure(command_line, streams);
  }
}

}  // namespace tickbench::harness
