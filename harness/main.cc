// tickbench: round-trip time and throughput of IPC and network transports across message
// sizes, timed by a clock of your choice against a fine reference clock.
//
// The only place that reads flags, prints and exits. Exit codes: 0 success; 1 a fault
// during the measurement (what was measured is still printed and written); 2 bad input
// (a flag, a file); 130 / 143 stopped by SIGINT / SIGTERM.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "analysis/csv_sweep_reader.h"
#include "analysis/model_fit.h"
#include "harness/cli_options.h"
#include "harness/clock_report.h"
#include "harness/echo_session.h"
#include "harness/flags.h"
#include "harness/output_file.h"
#include "harness/plot.h"
#include "harness/run_context.h"
#include "harness/study_report.h"
#include "harness/study_runner.h"
#include "harness/sweep_analysis.h"
#include "harness/sweep_report.h"
#include "harness/sweep_runner.h"
#include "platform/cpu_affinity.h"
#include "platform/stop_signal.h"
#include "platform/system_info.h"
#include "remote/echo_server.h"
#include "remote/remote_transport.h"
#include "remote/role_options.h"
#include "remote/termination_signals.h"
#include "timing/clock_spec.h"
#include "timing/os_clocks.h"
#include "timing/virtual_clock.h"
#include "transport/sim_transport.h"
#include "transport/transport_factory.h"

