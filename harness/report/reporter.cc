#include "harness/report/reporter.h"

#include <cerrno>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/output/command_status.h"
#include "harness/report/csv_reporter.h"
#include "harness/report/json_reporter.h"
#include "harness/report/table_reporter.h"

namespace tickbench::harness {

namespace {

// Writes `text` to `stream` (file descriptor `fd`) and flushes it; a failure is recorded
// for ExitAfterStandardStreams (harness/output/command_status.h).
void WriteChecked(std::FILE* stream, int fd, absl::string_view text) {
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), stream) != text.size() || std::fflush(stream) != 0) {
    NoteStandardStreamError(fd, errno);
  }
}

}  // namespace

ReportStreams StandardStreams() {
  ReportStreams streams;
  streams.out = [](absl::string_view text) { WriteChecked(stdout, 1, text); };
  streams.err = [](absl::string_view text) { WriteChecked(stderr, 2, text); };
  return streams;
}

std::string FormatContextHeader(const RunContext& context, const ExperimentHeader& header) {
  return absl::StrFormat(
      "%s# experiment %s over %s%s%s: %s x %s x %s\n", FormatContextComment(context),
      header.experiment, header.transport, header.simulated ? " (simulated, virtual time)" : "",
      header.busy_poll ? " (busy-poll receives)" : "", Counted(header.sizes, "size"),
      header.runs_added ? absl::StrFormat("%d+ runs (more until precise)", header.runs)
                        : Counted(header.runs, "run"),
      header.iterations_chosen
          ? absl::StrFormat("N round trips chosen per cell (at least %d)", header.iterations)
          : Counted(header.iterations, "round trip"));
}

void Reporter::WriteNow(absl::string_view text) {
  results_.append(text.data(), text.size());
  streams_.out(absl::string_view(results_).substr(written_));
  written_ = results_.size();
}

std::string Reporter::Finalize() {
  streams_.out(absl::string_view(results_).substr(written_));
  written_ = results_.size();
  return results_;
}

namespace {

// Every report to the console's table and to the file's reporter; Finalize writes the
// table and returns the file's results.
class ConsoleAndFileReporter final : public Reporter {
 public:
  ConsoleAndFileReporter(std::unique_ptr<Reporter> console, std::unique_ptr<Reporter> file)
      : Reporter(ReportStreams{[](absl::string_view) {}, [](absl::string_view) {}}),
        console_(std::move(console)),
        file_(std::move(file)) {}
  void ReportContext(const RunContext& context, const ExperimentHeader& header) override {
    console_->ReportContext(context, header);
    file_->ReportContext(context, header);
  }
  void ReportRuns(const std::vector<RunRecord>& records, TableStyle style) override {
    console_->ReportRuns(records, style);
    file_->ReportRuns(records, style);
  }
  void ReportSizeDone(const std::vector<RunRecord>& records, size_t size_bytes,
                      TableStyle style) override {
    console_->ReportSizeDone(records, size_bytes, style);
    file_->ReportSizeDone(records, size_bytes, style);
  }
  void ReportCells(const std::vector<StudyCell>& cells) override {
    console_->ReportCells(cells);
    file_->ReportCells(cells);
  }
  void ReportAnalysis(absl::string_view text) override {
    console_->ReportAnalysis(text);
    file_->ReportAnalysis(text);
  }
  std::string Finalize() override {
    console_->Finalize();
    return file_->Finalize();
  }

 private:
  std::unique_ptr<Reporter> console_, file_;
};

}  // namespace

std::unique_ptr<Reporter> MakeConsoleAndFileReporter(OutputFormat file_format,
                                                     ReportStreams streams, bool csv_context,
                                                     TableWidth width) {
  if (file_format == OutputFormat::kTable) {
    return MakeReporter(OutputFormat::kTable, std::move(streams), csv_context, width);
  }
  const ReportStreams silent{[](absl::string_view) {}, [](absl::string_view) {}};
  return std::make_unique<ConsoleAndFileReporter>(
      MakeReporter(OutputFormat::kTable, std::move(streams), csv_context, width),
      MakeReporter(file_format, silent, csv_context));
}

std::unique_ptr<Reporter> MakeReporter(OutputFormat format, ReportStreams streams, bool csv_context,
                                       TableWidth width) {
  switch (format) {
    case OutputFormat::kTable:
      return std::make_unique<TableReporter>(std::move(streams), width);
    case OutputFormat::kCsv:
      return std::make_unique<CsvReporter>(std::move(streams), csv_context);
    case OutputFormat::kJson:
      return std::make_unique<JsonReporter>(std::move(streams));
  }
  return std::make_unique<TableReporter>(std::move(streams), width);
}

}  // namespace tickbench::harness
