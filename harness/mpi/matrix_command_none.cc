// A build without MPI has no matrix: RunMpiPart (mpi_peer_rank_none.cc) refuses it first.
#include "harness/mpi/matrix_command.h"
#include "harness/output/command_status.h"

namespace tickbench::harness {

int RunMatrixCommand(const Plan&, const CommandLine&, const ReportStreams&) { return kExitUsage; }

}  // namespace tickbench::harness
