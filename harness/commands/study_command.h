// --experiment=study: every clock of --clocks in turn over one echo session, compared
// with the reference.
#ifndef HARNESS_COMMANDS_STUDY_COMMAND_H_
#define HARNESS_COMMANDS_STUDY_COMMAND_H_

#include "harness/commands/experiment.h"
#include "harness/report/reporter.h"

namespace tickbench::harness {

// Runs `e` (prepared, its context reported) and reports its cells to `reporter`; with
// --plot draws their histograms. kExitUsage without a reference or for a CPU that cannot
// be pinned; kExitFault when the echo peer cannot start; else FinishMeasurement's code,
// or kExitFault in place of kExitOk when --plot failed.
int RunStudyCommand(Experiment& e, Reporter& reporter);

}  // namespace tickbench::harness

#endif  // HARNESS_COMMANDS_STUDY_COMMAND_H_
