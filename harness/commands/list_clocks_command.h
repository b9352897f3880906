// --list_clocks: the clocks this machine offers, one line each, on `streams.out`, then the
// board's clocks and transport (core/board_rows.h), each marked board only.
#ifndef HARNESS_COMMANDS_LIST_CLOCKS_COMMAND_H_
#define HARNESS_COMMANDS_LIST_CLOCKS_COMMAND_H_

#include <string>

#include "harness/cli/command_line.h"
#include "harness/report/reporter.h"

namespace tickbench::harness {

// Always kExitOk: a clock this machine lacks is listed as unavailable, with why. The table
// ends with FormatBoardOnlyList(); the JSON lists this machine's clocks only.
int RunListClocksCommand(const CommandLine& command_line, const ReportStreams& streams);

// The board program's clocks and transports, one line each, marked core::kBoardOnly.
std::string FormatBoardOnlyList();

}  // namespace tickbench::harness

#endif  // HARNESS_COMMANDS_LIST_CLOCKS_COMMAND_H_
