#include "harness/report/json_reporter.h"

#include "absl/strings/str_cat.h"
#include "harness/report/study_report.h"

namespace tickbench::harness {

void JsonReporter::ReportContext(const RunContext& context, const ExperimentHeader& header) {
  context_ = context;
  experiment_ = header.experiment;
  percentiles_ = header.percentiles;
  streams().err(FormatContextHeader(context, header));
}

void JsonReporter::ReportRuns(const std::vector<RunRecord>& records, TableStyle) {
  // The measurement has ended: its load, beside the one read at its start.
  if (context_.load_average_start) context_.load_average_end = LoadAverageNow();
  absl::StrAppend(&results(), FormatJson(context_, records, experiment_, percentiles_));
}

void JsonReporter::ReportCells(const std::vector<StudyCell>& cells) {
  // The measurement has ended: its load, beside the one read at its start.
  if (context_.load_average_start) context_.load_average_end = LoadAverageNow();
  absl::StrAppend(&results(), FormatStudyJson(context_, cells));
}

void JsonReporter::ReportAnalysis(absl::string_view text) { streams().err(text); }

}  // namespace tickbench::harness
