// --role=server: echoes for tickbench clients on other hosts (docs/remote.md) until
// SIGINT or SIGTERM, which it polls as a signalfd (no stop handlers).
#ifndef HARNESS_COMMANDS_SERVER_COMMAND_H_
#define HARNESS_COMMANDS_SERVER_COMMAND_H_

#include "harness/cli/command_line.h"
#include "harness/report/reporter.h"

namespace tickbench::harness {

// kExitOk after a clean stop; kExitUsage for a bad --listen (or role options); kExitFault
// when serving fails. Its log lines go to `streams.err`.
int RunServerCommand(const CommandLine& command_line, const ReportStreams& streams);

}  // namespace tickbench::harness

#endif  // HARNESS_COMMANDS_SERVER_COMMAND_H_
