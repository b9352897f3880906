#include "harness/mpi/mpi_peer_rank.h"

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "harness/mpi/matrix_command.h"
#include "harness/output/command_status.h"
#include "platform/mpi/mpi_world.h"
#include "transport/mpi/mpi_transport.h"

namespace tickbench::harness {

std::optional<int> RunMpiPart(const Plan& plan, const CommandLine& command_line,
                              const ReportStreams& streams) {
  if (plan.preset.name == kMatrixExperiment) {
    return RunMatrixCommand(plan, command_line, streams);
  }
  if (plan.transport != transport::kMpiName) return std::nullopt;
  absl::StatusOr<platform::MpiWorld> world = platform::JoinMpiWorld();
  if (!world.ok()) return Usage(WithFlag("transport", world.status()));
  if (world->size != 2) {
    if (world->rank != 0) return kExitUsage;  // rank 0 says why, once
    return Usage(absl::InvalidArgumentError(absl::StrFormat(
        "--transport=mpi measures between two ranks: start it with mpirun -np 2 (this run has "
        "%d); --experiment=matrix measures every pair of more",
        world->size)));
  }
  if (world->rank == 0) return std::nullopt;
  transport::EchoPeerOptions options = plan.sweep.peer;
  const absl::Status served = transport::RunMpiEchoPeer(0, options, kMpiPeerIdleTimeout);
  if (served.ok()) return kExitOk;
  absl::FPrintF(stderr, "tickbench: rank %d (echo peer): %s\n", world->rank, served.ToString());
  platform::LeaveMpiWorldWithoutFinalize();
  return kExitFault;
}

}  // namespace tickbench::harness
