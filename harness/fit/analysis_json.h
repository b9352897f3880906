// --analyze --format=json: the file's sweep and its steps as one JSON object.
#ifndef HARNESS_FIT_ANALYSIS_JSON_H_
#define HARNESS_FIT_ANALYSIS_JSON_H_

#include <string>

#include "analysis/sweep.h"
#include "harness/fit/sweep_analysis.h"

namespace tickbench::harness {

// Provenance (mode "analyze"), then "file" (as shown), "value_column", "unit", "points"
// ([{size_bytes, values, mean}]), "steps" ([{size_before, size_after, kind ("jump" or
// "slope_change"), direction ("up" or "down"), magnitude, jump, jump_stderr, found_by
// ("detector", or "layout" for a step the winning layout implies)}]; "steps_error" says
// why the detector failed, "" when it did not) and "report": the text the
// table format prints, whole. Not promised: the layouts' ranking as separate members
// (it is in "report").
std::string FormatAnalysisJson(const std::string& file, const analysis::Sweep& sweep,
                               const SweepAnalysis& analyzed, const std::string& report);

}  // namespace tickbench::harness

#endif  // HARNESS_FIT_ANALYSIS_JSON_H_
