// --list_clocks and --clock_info: the instrument describes its clocks.
#ifndef HARNESS_CONTEXT_CLOCK_REPORT_H_
#define HARNESS_CONTEXT_CLOCK_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/context/run_context.h"
#include "harness/output/output_format.h"
#include "timing/clocks/clock_spec.h"

namespace tickbench::harness {

// One line per clock: its spec (what --clock takes) and what it is.
std::string FormatClockList(const std::vector<timing::ClockSpec>& specs,
                            const timing::ClockEnvironment& environment);

// For each clock: claimed resolution, observed resolution, read cost, backward steps.
std::string FormatClockInfo(const std::vector<ClockDescription>& clocks);

// The same as one JSON object (provenance, then "clocks": [{spec, available, name,
// unavailable_reason}]).
std::string FormatClockListJson(const std::vector<timing::ClockSpec>& specs,
                                const timing::ClockEnvironment& environment);

// The same as one JSON object (provenance, then "clocks": [{spec, name, ticks_per_second,
// claimed_resolution_ns, observed_resolution_ns, read_cost_ns, backward_steps, notes}]).
std::string FormatClockInfoJson(const std::vector<ClockDescription>& clocks);

// --format for a mode that reports no measurement (--list_clocks, --clock_info, --analyze;
// `mode_flag` names it): table or json; InvalidArgument naming --format otherwise.
absl::StatusOr<OutputFormat> ParseModeFormat(absl::string_view mode_flag, absl::string_view format);

}  // namespace tickbench::harness

#endif  // HARNESS_CONTEXT_CLOCK_REPORT_H_
