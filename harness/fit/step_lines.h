// --analyze's lines for the steps of a sweep: those the segmented regression found and
// those the best layout implies, each jump at the digits its values allow
// (timing::FigureDecimals: never finer than their printed resolution or quantum).
#ifndef HARNESS_FIT_STEP_LINES_H_
#define HARNESS_FIT_STEP_LINES_H_

#include <string>

#include "analysis/sweep.h"
#include "harness/fit/sweep_analysis.h"

namespace tickbench::harness {

// " ns" after a figure, or " (no unit)" for a column without one.
std::string UnitSuffix(const std::string& unit);

// The steps the segmented regression found, one line each, with the system sizes near them.
void AppendDetectedSteps(const analysis::Sweep& sweep, const SweepAnalysis& result,
                         std::string& text);

// The steps the best layout implies, the first 20 of them.
void AppendImpliedSteps(const analysis::Sweep& sweep, const SweepAnalysis& result,
                        std::string& text);

}  // namespace tickbench::harness

#endif  // HARNESS_FIT_STEP_LINES_H_
