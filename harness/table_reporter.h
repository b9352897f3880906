// --format=table: the context and the results on standard output, for people; a sweep's
// step analysis follows its table.
#ifndef HARNESS_TABLE_REPORTER_H_
#define HARNESS_TABLE_REPORTER_H_

#include "harness/reporter.h"

namespace tickbench::harness {

class TableReporter : public Reporter {
 public:
  using Reporter::Reporter;
  void ReportContext(const RunContext& context, const ExperimentHeader& header) override;
  void ReportRuns(const std::vector<RunRecord>& records, TableStyle style) override;
  void ReportCells(const std::vector<StudyCell>& cells) override;
  void ReportAnalysis(absl::string_view text) override;
};

}  // namespace tickbench::harness

#endif  // HARNESS_TABLE_REPORTER_H_
