#include "harness/list_clocks_command.h"

#include "harness/clock_report.h"
#include "harness/command_status.h"
#include "timing/clock_spec.h"

namespace tickbench::harness {

int RunListClocksCommand(const CommandLine&, const ReportStreams& streams) {
  timing::ClockEnvironment environment;
  environment.allow_variable_cycle_counter = true;
  streams.out(FormatClockList(timing::AvailableClockSpecs(), environment));
  return kExitOk;
}

}  // namespace tickbench::harness