namespace tickbench::harness {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFault = 1;
constexpr int kExitUsage = 2;

int Usage(const absl::Status& status) {
  absl::FPrintF(stderr, "tickbench: %s\n", status.message());
  return kExitUsage;
}

// "--flag: message", unless the message already starts by naming the flag.
absl::Status WithFlag(absl::string_view flag, const absl::Status& status) {
  const std::string prefix = absl::StrCat("--", flag);
  if (absl::StartsWith(status.message(), absl::StrCat(prefix, ":")) ||
      absl::StartsWith(status.message(), absl::StrCat(prefix, " "))) {
    return status;
  }
  return absl::Status(status.code(), absl::StrCat(prefix, ": ", status.message()));
}

// 128 + the signal when SIGINT or SIGTERM asked to stop, after saying so; else -1.
int ExitIfStopped(absl::string_view what) {
  if (!platform::StopRequested()) return -1;
  absl::FPrintF(stderr, "tickbench: stopped by signal %d %s\n", platform::StopSignal(), what);
  return 128 + platform::StopSignal();
}

int ListClocks() {
  timing::ClockEnvironment environment;
  environment.allow_variable_cycle_counter = true;
  absl::PrintF("%s", FormatClockList(timing::AvailableClockSpecs(), environment));
  return kExitOk;
}

int ClockInfo(const std::string& which, bool allow_variable) {
  std::vector<timing::ClockSpec> specs;
  if (which == "all") {
    specs = timing::AvailableClockSpecs();
  } else {
    absl::StatusOr<std::vector<timing::ClockSpec>> parsed = timing::ParseClockSpecList(which);
    if (!parsed.ok()) {
      return Usage(absl::InvalidArgumentError(
          absl::StrCat("--clock_info: ", parsed.status().message(), " (or all)")));
    }
    specs = *parsed;
  }
  timing::ClockEnvironment environment;
  environment.allow_variable_cycle_counter = allow_variable;
  std::vector<ClockDescription> described;
  for (const timing::ClockSpec& spec : specs) {
    if (int stopped = ExitIfStopped("while probing the clocks"); stopped >= 0) return stopped;
    absl::StatusOr<std::unique_ptr<timing::Clock>> clock = timing::MakeClock(spec, environment);
    if (!clock.ok()) {
      if (which == "all") continue;  // listed by --list_clocks as unavailable
      return Usage(WithFlag("clock_info", clock.status()));
    }
    described.push_back(ClockDescription{"", (*clock)->info(), timing::ProbeClock(**clock)});
  }
  if (int stopped = ExitIfStopped("while probing the clocks"); stopped >= 0) return stopped;
  absl::PrintF("%s", FormatClockInfo(described));
  return kExitOk;
}

// --analyze: the steps (and with --explain the buffer layout) of a sweep in a CSV file.
int AnalyzeFile(const std::string& path, const std::string& column, bool explain,
                const std::string& plot) {
  const std::string resolved = ResolveUserPath(path);
  const std::string shown = absl::CHexEscape(resolved);
  std::string plot_path;
  if (!plot.empty()) {  // checked before the work, as a measurement's targets are
    absl::StatusOr<std::string> checked = CheckPlotTarget(plot);
    if (!checked.ok()) return Usage(checked.status());
    plot_path = *checked;
  }
  absl::StatusOr<std::string> text = platform::ReadUserFile(resolved);
  if (!text.ok()) {
    if (int stopped = ExitIfStopped("while reading --analyze's file"); stopped >= 0) return stopped;
    return Usage(absl::InvalidArgumentError(
        absl::StrCat("--analyze: cannot read ", shown, ": ", text.status().message())));
  }
  analysis::CsvSweepOptions options;
  options.value_column = column;
  absl::StatusOr<analysis::Sweep> sweep = analysis::ParseSweepCsv(*text, options);
  if (!sweep.ok()) {
    return Usage(absl::InvalidArgumentError(
        absl::StrCat("--analyze: ", shown, ": ", sweep.status().message())));
  }
  if (absl::StrContains(sweep->value_name, "throughput") || sweep->unit == "B/s") {
    absl::StatusOr<analysis::Sweep> rtt = analysis::RttFromThroughput(*sweep);
    if (!rtt.ok()) return Usage(WithFlag("analyze", rtt.status()));
    absl::PrintF("(throughput column %s read as the round-trip time it implies, 2n / throughput)\n",
                 absl::CHexEscape(sweep->value_name));
    sweep = std::move(rtt);
  }
  absl::PrintF("%s: %d sizes, %s\n", shown, sweep->points.size(),
               absl::CHexEscape(sweep->value_name));
  const analysis::SizeFacts facts = CollectSizeFacts("", std::nullopt, "");
  const SweepAnalysis analyzed = AnalyzeSweep(*sweep, facts, explain);
  absl::PrintF("%s", FormatSweepAnalysis(*sweep, facts, analyzed));
  if (!plot_path.empty()) {
    if (absl::Status s = PlotSweep(
            plot_path, *sweep,
            analyzed.steps.ok() ? analyzed.steps->steps : std::vector<analysis::Step>{}, resolved);
        !s.ok()) {
      absl::FPrintF(stderr, "tickbench: %s\n", WithFlag("plot", s).message());
    }
  }
  if (int stopped = ExitIfStopped("during --analyze"); stopped >= 0) return stopped;
  return kExitOk;
}

// Prints `formatted`, writes it to --output, and turns how the run ended into the exit
// code. What was measured is printed and written in every case.
int Finish(const Plan& plan, const std::string& formatted, const absl::Status& status,
           size_t measured) {
  absl::PrintF("%s", formatted);
  std::fflush(stdout);
  int exit_code = kExitOk;
  if (!plan.output_path.empty()) {
    if (absl::Status s = WriteFileAtomically(plan.output_path, formatted); !s.ok()) {
      absl::FPrintF(stderr, "tickbench: could not write %s\n", WithFlag("output", s).message());
      exit_code = kExitFault;
    }
  }
  if (platform::StopRequested()) {
    absl::FPrintF(stderr, "tickbench: stopped by signal %d after %d results; those are above%s\n",
                  platform::StopSignal(), measured, plan.output_path.empty() ? "" : " and written");
    return 128 + platform::StopSignal();
  }
  if (!status.ok()) {
    // DataLoss: the sweep ran to its end, but some size got no figure (RunSweep).
    absl::FPrintF(stderr, "tickbench: %s%s\n",
                  absl::IsDataLoss(status) ? "" : "the measurement ended early: ",
                  status.message());
    return kExitFault;
  }
  return exit_code;
}

// Waits on real hardware: a busy-wait, because a sleep would wake on a timer interrupt
// and so lock the next round trip's start to the tick it is meant to randomise against.
void BusyWait(int64_t nanos) {
  const int64_t deadline = timing::MonotonicNanos() + nanos;
  while (timing::MonotonicNanos() < deadline) {
  }
}

// --role=server: echoes for clients on other hosts until SIGINT or SIGTERM arrives
// (polled as a signalfd, no handler); 0 after that clean stop.
int RunServer(const remote::RoleOptions& role) {
  absl::StatusOr<transport::UniqueFd> stop = remote::BlockTerminationSignals();
  if (!stop.ok()) {
    absl::FPrintF(stderr, "tickbench server: %s\n", stop.status().message());
    return kExitFault;
  }
  remote::ServerOptions options;
  options.listen = role.listen;
  options.data_port = role.data_port;
  options.log = [](absl::string_view line) { absl::FPrintF(stderr, "tickbench server: %s\n", line); };
  absl::StatusOr<std::unique_ptr<remote::EchoServer>> server = remote::EchoServer::Listen(options);
  if (!server.ok()) return Usage(WithFlag("listen", server.status()));
  absl::FPrintF(stderr, "tickbench server: listening on %s, data port %s; SIGINT or SIGTERM stops\n",
                (*server)->address().ToString(),
                role.data_port == 0 ? "chosen per session" : absl::StrCat(role.data_port));
  if (absl::Status served = (*server)->Serve(stop->get()); !served.ok()) {
    absl::FPrintF(stderr, "tickbench server: %s\n", served.message());
    return kExitFault;
  }
  absl::FPrintF(stderr, "tickbench server: stopped\n");
  return kExitOk;
}

// The transport of a sweep: this host's, or with --role=client the server's at --peer.
absl::StatusOr<std::unique_ptr<transport::Transport>> MakeSweepTransport(const Plan& plan,
                                                                         const remote::RoleOptions& role) {
  if (role.role != remote::Role::kClient) return transport::MakeTransport(plan.transport);
  return remote::MakeRemoteTransport(plan.transport, role.peer, plan.sweep.sizes);
}

// Everything an experiment measures with, made before anything is measured. It stays
// where it is made: the simulated transport and clocks hold &simulated_time.
struct Experiment {
  Plan plan;
  // In a simulation every clock reads this virtual time, which only the simulated
  // transport (and the study's pauses) move.
  timing::VirtualClock simulated_time;
  std::unique_ptr<transport::Transport> transport;
  std::unique_ptr<timing::Clock> reference;           // null with --reference_clock=none
  std::vector<std::unique_ptr<timing::Clock>> clocks;  // the sweep's one, or the study's
  std::vector<ClockDescription> described;             // `clocks`, probed
  RunContext context;
  bool explain = false;  // --explain
};

// Makes the transport and the clocks of `e.plan` and probes them; an error is bad input.
absl::Status PrepareExperiment(const CommandLine& command_line, const remote::RoleOptions& role,
                               Experiment& e) {
  if (e.plan.simulate && role.role != remote::Role::kClient) {
    e.transport = std::make_unique<transport::SimTransport>(
        e.plan.sim_model, [&e](int64_t ns) { e.simulated_time.AdvanceNanos(ns); },
        e.plan.sim_faults);
    e.plan.environment.simulated_time = &e.simulated_time;
  } else {
    absl::StatusOr<std::unique_ptr<transport::Transport>> made = MakeSweepTransport(e.plan, role);
    if (!made.ok()) return made.status();
    e.transport = std::move(*made);
  }
  if (e.plan.has_reference) {
    absl::StatusOr<std::unique_ptr<timing::Clock>> made =
        timing::MakeClock(e.plan.reference, e.plan.environment);
    if (!made.ok()) {
      return WithFlag("reference_clock", made.status());
    }
    e.reference = std::move(*made);
  }
  const std::vector<timing::ClockSpec> specs =
      e.plan.study ? e.plan.study_clocks : std::vector<timing::ClockSpec>{e.plan.clock};
  for (const timing::ClockSpec& spec : specs) {
    absl::StatusOr<std::unique_ptr<timing::Clock>> made = timing::MakeClock(spec, e.plan.environment);
    if (!made.ok()) {
      return WithFlag(e.plan.study ? "clocks" : "clock", made.status());
    }
    e.described.push_back(DescribeClock(**made, "clock", e.plan.simulate));
    e.clocks.push_back(std::move(*made));
  }
  std::vector<ClockDescription> context_clocks = e.described;
  if (e.reference) context_clocks.push_back(DescribeClock(*e.reference, "reference", e.plan.simulate));
  e.context = MakeRunContext(std::move(context_clocks), command_line.given_values);
  if (std::optional<std::string> warning =
          BusyPollWarning(e.plan.sweep.peer.busy_poll, e.transport->needs_local_peer(),
                          e.plan.sweep.pin_client_cpu, e.plan.sweep.pin_peer_cpu,
                          e.context.system.cpu_count)) {
    e.context.warnings.push_back(*std::move(warning));
  }
  if (std::optional<std::string> warning = BlockingOnVirtualMachineWarning(
          e.plan.sweep.peer.busy_poll, e.plan.simulate, e.context.system.virtual_machine)) {
    e.context.warnings.push_back(*std::move(warning));
  }
  return absl::OkStatus();
}

// --experiment=study: every clock in turn over one echo session.
int RunStudyExperiment(Experiment& e) {
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
  std::vector<StudyClock> study_clocks;
  for (size_t i = 0; i < e.clocks.size(); ++i) study_clocks.push_back({e.clocks[i].get(), e.described[i].probe});
  e.plan.study_options.reference_resolution_ns =
      absl::ToDoubleNanoseconds(std::max(e.context.clocks.back().probe.observed_resolution,
                                         e.reference->info().claimed_resolution));
  const PauseFunction pause = e.plan.simulate
                                  ? PauseFunction([&](int64_t ns) { e.simulated_time.AdvanceNanos(ns); })
                                  : PauseFunction(BusyWait);
  StudyOutcome outcome = RunStudy(session->client(), study_clocks, *e.reference, e.plan.study_options, pause);
  absl::Status closed = session->Close();
  if (outcome.status.ok()) outcome.status = closed;
  std::string formatted;
  switch (e.plan.format) {
    case OutputFormat::kTable: formatted = FormatStudyTable(outcome.cells); break;
    case OutputFormat::kCsv: formatted = FormatStudyCsv(outcome.cells); break;
    case OutputFormat::kJson: formatted = FormatStudyJson(e.context, outcome.cells); break;
  }
  if (!e.plan.plot_path.empty()) {
    if (absl::Status s = PlotStudyHistograms(e.plan.plot_path, outcome.cells); !s.ok()) {
      absl::FPrintF(stderr, "tickbench: %s\n", WithFlag("plot", s).message());
    }
  }
  return Finish(e.plan, formatted, outcome.status, outcome.cells.size());
}

// A size sweep with one clock, then its steps (and with --explain the buffer layouts).
int RunSweepExperiment(Experiment& e, const remote::RoleOptions& role) {
  const bool show_progress = isatty(STDERR_FILENO);
  const SweepOutcome outcome = RunSweep(
      *e.transport, *e.clocks[0], e.reference.get(), e.plan.sweep,
      [&](int done, int total, const RunRecord& last) {
        if (show_progress) {
          absl::FPrintF(stderr, "\r  run %d, %d bytes: %d of %d measured ", last.run, last.size_bytes, done, total);
          if (done == total) absl::FPrintF(stderr, "\r%*s\r", 60, "");
        }
      });
  std::string formatted;
  switch (e.plan.format) {
    case OutputFormat::kTable: formatted = FormatTable(outcome.records, e.plan.preset.style); break;
    case OutputFormat::kCsv: formatted = FormatCsv(outcome.records); break;
    case OutputFormat::kJson: formatted = FormatJson(e.context, outcome.records, e.plan.preset.name); break;
  }
  // The steps follow the table; beside CSV or JSON they go to stderr.
  const analysis::Sweep sweep = RttSweepFromRecords(outcome.records);
  // The path MTU matters to IP transports only; AF_UNIX never touches an interface.
  const absl::string_view name = e.transport->name();
  const bool ip = absl::StartsWith(name, "udp") || absl::StartsWith(name, "tcp");
  // The route measured: to the server with --role=client, else the loopback.
  std::string peer_address;
  if (ip && !e.plan.simulate) {
    peer_address = role.role == remote::Role::kClient ? role.peer.Host()
                   : absl::EndsWith(name, "6")        ? "::1"
                                                      : "127.0.0.1";
  }
  const analysis::SizeFacts facts = CollectSizeFacts(std::string(name), outcome.socket_buffers, peer_address);
  const SweepAnalysis analyzed = AnalyzeSweep(sweep, facts, e.explain);
  const std::string analysis_text = FormatSweepAnalysis(sweep, facts, analyzed);
  if (e.plan.format == OutputFormat::kTable) {
    formatted += analysis_text;
  } else {
    absl::FPrintF(stderr, "%s", analysis_text);
  }
  if (!e.plan.plot_path.empty()) {
    const std::string title = absl::StrFormat("%s over %s, %s", e.plan.preset.name, e.transport->name(),
                                              e.clocks[0]->info().name);
    if (absl::Status s = PlotSweep(
            e.plan.plot_path, sweep,
            analyzed.steps.ok() ? analyzed.steps->steps : std::vector<analysis::Step>{}, title);
        !s.ok()) {
      absl::FPrintF(stderr, "tickbench: %s\n", WithFlag("plot", s).message());
    }
  }
  return Finish(e.plan, formatted, outcome.status, outcome.records.size());
}

// A measurement. The stop handlers are installed by the caller, before anything here
// (the transport, the clock probes) can take long.
int RunExperiment(const CommandLine& command_line, const remote::RoleOptions& role) {
  absl::StatusOr<Plan> plan = MakePlan(command_line);
  if (!plan.ok()) return Usage(plan.status());
  Experiment e;
  e.plan = *std::move(plan);
  e.explain = command_line.explain;
  if (absl::Status prepared = PrepareExperiment(command_line, role, e); !prepared.ok()) {
    if (int stopped = ExitIfStopped("while preparing"); stopped >= 0) return stopped;
    return Usage(prepared);
  }
  if (int stopped = ExitIfStopped("while preparing; nothing was measured"); stopped >= 0) {
    return stopped;
  }
  // The context goes first, to stderr when stdout carries CSV or JSON for a parser.
  std::FILE* context_stream = e.plan.format == OutputFormat::kTable ? stdout : stderr;
  absl::FPrintF(context_stream, "%s# experiment %s over %s%s%s: %d sizes x %d runs x %d round trips\n",
                FormatContextComment(e.context), e.plan.preset.name, e.transport->name(),
                e.plan.simulate ? " (simulated, virtual time)" : "",
                e.plan.sweep.peer.busy_poll ? " (busy-poll receives)" : "", e.plan.sweep.sizes.size(),
                e.plan.sweep.runs, e.plan.sweep.engine.iterations);
  std::fflush(context_stream);
  return e.plan.study ? RunStudyExperiment(e) : RunSweepExperiment(e, role);
}

}  // namespace
}  // namespace tickbench::harness

