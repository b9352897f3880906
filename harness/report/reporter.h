// How a measurement reports, modelled on Google Benchmark's BenchmarkReporter: one
// interface, one implementation per --format (table, CSV, JSON), made by MakeReporter,
// the only place that chooses among the formats.
//
// A command calls, in this order: ReportContext once before measuring; during a sweep,
// ReportSizeDone as each size finishes (a table prints its row at once, the header before
// the first; CSV and JSON, whole documents, wait); ReportRuns (a sweep) or ReportCells (a
// study) once with what was measured (a table then prints the rows not yet printed, its
// notes and its footer); ReportAnalysis after
// ReportRuns with the sweep's steps; Finalize once. What is promised: the context goes
// out at once (to `out` beside a table, to `err` beside JSON, which a parser reads whole);
// a CSV opens with it as '#' lines (or with csv_context false it goes to `err`); a JSON
// report's load average at the end is read when the results are reported; the results go
// to `out` only at Finalize (but for a table's rows already printed), which returns them
// all for --output. Not promised: any output for a call out of that order.
#ifndef HARNESS_REPORT_REPORTER_H_
#define HARNESS_REPORT_REPORTER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "harness/context/run_context.h"
#include "harness/engine/run_record.h"
#include "harness/output/output_format.h"
#include "harness/report/readings/run_readings.h"
#include "harness/report/sweep_report.h"
#include "harness/study/study_cell.h"

namespace tickbench::harness {

// Where reports are written: the results stream and the stream for everything else.
struct ReportStreams {
  std::function<void(absl::string_view)> out;
  std::function<void(absl::string_view)> err;
};

// Standard output and standard error, each flushed after every write.
ReportStreams StandardStreams();

// What a measurement runs, for the "# experiment ..." line under the context.
struct ExperimentHeader {
  std::string experiment;  // the preset's name; JSON stores it in the context
  std::string transport;
  bool simulated = false;
  bool busy_poll = false;
  size_t sizes = 0;
  int runs = 0;
  int64_t iterations = 0;
  bool runs_added = false;         // run until known: `runs` is the first rounds (--precision)
  bool iterations_chosen = false;  // the study chooses each cell's N, at least `iterations`
  // --percentiles: pooled over each size's runs in CSV and JSON
  // (harness/report/readings/run_readings.h).
  std::vector<double> percentiles = DefaultPercentiles();
};

// The context as "#" lines followed by "# experiment NAME over TRANSPORT...".
std::string FormatContextHeader(const RunContext& context, const ExperimentHeader& header);

class Reporter {
 public:
  explicit Reporter(ReportStreams streams) : streams_(std::move(streams)) {}
  virtual ~Reporter() = default;
  Reporter(const Reporter&) = delete;
  Reporter& operator=(const Reporter&) = delete;

  // What the measurement runs on and what it runs, before it starts.
  virtual void ReportContext(const RunContext& context, const ExperimentHeader& header) = 0;
  // A sweep's runs; `style` chooses the figure that leads a table.
  virtual void ReportRuns(const std::vector<RunRecord>& records, TableStyle style) = 0;
  // A sweep's size `size_bytes` has had its last run: `records` is everything measured so
  // far. Nothing by default.
  virtual void ReportSizeDone(const std::vector<RunRecord>& records, size_t size_bytes,
                              TableStyle style) {}
  // A study's cells.
  virtual void ReportCells(const std::vector<StudyCell>& cells) = 0;
  // The sweep's step analysis (FormatSweepAnalysis): after a table, or at once to `err`.
  virtual void ReportAnalysis(absl::string_view text) = 0;

  // Writes the results not yet written to `out` and returns them all (what --output
  // writes).
  virtual std::string Finalize();

 protected:
  const ReportStreams& streams() const { return streams_; }
  // The results so far, written at Finalize.
  std::string& results() { return results_; }
  // Appends `text` to the results and writes it to `out` at once (Finalize does not again).
  void WriteNow(absl::string_view text);

 private:
  ReportStreams streams_;
  std::string results_;
  size_t written_ = 0;  // the leading bytes of results_ already written to `out`
};

// `csv_context` (--csv_context): a CSV opens with the context as '#' lines. `width`
// (--wide): how wide a table is.
std::unique_ptr<Reporter> MakeReporter(OutputFormat format, ReportStreams streams,
                                       bool csv_context = true,
                                       TableWidth width = TableWidth::kNarrow);

// --output=FILE, as Google Benchmark's --benchmark_out: the console keeps its table (on
// `streams`, `width` wide), and the file gets `file_format`, which Finalize returns for
// the caller to write; the file's reporter writes nothing to the streams (the console has
// the context and the analysis). A table for the file is the console's own.
std::unique_ptr<Reporter> MakeConsoleAndFileReporter(OutputFormat file_format,
                                                     ReportStreams streams, bool csv_context,
                                                     TableWidth width);

}  // namespace tickbench::harness

#endif  // HARNESS_REPORT_REPORTER_H_
