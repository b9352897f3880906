#include "harness/report/table_reporter.h"

#include "absl/strings/str_cat.h"
#include "harness/report/study_report.h"

namespace tickbench::harness {

void TableReporter::ReportContext(const RunContext& context, const ExperimentHeader& header) {
  streams().out(FormatContextHeader(context, header));
}

void TableReporter::ReportSizeDone(const std::vector<RunRecord>& records, size_t size_bytes,
                                   TableStyle style) {
  if (printed_.count(size_bytes) > 0) return;
  std::string text;
  if (printed_.empty()) {  // the time unit from the first size, kept for the rest
    std::vector<RunRecord> first;
    for (const RunRecord& r : records)
      if (r.size_bytes == size_bytes) first.push_back(r);
    unit_ = TableTimeUnit(first);
    text = FormatTableHeader(style, width_, unit_);
  }
  text += FormatTableRow(records, size_bytes, style, notes_, width_, unit_, &digits_);
  printed_.insert(size_bytes);
  WriteNow(text);
}

void TableReporter::ReportRuns(const std::vector<RunRecord>& records, TableStyle style) {
  if (printed_.empty()) {
    absl::StrAppend(&results(), FormatTable(records, style, width_));
    return;
  }
  // The sizes not done when the sweep ended (early), then the footer.
  std::set<size_t> sizes;
  for (const RunRecord& r : records) sizes.insert(r.size_bytes);
  for (size_t size : sizes) {
    if (printed_.count(size) == 0) {
      absl::StrAppend(&results(),
                      FormatTableRow(records, size, style, notes_, width_, unit_, &digits_));
    }
  }
  absl::StrAppend(&results(), FormatTableFooter(records, notes_, width_));
}

void TableReporter::ReportCells(const std::vector<StudyCell>& cells) {
  absl::StrAppend(&results(), FormatStudyTable(cells, width_));
}

void TableReporter::ReportAnalysis(absl::string_view text) { absl::StrAppend(&results(), text); }

}  // namespace tickbench::harness
