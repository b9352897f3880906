#include "harness/json_reporter.h"

#include "absl/strings/str_cat.h"
#include "harness/study_report.h"

namespace tickbench::harness {

void JsonReporter::ReportContext(const RunContext& context, const ExperimentHeader& header) {
  context_ = context;
  experiment_ = header.experiment;
  streams().err(FormatContextHeader(context, header));
}

void JsonReporter::ReportRuns(const std::vector<RunRecord>& records, TableStyle) {
  absl::StrAppend(&results(), FormatJson(context_, records, experiment_));
}

void JsonReporter::ReportCells(const std::vector<StudyCell>& cells) {
  absl::StrAppend(&results(), FormatStudyJson(context_, cells));
}

void JsonReporter::ReportAnalysis(absl::string_view text) { streams().err(text); }

}  // namespace tickbench::harness
