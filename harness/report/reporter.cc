#include "harness/report/reporter.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/report/csv_reporter.h"
#include "harness/report/json_reporter.h"
#include "harness/report/table_reporter.h"

namespace tickbench::harness {

ReportStreams StandardStreams() {
  ReportStreams streams;
  streams.out = [](absl::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  };
  streams.err = [](absl::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
  };
  return streams;
}

std::string FormatContextHeader(const RunContext& context, const ExperimentHeader& header) {
  return absl::StrFormat(
      "%s# experiment %s over %s%s%s: %s x %s x %s\n", FormatContextComment(context),
      header.experiment, header.transport, header.simulated ? " (simulated, virtual time)" : "",
      header.busy_poll ? " (busy-poll receives)" : "", Counted(header.sizes, "size"),
      Counted(header.runs, "run"), Counted(header.iterations, "round trip"));
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
