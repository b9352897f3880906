#include "harness/commands/sweep_command.h"

#include <unistd.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "analysis/models/buffer_models.h"
#include "harness/engine/progress_meter.h"
#include "harness/engine/sweep_runner.h"
#include "harness/fit/sweep_analysis.h"
#include "harness/output/command_status.h"
#include "harness/output/output_file.h"
#include "harness/output/terminal_text.h"
#include "harness/page/gnuplot.h"
#include "harness/page/report_page.h"
#include "harness/page/sweep_plot.h"
#include "harness/report/readings/run_readings.h"
#include "harness/report/size_summary.h"

namespace tickbench::harness {
namespace {

// The steps of the sweep and the sizes of this host that may explain them, reported;
// with --plot, the sweep drawn with its steps (`plotted` false when that failed, said on
// stderr); with --report, the page (else nullopt).
std::optional<ReportPage> AnalyzeAndPlot(const Experiment& e, const remote::RoleOptions& role,
                                         const SweepOutcome& outcome, Reporter& reporter,
                                         bool& plotted) {
  const analysis::Sweep sweep = RttSweepFromRecords(outcome.records);
  const std::string name(e.transport->name());
  const std::string peer_address =
      MtuPeerAddress(name, role.role == remote::Role::kClient ? role.peer.Host() : "");
  const analysis::SizeFacts facts = CollectSizeFacts(name, outcome.socket_buffers, peer_address);
  const SweepAnalysis analyzed = AnalyzeSweep(sweep, facts, e.explain);
  const std::string analysis_text = FormatSweepAnalysis(sweep, facts, analyzed);
  reporter.ReportAnalysis(analysis_text);
  if (e.plan.plot_path.empty() && e.plan.report_path.empty()) return std::nullopt;
  const std::string title =
      absl::StrFormat("%s over %s, %s", e.plan.preset.name, name, e.clocks[0]->info().name);
  SweepPlotExtras extras = SweepPlotExtrasFromRecords(outcome.records);
  if (analyzed.explained && analyzed.fits.ok()) SetFit(*analyzed.fits, sweep, extras);
  // The steps the analysis lists as found, and those the winning layout implies.
  const std::vector<analysis::Step> steps =
      FoundSteps(analyzed.steps, analyzed.steps_established, analyzed.implied_steps);
  if (!e.plan.plot_path.empty()) {
    if (absl::Status s = PlotSweep(e.plan.plot_path, sweep, steps, title, extras); !s.ok()) {
      absl::FPrintF(stderr, "tickbench: %s\n", PlotFailure(e.plan.plot_path, s));
      plotted = false;
    }
  }
  if (e.plan.report_path.empty()) return std::nullopt;
  // The page's first plot is the table's lead figure: throughput where the table leads
  // with it.
  std::vector<ReportPlot> plots;
  if (e.plan.preset.style == TableStyle::kThroughput) {
    const ThroughputPlot throughput = ThroughputPlotFromRecords(outcome.records);
    plots.push_back(
        RenderReportPlot("the sweep: throughput against message size (2n bytes per round trip)",
                         SweepPlotJob(throughput.sweep, {}, title, throughput.extras)));
  }
  plots.push_back(RenderReportPlot("the sweep: round-trip time against message size",
                                   SweepPlotJob(sweep, steps, title, extras)));
  return SweepReportPage(e.context, HeaderOf(e), outcome.records, e.plan.preset.style,
                         analysis_text, std::move(plots));
}

// The sweep's options with run-until-known set from the plan (--precision, --max_time):
// a size is done when its pooled figure is within +-precision, or its runs fall into two
// groups (more runs would not make one figure of them).
SweepOptions WithUntilKnown(const Plan& plan) {
  SweepOptions options = plan.sweep;
  if (!(plan.precision > 0)) return options;
  SweepOptions::UntilKnown until;
  until.max_time = plan.max_time;
  const double target = plan.precision;
  until.judge = [target](const std::vector<const RunRecord*>& runs) -> std::string {
    const SizeSummary s = SummarizeSize(runs);
    if (s.groups.grouped) return kStopGroups;
    if (s.valid_runs > 0 && s.relative_half_width <= target) return kStopPrecise;
    return "";
  };
  options.until_known = std::move(until);
  return options;
}

}  // namespace

int RunSweepCommand(Experiment& e, const remote::RoleOptions& role, Reporter& reporter) {
  std::optional<ProgressMeter> meter;
  if (!e.quiet) {
    ProgressMeter::Options options;
    options.terminal = isatty(STDERR_FILENO);
    options.columns = TerminalColumns(STDERR_FILENO);
    if (e.plan.precision > 0) {
      options.until =
          absl::StrFormat("each size is within ±%g%% or in two groups, at most %s",
                          100 * e.plan.precision, absl::FormatDuration(e.plan.max_time));
    }
    meter.emplace(StandardStreams().err, options, e.plan.sweep.sizes, e.plan.sweep.runs,
                  e.plan.sweep.engine.iterations);
  }
  const SweepOutcome outcome = RunSweep(
      *e.transport, *e.clocks[0], e.reference.get(), WithUntilKnown(e.plan),
      [&](int, int, const RunRecord&) {
        if (meter) meter->RunDone();
      },
      [&](size_t size, const std::vector<RunRecord>& records) {
        if (meter) meter->Clear();  // a row on the terminal, not after the progress line
        reporter.ReportSizeDone(records, size, e.plan.preset.style);
      });
  meter.reset();  // the line cleared before the results
  reporter.ReportRuns(outcome.records, e.plan.preset.style);
  bool plotted = true;
  const std::optional<ReportPage> page = AnalyzeAndPlot(e, role, outcome, reporter, plotted);
  int code = FinishMeasurement(e.plan, reporter, outcome.status, outcome.records.size());
  if (!plotted && code == kExitOk) code = kExitFault;
  if (page) code = WriteReportPage(e.plan.report_path, *page, code);
  if (e.plan.raw_path.empty()) return code;
  // Every reading, after the sweep, whole or not at all (also of a sweep that ended early).
  if (absl::Status s = WriteFileAtomically(e.plan.raw_path, FormatRawCsv(outcome.records));
      !s.ok()) {
    absl::FPrintF(stderr, "tickbench: could not write %s\n", WithFlag("raw", s).message());
    return code == kExitOk ? kExitFault : code;
  }
  return code;
}

}  // namespace tickbench::harness
