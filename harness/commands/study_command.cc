#include "harness/commands/study_command.h"

#include <unistd.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/engine/echo_session.h"
#include "harness/engine/progress_meter.h"
#include "harness/output/command_status.h"
#include "harness/output/terminal_text.h"
#include "harness/page/gnuplot.h"
#include "harness/page/report_page.h"
#include "harness/page/study_plot.h"
#include "harness/report/reporter.h"
#include "harness/study/study_runner.h"
#include "platform/cpu/cpu_affinity.h"
#include "timing/clocks/os_clocks.h"

namespace tickbench::harness {
namespace {

// Waits on real hardware: a busy-wait, because a sleep would wake on a timer interrupt
// and so lock the next round trip's start to the tick it is meant to randomise against.
void BusyWait(int64_t nanos) {
  const int64_t deadline = timing::MonotonicNanos() + nanos;
  while (timing::MonotonicNanos() < deadline) {
  }
}

StudyOutcome Study(Experiment& e, EchoSession& session) {
  std::vector<StudyClock> study_clocks;
  for (size_t i = 0; i < e.clocks.size(); ++i) {
    study_clocks.push_back({e.clocks[i].get(), e.described[i].probe});
  }
  e.plan.study_options.reference_resolution_ns = absl::ToDoubleNanoseconds(std::max(
      e.context.clocks.back().probe.observed_resolution, e.reference->info().claimed_resolution));
  const PauseFunction pause =
      e.plan.simulate ? PauseFunction([&](int64_t ns) { e.simulated_time.AdvanceNanos(ns); })
                      : PauseFunction(BusyWait);
  return RunStudy(session.client(), study_clocks, *e.reference, e.plan.study_options, pause);
}

}  // namespace

int RunStudyCommand(Experiment& e, Reporter& reporter) {
  if (e.reference == nullptr) {  // MakePlan refuses it; never dereference a missing one
    return Usage(absl::InvalidArgumentError(
        "--reference_clock: the study compares every clock with the reference; "
        "--reference_clock=none is not allowed with --experiment=study"));
  }
  if (e.plan.sweep.pin_client_cpu >= 0) {
    if (absl::Status s = platform::PinCurrentThreadToCpu(e.plan.sweep.pin_client_cpu); !s.ok()) {
      return Usage(absl::InvalidArgumentError(absl::StrCat("--pin: ", s.message())));
    }
  }
  absl::StatusOr<EchoSession> session = EchoSession::Open(
      *e.transport, e.plan.sweep.peer, e.plan.sweep.pin_peer_cpu, e.plan.sweep.receive_timeout);
  if (!session.ok()) {
    absl::FPrintF(stderr, "tickbench: cannot start: %s\n", session.status().message());
    return kExitFault;
  }
  std::optional<ProgressMeter> meter;
  if (!e.quiet) {
    // The study's runs: every clock at every size, --runs each (the line names the size).
    std::vector<size_t> cells;
    for (size_t i = 0; i < e.clocks.size(); ++i) {
      cells.insert(cells.end(), e.plan.study_options.sizes.begin(),
                   e.plan.study_options.sizes.end());
    }
    ProgressMeter::Options options;
    options.terminal = isatty(STDERR_FILENO);
    options.columns = TerminalColumns(STDERR_FILENO);
    meter.emplace(StandardStreams().err, options, cells, e.plan.study_options.runs,
                  StudyRoundTripsPerRun(e.plan.study_options));
    e.plan.study_options.run_done = [&meter] { meter->RunDone(); };
  }
  StudyOutcome outcome = Study(e, *session);
  e.plan.study_options.run_done = nullptr;
  meter.reset();  // the line cleared before the results
  absl::Status closed = session->Close();
  if (outcome.status.ok()) outcome.status = closed;
  reporter.ReportCells(outcome.cells);
  bool plotted = true;
  if (!e.plan.plot_path.empty()) {
    if (absl::Status s = PlotStudyHistograms(e.plan.plot_path, outcome.cells); !s.ok()) {
      absl::FPrintF(stderr, "tickbench: %s\n", PlotFailure(e.plan.plot_path, s));
      plotted = false;
    }
  }
  int exit_code = FinishMeasurement(e.plan, reporter, outcome.status, outcome.cells.size());
  if (!plotted && exit_code == kExitOk) exit_code = kExitFault;  // a failed plot is a fault
  if (e.plan.report_path.empty()) return exit_code;
  return WriteReportPage(
      e.plan.report_path,
      StudyReportPage(
          e.context, HeaderOf(e), outcome.cells,
          RenderReportPlot("the study: each clock's per-iteration readings at each size",
                           StudyHistogramJob(outcome.cells))),
      exit_code);
}

}  // namespace tickbench::harness
