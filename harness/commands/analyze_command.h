// --analyze=FILE: the steps of a sweep read from a CSV (and with --explain the buffer
// layout that explains it), as text on `streams.out`; with --plot, drawn.
#ifndef HARNESS_COMMANDS_ANALYZE_COMMAND_H_
#define HARNESS_COMMANDS_ANALYZE_COMMAND_H_

#include "harness/cli/command_line.h"
#include "harness/report/reporter.h"

namespace tickbench::harness {

// Reads command_line.analyze, .analyze_column, .explain and .plot. kExitUsage for a
// file that cannot be read or parsed, a bad column or plot target (checked before the
// work); 128 + signal when stopped; else kExitOk (a plot that fails is only reported).
int RunAnalyzeCommand(const CommandLine& command_line, const ReportStreams& streams);

}  // namespace tickbench::harness

#endif  // HARNESS_COMMANDS_ANALYZE_COMMAND_H_
