// A build without MPI: --transport=mpi is refused before anything is made.
#include "absl/status/status.h"
#include "harness/mpi/mpi_peer_rank.h"
#include "harness/output/command_status.h"
#include "transport/mpi/mpi_transport.h"

namespace tickbench::harness {

std::optional<int> RunAsMpiPeerRank(const Plan& plan) {
  if (plan.transport != transport::kMpiName) return std::nullopt;
  return Usage(absl::InvalidArgumentError(
      "--transport=mpi needs a build with Open MPI: bazel build --config=mpi //harness (after "
      "tools/setup.sh --mpi), then run it under mpirun -np 2"));
}

}  // namespace tickbench::harness
