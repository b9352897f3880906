#include "harness/table_reporter.h"

#include "absl/strings/str_cat.h"
#include "harness/study_report.h"

namespace tickbench::harness {

void TableReporter::ReportContext(const RunContext& context, const ExperimentHeader& header) {
  streams().out(FormatContextHeader(context, header));
}

void TableReporter::ReportSizeDone(const std::vector<RunRecord>& records, size_t size_bytes,
                                   TableStyle style) {
  if (printed_.count(size_bytes) > 0) return;
  std::string text = printed_.empty() ? FormatTableHeader(style) : "";
  text += FormatTableRow(records, size_bytes, style, notes_);
  printed_.insert(size_bytes);
  WriteNow(text);
}

void TableReporter::ReportRuns(const std::vector<RunRecord>& records, TableStyle style) {
  if (printed_.empty()) {
    absl::StrAppend(&results(), FormatTable(records, style));
    return;
  }
  // The sizes not done when the sweep ended (early), then the footer.
  std::set<size_t> sizes;
  for (const RunRecord& r : records) sizes.insert(r.size_bytes);
  for (size_t size : sizes) {
    if (printed_.count(size) == 0) {
      absl::StrAppend(&results(), FormatTableRow(records, size, style, notes_));
    }
  }
  absl::StrAppend(&results(), FormatTableFooter(records, notes_));
}

void TableReporter::ReportCells(const std::vector<StudyCell>& cells) {
  absl::StrAppend(&results(), FormatStudyTable(cells));
}

void TableReporter::ReportAnalysis(absl::string_view text) { absl::StrAppend(&results(), text); }

}  // namespace tickbench::harness
