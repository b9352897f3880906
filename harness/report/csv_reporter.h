// --format=csv: a header line and one row per run (sweep) or cell (study) on standard
// output, nothing else there; the context and a sweep's step analysis go to stderr.
#ifndef HARNESS_REPORT_CSV_REPORTER_H_
#define HARNESS_REPORT_CSV_REPORTER_H_

#include "harness/report/reporter.h"

namespace tickbench::harness {

// The context (host, build, clocks, settings) opens the CSV as '#' lines, which
// tickbench's --analyze skips; with `context_in_csv` false it goes to `err` instead.
class CsvReporter : public Reporter {
 public:
  CsvReporter(ReportStreams streams, bool context_in_csv)
      : Reporter(std::move(streams)), context_in_csv_(context_in_csv) {}
  void ReportContext(const RunContext& context, const ExperimentHeader& header) override;
  void ReportRuns(const std::vector<RunRecord>& records, TableStyle style) override;
  void ReportCells(const std::vector<StudyCell>& cells) override;
  void ReportAnalysis(absl::string_view text) override;

 private:
  bool context_in_csv_;
  std::vector<double> percentiles_ = DefaultPercentiles();
};

}  // namespace tickbench::harness

#endif  // HARNESS_REPORT_CSV_REPORTER_H_
