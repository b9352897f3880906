// What MPI does to a measurement's command line under mpirun, where every rank runs the
// same one: with --transport=mpi rank 0 measures and rank 1 is its echo peer; with
// --experiment=matrix every rank takes part in the matrix (matrix_command.h).
#ifndef HARNESS_MPI_MPI_PEER_RANK_H_
#define HARNESS_MPI_MPI_PEER_RANK_H_

#include <optional>

#include "absl/time/time.h"
#include "harness/cli/command_line.h"
#include "harness/cli/plan.h"
#include "harness/report/reporter.h"

namespace tickbench::harness {

// How long the echo peer rank waits for rank 0's next message (a control frame or a
// round trip) before it gives up: rank 0 sends its first frame after probing its clocks
// (seconds), and the rest within a round trip's time of each other.
inline constexpr absl::Duration kMpiPeerIdleTimeout = absl::Seconds(120);

// std::nullopt when this process measures as any other transport would: the plan is not
// the matrix and its transport is not mpi, or this is rank 0 of two. Otherwise the exit
// code of this process's part, after it ran it: the matrix's on every rank; the echo
// peer's on rank 1 (kExitOk when rank 0 said quit, kExitFault on an error); kExitUsage,
// with the message on stderr, in a world of another size than 2 or a build without MPI.
// `command_line` gives the matrix's page its flags.
std::optional<int> RunMpiPart(const Plan& plan, const CommandLine& command_line,
                              const ReportStreams& streams);

}  // namespace tickbench::harness

#endif  // HARNESS_MPI_MPI_PEER_RANK_H_
