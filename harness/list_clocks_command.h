// --list_clocks: the clocks this machine offers, one line each, on `streams.out`.
#ifndef HARNESS_LIST_CLOCKS_COMMAND_H_
#define HARNESS_LIST_CLOCKS_COMMAND_H_

#include "harness/cli_options.h"
#include "harness/reporter.h"

namespace tickbench::harness {

// Always kExitOk: a clock this machine lacks is listed as unavailable, with why.
int RunListClocksCommand(const CommandLine& command_line, const ReportStreams& streams);

}  // namespace tickbench::harness

#endif  // HARNESS_LIST_CLOCKS_COMMAND_H_
