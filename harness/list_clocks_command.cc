#include "harness/list_clocks_command.h"

#include "harness/clock_report.h"
#include "harness/command_status.h"
#include "timing/clock_spec.h"

namespace tickbench::harness {

int RunListClocksCommand(const CommandLine& command_line, const ReportStreams& streams) {
  absl::StatusOr<OutputFormat> format = ParseModeFormat("list_clocks", command_line.format);
  if (!format.ok()) return Usage(format.status());
  timing::ClockEnvironment environment;
  environment.allow_variable_cycle_counter = true;
  streams.out(*format == OutputFormat::kJson
                  ? FormatClockListJson(timing::AvailableClockSpecs(), environment)
                  : FormatClockList(timing::AvailableClockSpecs(), environment));
  return kExitOk;
}

}  // namespace tickbench::harness
