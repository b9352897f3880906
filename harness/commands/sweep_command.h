// A size sweep with one clock (every experiment but the study), then its steps and with
// --explain the buffer layout that explains them.
#ifndef HARNESS_COMMANDS_SWEEP_COMMAND_H_
#define HARNESS_COMMANDS_SWEEP_COMMAND_H_

#include "harness/commands/experiment.h"
#include "harness/report/reporter.h"
#include "remote/role_options.h"

namespace tickbench::harness {

// Runs `e` (prepared, its context reported) and reports the runs and the analysis to
// `reporter`; the exit code is FinishMeasurement's, or kExitFault in place of kExitOk when
// --plot failed. Progress goes to a terminal's stderr.
int RunSweepCommand(Experiment& e, const remote::RoleOptions& role, Reporter& reporter);

}  // namespace tickbench::harness

#endif  // HARNESS_COMMANDS_SWEEP_COMMAND_H_
