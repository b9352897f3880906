#include "harness/commands/measure_command.h"

#include <memory>
#include <utility>

#include "harness/cli/plan.h"
#include "harness/commands/experiment.h"
#include "harness/commands/study_command.h"
#include "harness/commands/sweep_command.h"
#include "harness/mpi/mpi_peer_rank.h"
#include "harness/output/command_status.h"
#include "remote/role_options.h"

namespace tickbench::harness {

int RunMeasureCommand(const CommandLine& command_line, const ReportStreams& streams) {
  absl::StatusOr<remote::RoleOptions> role =
      remote::ParseRoleOptions(command_line.role, command_line.listen, command_line.peer);
  if (!role.ok()) return Usage(role.status());
  absl::StatusOr<Plan> plan = MakePlan(command_line);
  if (!plan.ok()) return Usage(plan.status());
  // Under mpirun every rank runs this command line: the matrix, or --transport=mpi's echo.
  if (std::optional<int> exit_code = RunMpiPart(*plan, command_line, streams)) return *exit_code;
  Experiment e;
  e.plan = *std::move(plan);
  e.explain = command_line.explain;
  e.quiet = command_line.quiet;
  if (absl::Status prepared = PrepareExperiment(command_line, *role, e); !prepared.ok()) {
    if (int stopped = ExitIfStopped("while preparing"); stopped >= 0) return stopped;
    return Usage(prepared);
  }
  if (int stopped = ExitIfStopped("while preparing; nothing was measured"); stopped >= 0) {
    return stopped;
  }
  // --output=FILE: the console keeps its table and the file gets --format (as Google
  // Benchmark's --benchmark_out); without it (or with -) the console gets --format.
  const TableWidth width = command_line.wide ? TableWidth::kWide : TableWidth::kNarrow;
  const std::unique_ptr<Reporter> reporter =
      e.plan.output_path.empty()
          ? MakeReporter(e.plan.format, streams, command_line.csv_context, width)
          : MakeConsoleAndFileReporter(e.plan.format, streams, command_line.csv_context, width);
  ExperimentHeader header = HeaderOf(e);
  header.percentiles = e.plan.percentiles;
  reporter->ReportContext(e.context, header);
  return e.plan.study ? RunStudyCommand(e, *reporter) : RunSweepCommand(e, *role, *reporter);
}

}  // namespace tickbench::harness
