// Reports of the timer-resolution study: a table with a plain-words line per clock and
// size, CSV (one row per clock x size) and JSON.
#ifndef HARNESS_REPORT_STUDY_REPORT_H_
#define HARNESS_REPORT_STUDY_REPORT_H_

#include <string>
#include <vector>

#include "harness/context/run_context.h"
#include "harness/report/sweep_report.h"
#include "harness/study/study_cell.h"

namespace tickbench::harness {

std::string FormatStudyTable(const std::vector<StudyCell>& cells,
                             TableWidth width = TableWidth::kNarrow);
std::string FormatStudyCsv(const std::vector<StudyCell>& cells);
std::string FormatStudyJson(const RunContext& context, const std::vector<StudyCell>& cells);

}  // namespace tickbench::harness

#endif  // HARNESS_REPORT_STUDY_REPORT_H_
