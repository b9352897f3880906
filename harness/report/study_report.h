// Reports of the timer-resolution study: a table with a plain-words line per clock and
// size, CSV (one row per clock x size) and JSON.
#ifndef HARNESS_REPORT_STUDY_REPORT_H_
#define HARNESS_REPORT_STUDY_REPORT_H_

#include <string>
#include <utility>
#include <vector>

#include "harness/context/run_context.h"
#include "harness/report/sweep_report.h"
#include "harness/study/study_cell.h"

namespace tickbench::harness {

std::string FormatStudyTable(const std::vector<StudyCell>& cells,
                             TableWidth width = TableWidth::kNarrow);

// The narrow table's cells, for a page that lays them out itself (an HTML table): the
// column groups with how many columns each spans, the column names (one time unit for the
// whole table, named in them), one row per cell in the order of `cells`, each row's clock
// heading, and the legend below the table.
struct StudyTableCells {
  std::vector<std::pair<std::string, int>> groups;
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> headings;  // per row: the clock's heading line
  std::string legend;
};
StudyTableCells FormatStudyTableCells(const std::vector<StudyCell>& cells);
std::string FormatStudyCsv(const std::vector<StudyCell>& cells);
std::string FormatStudyJson(const RunContext& context, const std::vector<StudyCell>& cells);

}  // namespace tickbench::harness

#endif  // HARNESS_REPORT_STUDY_REPORT_H_
