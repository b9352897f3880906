#include "harness/commands/clock_info_command.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/context/clock_report.h"
#include "harness/context/run_context.h"
#include "harness/output/command_status.h"
#include "timing/clocks/clock_probe.h"
#include "timing/clocks/clock_spec.h"

namespace tickbench::harness {

int RunClockInfoCommand(const CommandLine& command_line, const ReportStreams& streams) {
  const std::string& which = command_line.clock_info;
  absl::StatusOr<OutputFormat> format = ParseModeFormat("clock_info", command_line.format);
  if (!format.ok()) return Usage(format.status());
  std::vector<timing::ClockSpec> specs;
  if (which == "all") {
    specs = timing::AvailableClockSpecs();
  } else {
    absl::StatusOr<std::vector<timing::ClockSpec>> parsed = timing::ParseClockSpecList(which);
    if (!parsed.ok()) {
      return Usage(absl::InvalidArgumentError(
          absl::StrCat("--clock_info: ", parsed.status().message(), " (or all)")));
    }
    specs = *parsed;
  }
  timing::ClockEnvironment environment;
  environment.allow_variable_cycle_counter = command_line.allow_variable_cycle_counter;
  std::vector<ClockDescription> described;
  for (const timing::ClockSpec& spec : specs) {
    if (int stopped = ExitIfStopped("while probing the clocks"); stopped >= 0) return stopped;
    absl::StatusOr<std::unique_ptr<timing::Clock>> clock = timing::MakeClock(spec, environment);
    if (!clock.ok()) {
      if (which == "all") continue;  // listed by --list_clocks as unavailable
      return Usage(WithFlag("clock_info", clock.status()));
    }
    described.push_back(ClockDescription{"", (*clock)->info(), timing::ProbeClock(**clock)});
  }
  if (int stopped = ExitIfStopped("while probing the clocks"); stopped >= 0) return stopped;
  streams.out(*format == OutputFormat::kJson ? FormatClockInfoJson(described)
                                             : FormatClockInfo(described));
  return kExitOk;
}

}  // namespace tickbench::harness
