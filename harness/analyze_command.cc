#include "harness/analyze_command.h"

#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analysis/csv_sweep_reader.h"
#include "analysis/model_fit.h"
#include "harness/analysis_json.h"
#include "harness/clock_report.h"
#include "harness/command_status.h"
#include "harness/output_file.h"
#include "harness/plot.h"
#include "harness/sweep_analysis.h"

namespace tickbench::harness {
namespace {

// The sweep in the file `resolved` (shown as `shown`), in round-trip time: a throughput
// column is turned into the time it implies, with a line on `streams.out` that says so.
absl::StatusOr<analysis::Sweep> ReadSweep(const std::string& resolved, const std::string& shown,
                                          const std::string& column, const ReportStreams& streams) {
  absl::StatusOr<std::string> text = platform::ReadUserFile(resolved);
  if (!text.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--analyze: cannot read ", shown, ": ", text.status().message()));
  }
  analysis::CsvSweepOptions options;
  options.value_column = column;
  absl::StatusOr<analysis::Sweep> sweep = analysis::ParseSweepCsv(*text, options);
  if (!sweep.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--analyze: ", shown, ": ", sweep.status().message()));
  }
  const bool throughput = absl::StrContains(absl::AsciiStrToLower(sweep->value_name), "throughput");
  if (throughput && sweep->unit != "B/s") {
    // A throughput without a unit could be bytes, bits or kB per second: never assumed.
    return absl::InvalidArgumentError(absl::StrFormat(
        "--analyze: %s: the column %s is a throughput without a unit; name its unit with a "
        "suffix (_bytes_per_s, _kb_per_s, _kib_per_s, _mb_per_s) or choose another column with "
        "--analyze_column",
        shown, absl::CHexEscape(sweep->value_name)));
  }
  if (!throughput && sweep->unit != "B/s") return sweep;
  absl::StatusOr<analysis::Sweep> rtt = analysis::RttFromThroughput(*sweep);
  if (!rtt.ok()) return WithFlag("analyze", rtt.status());
  streams.out(absl::StrFormat(
      "(throughput column %s read as the round-trip time it implies, 2n / throughput)\n",
      absl::CHexEscape(sweep->value_name)));
  return rtt;
}

}  // namespace

int RunAnalyzeCommand(const CommandLine& command_line, const ReportStreams& given_streams) {
  absl::StatusOr<OutputFormat> format = ParseModeFormat("analyze", command_line.format);
  if (!format.ok()) return Usage(format.status());
  // With --format=json the text goes into the JSON's "report", which alone is printed.
  std::string report;
  const bool json = *format == OutputFormat::kJson;
  const ReportStreams streams =
      json ? ReportStreams{[&report](absl::string_view text) { absl::StrAppend(&report, text); },
                           given_streams.err}
           : given_streams;
  const std::string resolved = ResolveUserPath(command_line.analyze);
  const std::string shown = absl::CHexEscape(resolved);
  std::string plot_path;
  if (!command_line.plot.empty()) {  // checked before the work, as a measurement's targets are
    absl::StatusOr<std::string> checked = CheckPlotTarget(command_line.plot);
    if (!checked.ok()) return Usage(checked.status());
    plot_path = *checked;
  }
  absl::StatusOr<analysis::Sweep> sweep =
      ReadSweep(resolved, shown, command_line.analyze_column, streams);
  if (!sweep.ok()) {
    if (int stopped = ExitIfStopped("while reading --analyze's file"); stopped >= 0) {
      return stopped;
    }
    return Usage(sweep.status());
  }
  streams.out(absl::StrFormat("%s: %d sizes, %s\n", shown, sweep->points.size(),
                              absl::CHexEscape(sweep->value_name)));
  // The file's machine is not known to be this one: none of this host's sizes is offered
  // as a cause (the report says so).
  const analysis::SizeFacts facts;
  const SweepAnalysis analyzed = AnalyzeSweep(*sweep, facts, command_line.explain);
  streams.out(FormatSweepAnalysis(*sweep, facts, analyzed));
  if (command_line.fit_sim) {
    absl::StatusOr<SimulationFit> fit = analyzed.fits.ok()
                                            ? FitSimulation(*sweep, *analyzed.fits)
                                            : absl::StatusOr<SimulationFit>(analyzed.fits.status());
    if (!fit.ok()) return Usage(WithFlag("fit_sim", fit.status()));
    streams.out(FormatSimulationFit(*fit));
  }
  if (!plot_path.empty()) {
    if (absl::Status s = PlotSweep(plot_path, *sweep,
                                   // Only steps the report lists as found are drawn.
                                   analyzed.steps.ok() && analyzed.steps_established
                                       ? analyzed.steps->steps
                                       : std::vector<analysis::Step>{},
                                   resolved);
        !s.ok()) {
      absl::FPrintF(stderr, "tickbench: %s\n", WithFlag("plot", s).message());
    }
  }
  if (int stopped = ExitIfStopped("during --analyze"); stopped >= 0) return stopped;
  if (json) given_streams.out(FormatAnalysisJson(shown, *sweep, analyzed, report));
  return kExitOk;
}

}  // namespace tickbench::harness
