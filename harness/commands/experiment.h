// A measurement's parts, made before anything is measured: the plan, the transport, the
// clocks (probed), the context; and how a measurement ends (results printed and written,
// the exit code).
#ifndef HARNESS_COMMANDS_EXPERIMENT_H_
#define HARNESS_COMMANDS_EXPERIMENT_H_

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "harness/cli/plan.h"
#include "harness/context/run_context.h"
#include "harness/report/reporter.h"
#include "remote/role_options.h"
#include "timing/clock.h"
#include "timing/clocks/virtual_clock.h"
#include "transport/transport.h"

namespace tickbench::harness {

// It stays where it is made: the simulated transport and clocks hold &simulated_time.
struct Experiment {
  Plan plan;
  // In a simulation every clock reads this virtual time, which only the simulated
  // transport (and the study's pauses) move.
  timing::VirtualClock simulated_time;
  std::unique_ptr<transport::Transport> transport;
  std::unique_ptr<timing::Clock> reference;            // null with --reference_clock=none
  std::vector<std::unique_ptr<timing::Clock>> clocks;  // the sweep's one, or the study's
  std::vector<ClockDescription> described;             // `clocks`, probed
  RunContext context;
  bool explain = false;  // --explain
  bool quiet = false;    // --quiet: no progress line
};

// Makes the transport (the server's at --peer with --role=client) and the clocks of
// `e.plan`, probes them and fills `e.context` (flags as given, warnings); an error is bad
// input, naming the flag.
absl::Status PrepareExperiment(const CommandLine& command_line, const remote::RoleOptions& role,
                               Experiment& e);

// The "# experiment ..." line's facts.
ExperimentHeader HeaderOf(const Experiment& e);

// Ends a measurement: the reporter's results on stdout and, with --output, in the file
// (written whole). The exit code: 128 + signal after a stop; kExitFault when `status`
// says the measurement ended early or some size got no figure, or the file could not be
// written; else kExitOk. `measured` counts the results, for the message after a stop.
int FinishMeasurement(const Plan& plan, Reporter& reporter, const absl::Status& status,
                      size_t measured);

}  // namespace tickbench::harness

#endif  // HARNESS_COMMANDS_EXPERIMENT_H_
