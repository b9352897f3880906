#include "harness/commands/list_clocks_command.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/board_rows.h"
#include "harness/context/clock_report.h"
#include "harness/output/command_status.h"
#include "timing/clocks/clock_spec.h"

namespace tickbench::harness {

std::string FormatBoardOnlyList() {
  std::string text =
      "On the Cortex-M3 board (bazel run --config=cortex_m3 //harness -- --clock=NAME):\n";
  for (const core::BoardRow& row : core::kBoardClocks) {
    absl::StrAppendFormat(&text, "  %-32s %s: %s\n", row.name, core::kBoardOnly, row.description);
  }
  for (const core::BoardRow& row : core::kBoardTransports) {
    absl::StrAppendFormat(&text, "  %-32s %s: %s\n", absl::StrCat("--transport=", row.name),
                          core::kBoardOnly, row.description);
  }
  return text;
}

int RunListClocksCommand(const CommandLine& command_line, const ReportStreams& streams) {
  absl::StatusOr<OutputFormat> format = ParseModeFormat("list_clocks", command_line.format);
  if (!format.ok()) return Usage(format.status());
  timing::ClockEnvironment environment;
  environment.allow_variable_cycle_counter = true;
  if (*format == OutputFormat::kJson) {
    streams.out(FormatClockListJson(timing::AvailableClockSpecs(), environment));
    return kExitOk;
  }
  streams.out(absl::StrCat(FormatClockList(timing::AvailableClockSpecs(), environment), "\n",
                           FormatBoardOnlyList()));
  return kExitOk;
}

}  // namespace tickbench::harness
