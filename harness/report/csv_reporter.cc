#include "harness/report/csv_reporter.h"

#include "absl/strings/str_cat.h"
#include "harness/report/study_report.h"

namespace tickbench::harness {

void CsvReporter::ReportContext(const RunContext& context, const ExperimentHeader& header) {
  percentiles_ = header.percentiles;
  if (!context_in_csv_) {
    streams().err(FormatContextHeader(context, header));
    return;
  }
  absl::StrAppend(&results(), FormatContextHeader(context, header),
                  FormatSettingsComment(context.settings));
}

void CsvReporter::ReportRuns(const std::vector<RunRecord>& records, TableStyle) {
  absl::StrAppend(&results(), FormatCsv(records, percentiles_));
}

void CsvReporter::ReportCells(const std::vector<StudyCell>& cells) {
  absl::StrAppend(&results(), FormatStudyCsv(cells));
}

void CsvReporter::ReportAnalysis(absl::string_view text) { streams().err(text); }

}  // namespace tickbench::harness
