// A measurement (no mode flag, or --role=client): the plan from the flags, the
// experiment prepared, its context reported, then the sweep or the study.
#ifndef HARNESS_COMMANDS_MEASURE_COMMAND_H_
#define HARNESS_COMMANDS_MEASURE_COMMAND_H_

#include "harness/cli/command_line.h"
#include "harness/report/reporter.h"

namespace tickbench::harness {

// kExitUsage for flags MakePlan refuses or an experiment that cannot be prepared;
// 128 + signal when stopped while preparing; else the sweep's or study's code. The
// stop handlers must be installed before (preparing may take long). Reports in
// --format through MakeReporter on `streams`.
int RunMeasureCommand(const CommandLine& command_line, const ReportStreams& streams);

}  // namespace tickbench::harness

#endif  // HARNESS_COMMANDS_MEASURE_COMMAND_H_
