#include "harness/table_reporter.h"

#include "absl/strings/str_cat.h"
#include "harness/study_report.h"

namespace tickbench::harness {

void TableReporter::ReportContext(const RunContext& context, const ExperimentHeader& header) {
  streams().out(FormatContextHeader(context, header));
}

void TableReporter::ReportRuns(const std::vector<RunRecord>& records, TableStyle style) {
  absl::StrAppend(&results(), FormatTable(records, style));
}

void TableReporter::ReportCells(const std::vector<StudyCell>& cells) {
  absl::StrAppend(&results(), FormatStudyTable(cells));
}

void TableReporter::ReportAnalysis(absl::string_view text) { absl::StrAppend(&results(), text); }

}  // namespace tickbench::harness
