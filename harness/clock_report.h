// --list_clocks and --clock_info: the instrument describes its clocks.
#ifndef HARNESS_CLOCK_REPORT_H_
#define HARNESS_CLOCK_REPORT_H_

#include <string>
#include <vector>

#include "harness/run_context.h"
#include "timing/clock_spec.h"

namespace tickbench::harness {

// One line per clock: its spec (what --clock takes) and what it is.
std::string FormatClockList(const std::vector<timing::ClockSpec>& specs,
                            const timing::ClockEnvironment& environment);

// For each clock: claimed resolution, observed resolution, read cost, backward steps.
std::string FormatClockInfo(const std::vector<ClockDescription>& clocks);

}  // namespace tickbench::harness

#endif  // HARNESS_CLOCK_REPORT_H_
