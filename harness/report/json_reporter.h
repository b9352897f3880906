// --format=json: one JSON document on standard output, the context (host, clocks, flags,
// warnings) inside it beside the results; the context as "#" lines and a sweep's step
// analysis go to stderr.
#ifndef HARNESS_REPORT_JSON_REPORTER_H_
#define HARNESS_REPORT_JSON_REPORTER_H_

#include <string>

#include "harness/report/reporter.h"

namespace tickbench::harness {

class JsonReporter : public Reporter {
 public:
  using Reporter::Reporter;
  void ReportContext(const RunContext& context, const ExperimentHeader& header) override;
  void ReportRuns(const std::vector<RunRecord>& records, TableStyle style) override;
  void ReportCells(const std::vector<StudyCell>& cells) override;
  void ReportAnalysis(absl::string_view text) override;

 private:
  RunContext context_;
  std::string experiment_;
  std::vector<double> percentiles_ = DefaultPercentiles();
};

}  // namespace tickbench::harness

#endif  // HARNESS_REPORT_JSON_REPORTER_H_