int main(int argc, char** argv) {
  using namespace tickbench::harness;
  // A peer gone mid-write must be an error status, not a signal that kills the harness
  // before it writes what it measured. Ignoring SIGPIPE up front also lets the pipe
  // transport write without blocking the signal around each write (~0.5 us a write).
  std::signal(SIGPIPE, SIG_IGN);
  const ParsedCommandLine parsed = ParseCommandLine(argc, argv);
  const std::vector<std::string>& positional = parsed.positional;
  if (!positional.empty()) {
    return Usage(absl::InvalidArgumentError(
        absl::StrCat("unexpected argument '", absl::CHexEscape(positional[0]),
                     "'; flags take the form --name=value (see --help)")));
  }
  const CommandLine& command_line = parsed.flags;
  absl::StatusOr<Mode> mode = ChooseMode(command_line);
  if (!mode.ok()) return Usage(mode.status());
  if (*mode == Mode::kListClocks) return ListClocks();
  // The server polls SIGINT and SIGTERM as a signalfd; every other mode records them
  // with the stop handlers, installed before anything that may take long.
  if (*mode != Mode::kServer) {
    if (absl::Status installed = tickbench::platform::InstallStopHandlers(); !installed.ok()) {
      absl::FPrintF(stderr, "tickbench: %s\n", installed.message());
      return 1;
    }
  }
  if (*mode == Mode::kAnalyze) {
    return AnalyzeFile(command_line.analyze, command_line.analyze_column, command_line.explain,
                       command_line.plot);
  }
  if (*mode == Mode::kClockInfo) {
    return ClockInfo(command_line.clock_info, command_line.allow_variable_cycle_counter);
  }
  absl::StatusOr<tickbench::remote::RoleOptions> role = tickbench::remote::ParseRoleOptions(
      command_line.role, command_line.listen, command_line.peer);
  if (!role.ok()) return Usage(role.status());
  if (role->role == tickbench::remote::Role::kServer) return RunServer(*role);
  return RunExperiment(command_line, *role);
}
