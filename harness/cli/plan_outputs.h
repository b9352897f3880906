// Where a plan's results go: --format, --output, --plot (with its data file), --report,
// --percentiles and --raw, every target checked before anything is measured.
#ifndef HARNESS_CLI_PLAN_OUTPUTS_H_
#define HARNESS_CLI_PLAN_OUTPUTS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/cli/command_line.h"
#include "harness/cli/plan.h"

namespace tickbench::harness {

// --format, --output, --plot, --report, --percentiles and --raw into `plan`, the targets
// checked; then, MakePlan's last step, the flags that do nothing in this plan refused.
absl::Status ResolveOutputs(const CommandLine& c, Plan& plan);

// --plot's target, resolved, after CheckOutputTarget on it and its data file (PlotDataPath):
// the path to draw to. InvalidArgument naming --plot otherwise ("-" included: a plot is a
// file).
absl::StatusOr<std::string> CheckPlotTarget(absl::string_view plot);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_PLAN_OUTPUTS_H_
