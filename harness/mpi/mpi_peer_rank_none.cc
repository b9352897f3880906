// A build without MPI: --transport=mpi and --experiment=matrix are refused before
// anything is made.
#include "absl/status/status.h"
#include "harness/mpi/matrix_command.h"
#include "harness/mpi/mpi_peer_rank.h"
#include "harness/output/command_status.h"
#include "transport/mpi/mpi_transport.h"

namespace tickbench::harness {

std::optional<int> RunMpiPart(const Plan& plan, const CommandLine&, const ReportStreams&) {
  if (plan.preset.name == kMatrixExperiment) {
    return Usage(absl::InvalidArgumentError(
        "--experiment=matrix needs a build with Open MPI: bazel build --config=mpi //harness "
        "(after tools/setup.sh --mpi), then run it under mpirun -np N"));
  }
  if (plan.transport != transport::kMpiName) return std::nullopt;
  return Usage(absl::InvalidArgumentError(
      "--transport=mpi needs a build with Open MPI: bazel build --config=mpi //harness (after "
      "tools/setup.sh --mpi), then run it under mpirun -np 2"));
}

}  // namespace tickbench::harness
