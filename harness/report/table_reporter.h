// --format=table: the context and the results on standard output, for people; a sweep's
// step analysis follows its table.
#ifndef HARNESS_REPORT_TABLE_REPORTER_H_
#define HARNESS_REPORT_TABLE_REPORTER_H_

#include <set>
#include <string>
#include <vector>

#include "harness/report/reporter.h"

namespace tickbench::harness {

class TableReporter : public Reporter {
 public:
  TableReporter(ReportStreams streams, TableWidth width)
      : Reporter(std::move(streams)), width_(width) {}
  void ReportContext(const RunContext& context, const ExperimentHeader& header) override;
  void ReportRuns(const std::vector<RunRecord>& records, TableStyle style) override;
  void ReportCells(const std::vector<StudyCell>& cells) override;
  void ReportAnalysis(absl::string_view text) override;
  // The table's header before the first row, then the size's row, at once.
  void ReportSizeDone(const std::vector<RunRecord>& records, size_t size_bytes,
                      TableStyle style) override;

 private:
  const TableWidth width_;
  TimeUnit unit_ = TimeUnit::kMicros;  // a streamed table's, from its first size
  TableDigits digits_;                 // its columns' decimals, from its first size
  std::set<size_t> printed_;           // sizes whose row is out
  std::string notes_;                  // their notes, for the footer
};

}  // namespace tickbench::harness

#endif  // HARNESS_REPORT_TABLE_REPORTER_H_
