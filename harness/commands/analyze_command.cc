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
#include "harness/page/report_page.h"
#include "harness/page/sweep_plot.h"

namespace tickbench::harness {

namespace {

// Where the analysis ran and the flags that asked for it, for the page's context.
RunContext AnalysisContext(const CommandLine& c) {
  std::vector<std::pair<std::string, std::string>> flags = {{"analyze", c.analyze}};
  if (!c.analyze_column.empty()) flags.push_back({"analyze_column", c.analyze_column});
  if (c.explain) flags.push_back({"explain", "true"});
  if (c.fit_sim) flags.push_back({"fit_sim", "true"});
  if (!c.plot.empty()) flags.push_back({"plot", c.plot});
  flags.push_back({"report", c.report});
  return MakeRunContext({}, std::move(flags));
}

// --report's target, resolved and checked before the work as a measurement's are; "" for
// none.
absl::StatusOr<std::string> ReportTarget(const std::string& report, const std::string& plot_path) {
  if (report.empty()) return std::string();
  const std::string path = ResolveUserPath(report);
  if (absl::Status s = CheckOutputTarget("report", path); !s.ok()) return s;
  if (SameOutputFile(path, plot_path) ||
      (!plot_path.empty() && SameOutputFile(path, PlotDataPath(plot_path)))) {
    return absl::InvalidArgumentError(
        "--report: names the same file as --plot or the plot's data file");
  }
  return path;
}

}  // namespace

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
  const absl::StatusOr<std::string> report_path = ReportTarget(command_line.report, plot_path);
  if (!report_path.ok()) return Usage(report_path.status());
  absl::StatusOr<std::string> text = platform::ReadUserFile(resolved);
  absl::StatusOr<TextAnalysis> done =
      text.ok() ? AnalyzeCsvText(*text, shown, command_line.analyze_column, command_line.explain,
                                 command_line.fit_sim)
                : absl::InvalidArgumentError(absl::StrCat("--analyze: cannot read ", shown, ": ",
                                                          text.status().message()));
  if (!done.ok()) {
    if (int stopped = ExitIfStopped("while reading or analysing --analyze's file"); stopped >= 0) {
      return stopped;
    }
    return Usage(done.status());
  }
  // With --format=json the text goes into the JSON's "report", which alone is printed.
  const bool json = *format == OutputFormat::kJson;
  if (!json) streams.out(done->report);
  if (!done->fit_sim.ok()) return Usage(done->fit_sim);
  // Only steps the report lists as found are drawn, with the winning layout's fit.
  const SweepAnalysis& analyzed = done->analyzed;
  const std::vector<analysis::Step> steps =
      FoundSteps(analyzed.steps, analyzed.steps_established, analyzed.implied_steps);
  SweepPlotExtras extras;
  if (analyzed.explained && analyzed.fits.ok()) SetFit(*analyzed.fits, done->sweep, extras);
  bool plotted = true;  // a plot asked for and not drawn is a failed run (exit 1)
  if (!plot_path.empty()) {
    if (absl::Status s = PlotSweep(plot_path, done->sweep, steps, resolved, extras); !s.ok()) {
      absl::FPrintF(stderr, "tickbench: %s\n", PlotFailure(plot_path, s));
      plotted = false;
    }
  }
  if (int stopped = ExitIfStopped("during --analyze"); stopped >= 0) return stopped;
  if (json) streams.out(FormatAnalysisJson(shown, done->sweep, done->analyzed, done->report));
  int code = plotted ? kExitOk : kExitFault;
  if (!report_path->empty()) {
    code = WriteReportPage(
        *report_path,
        AnalysisReportPage(AnalysisContext(command_line), shown, done->report,
                           RenderReportPlot("the sweep read back, its steps "
                                            "and the winning layout's fit",
                                            SweepPlotJob(done->sweep, steps, resolved, extras))),
        code);
  }
  return code;
}

}  // namespace tickbench::harness
