#include "harness/commands/analyze_command.h"

#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/cli/plan_outputs.h"
#include "harness/context/clock_report.h"
#include "harness/fit/analysis_json.h"
#include "harness/fit/analyze_text.h"
#include "harness/output/command_status.h"
#include "harness/output/output_file.h"
#include "harness/page/gnuplot.h"
#include "harness/page/sweep_plot.h"

namespace tickbench::harness {

int RunAnalyzeCommand(const CommandLine& command_line, const ReportStreams& streams) {
  absl::StatusOr<OutputFormat> format = ParseModeFormat("analyze", command_line.format);
  if (!format.ok()) return Usage(format.status());
  const std::string resolved = ResolveUserPath(command_line.analyze);
  const std::string shown = absl::CHexEscape(resolved);
  std::string plot_path;
  if (!command_line.plot.empty()) {  // checked before the work, as a measurement's targets are
    absl::StatusOr<std::string> checked = CheckPlotTarget(command_line.plot);
    if (!checked.ok()) return Usage(checked.status());
    plot_path = *checked;
  }
  absl::StatusOr<std::string> text = platform::ReadUserFile(resolved);
  absl::StatusOr<TextAnalysis> done =
      text.ok() ? AnalyzeCsvText(*text, shown, command_line.analyze_column, command_line.explain,
                                 command_line.fit_sim)
                : absl::InvalidArgumentError(absl::StrCat("--analyze: cannot read ", shown, ": ",
                                                          text.status().message()));
  if (!done.ok()) {
    if (int stopped = ExitIfStopped("while reading --analyze's file"); stopped >= 0) {
      return stopped;
    }
    return Usage(done.status());
  }
  // With --format=json the text goes into the JSON's "report", which alone is printed.
  const bool json = *format == OutputFormat::kJson;
  if (!json) streams.out(done->report);
  if (!done->fit_sim.ok()) return Usage(done->fit_sim);
  bool plotted = true;  // a plot asked for and not drawn is a failed run (exit 1)
  if (!plot_path.empty()) {
    const SweepAnalysis& analyzed = done->analyzed;
    if (absl::Status s = PlotSweep(plot_path, done->sweep,
                                   // Only steps the report lists as found are drawn.
                                   analyzed.steps.ok() && analyzed.steps_established
                                       ? analyzed.steps->steps
                                       : std::vector<analysis::Step>{},
                                   resolved);
        !s.ok()) {
      absl::FPrintF(stderr, "tickbench: %s\n", PlotFailure(plot_path, s));
      plotted = false;
    }
  }
  if (int stopped = ExitIfStopped("during --analyze"); stopped >= 0) return stopped;
  if (json) streams.out(FormatAnalysisJson(shown, done->sweep, done->analyzed, done->report));
  return plotted ? kExitOk : kExitFault;
}

}  // namespace tickbench::harness
