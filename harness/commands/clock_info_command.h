// --clock_info=all|SPECS: each clock probed (claimed and observed resolution, read cost,
// backward steps), a table on `streams.out`.
#ifndef HARNESS_COMMANDS_CLOCK_INFO_COMMAND_H_
#define HARNESS_COMMANDS_CLOCK_INFO_COMMAND_H_

#include "harness/cli/command_line.h"
#include "harness/report/reporter.h"

namespace tickbench::harness {

// kExitUsage for a spec that does not parse or a clock named that cannot be made ('all'
// skips those); 128 + signal when stopped between probes; else kExitOk.
int RunClockInfoCommand(const CommandLine& command_line, const ReportStreams& streams);

}  // namespace tickbench::harness

#endif  // HARNESS_COMMANDS_CLOCK_INFO_COMMAND_H_
