#include "harness/commands/experiment.h"

#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/cli/flag_settings.h"
#include "harness/output/command_status.h"
#include "harness/output/output_file.h"
#include "platform/stop_signal.h"
#include "remote/remote_transport.h"
#include "timing/clocks/clock_spec.h"
#include "transport/registry/transport_factory.h"
#include "transport/sim/sim_transport.h"

namespace tickbench::harness {
namespace {

// The transport of a measurement: simulated, this host's, or with --role=client the
// server's at --peer.
absl::Status MakeExperimentTransport(const remote::RoleOptions& role, Experiment& e) {
  if (e.plan.simulate && role.role != remote::Role::kClient) {
    e.transport = std::make_unique<transport::SimTransport>(
        e.plan.sim_model, [&e](int64_t ns) { e.simulated_time.AdvanceNanos(ns); },
        e.plan.sim_faults);
    e.plan.environment.simulated_time = &e.simulated_time;
    return absl::OkStatus();
  }
  absl::StatusOr<std::unique_ptr<transport::Transport>> made =
      role.role != remote::Role::kClient
          ? transport::MakeTransport(e.plan.transport, e.plan.transport_options)
          : remote::MakeRemoteTransport(e.plan.transport, role.peer, e.plan.sweep.sizes);
  if (!made.ok()) return made.status();
  e.transport = std::move(*made);
  return absl::OkStatus();
}

// The reference and the timing clocks, made and probed.
absl::Status MakeExperimentClocks(Experiment& e) {
  if (e.plan.has_reference) {
    absl::StatusOr<std::unique_ptr<timing::Clock>> made =
        timing::MakeClock(e.plan.reference, e.plan.environment);
    if (!made.ok()) return WithFlag("reference_clock", made.status());
    e.reference = std::move(*made);
  }
  const std::vector<timing::ClockSpec> specs =
      e.plan.study ? e.plan.study_clocks : std::vector<timing::ClockSpec>{e.plan.clock};
  for (const timing::ClockSpec& spec : specs) {
    absl::StatusOr<std::unique_ptr<timing::Clock>> made =
        timing::MakeClock(spec, e.plan.environment);
    if (!made.ok()) return WithFlag(e.plan.study ? "clocks" : "clock", made.status());
    e.described.push_back(DescribeClock(**made, "clock", e.plan.simulate));
    e.clocks.push_back(std::move(*made));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status PrepareExperiment(const CommandLine& command_line, const remote::RoleOptions& role,
                               Experiment& e) {
  if (absl::Status s = MakeExperimentTransport(role, e); !s.ok()) return s;
  if (absl::Status s = MakeExperimentClocks(e); !s.ok()) return s;
  std::vector<ClockDescription> context_clocks = e.described;
  if (e.reference) {
    context_clocks.push_back(DescribeClock(*e.reference, "reference", e.plan.simulate));
  }
  e.context = MakeRunContext(std::move(context_clocks), command_line.given_values);
  e.context.settings = SettingsInForce(command_line, e.plan);
  if (role.role == remote::Role::kClient) e.context.peer = role.peer.ToString();
  const SweepOptions& sweep = e.plan.sweep;
  if (!e.plan.simulate) {
    const ReceiveKind kind = e.transport->keeps_boundaries() ? ReceiveKind::kDatagramSocket
                             : e.transport->name() == "pipe" ? ReceiveKind::kPipe
                                                             : ReceiveKind::kStreamSocket;
    e.context.loop = ReceiveBoundText(kind, sweep.peer.busy_poll, sweep.receive_timeout,
                                      sweep.engine.auto_receive_timeout);
  }
  if (std::optional<std::string> warning =
          BusyPollWarning(sweep.peer.busy_poll, e.transport->needs_local_peer(),
                          sweep.pin_client_cpu, sweep.pin_peer_cpu, e.context.system.cpu_count)) {
    e.context.warnings.push_back(*std::move(warning));
  }
  if (std::optional<std::string> warning = BlockingOnVirtualMachineWarning(
          sweep.peer.busy_poll, e.plan.simulate, e.context.system.virtual_machine)) {
    e.context.warnings.push_back(*std::move(warning));
  }
  return absl::OkStatus();
}

ExperimentHeader HeaderOf(const Experiment& e) {
  ExperimentHeader header;
  header.experiment = e.plan.preset.name;
  header.transport = std::string(e.transport->name());
  header.simulated = e.plan.simulate;
  header.busy_poll = e.plan.sweep.peer.busy_poll;
  header.sizes = e.plan.sweep.sizes.size();
  header.runs = e.plan.sweep.runs;
  header.iterations = e.plan.sweep.engine.iterations;
  header.runs_added = !e.plan.study && e.plan.precision > 0;
  header.iterations_chosen = e.plan.study && e.plan.study_options.choose.on;
  return header;
}

int FinishMeasurement(const Plan& plan, Reporter& reporter, const absl::Status& status,
                      size_t measured) {
  const std::string results = reporter.Finalize();
  int exit_code = kExitOk;
  if (!plan.output_path.empty()) {
    if (absl::Status s = WriteFileAtomically(plan.output_path, results); !s.ok()) {
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
    absl::FPrintF(
        stderr, "tickbench: %s%s\n",
        absl::IsDataLoss(status) ? "" : "the measurement ended early: ", status.message());
    return kExitFault;
  }
  return exit_code;
}

}  // namespace tickbench::harness
