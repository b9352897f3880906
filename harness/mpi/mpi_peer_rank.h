// `--transport=mpi` under `mpirun -np 2`: every rank runs the same command line, rank 0
// measures and rank 1 is its echo peer. This is where rank 1 goes its own way.
#ifndef HARNESS_MPI_MPI_PEER_RANK_H_
#define HARNESS_MPI_MPI_PEER_RANK_H_

#include <optional>

#include "absl/time/time.h"
#include "harness/cli/plan.h"

namespace tickbench::harness {

// How long the echo peer rank waits for rank 0's next message (a control frame or a
// round trip) before it gives up: rank 0 sends its first frame after probing its clocks
// (seconds), and the rest within a round trip's time of each other.
inline constexpr absl::Duration kMpiPeerIdleTimeout = absl::Seconds(120);

// std::nullopt when this process measures: the plan's transport is not mpi, or this is
// rank 0 of two. Otherwise the exit code of this process's part, after it ran it: the
// echo peer's (kExitOk when rank 0 said quit, kExitFault on an error) on rank 1;
// kExitUsage, with the message on stderr, in a world of another size than 2 or a build
// without MPI.
std::optional<int> RunAsMpiPeerRank(const Plan& plan);

}  // namespace tickbench::harness

#endif  // HARNESS_MPI_MPI_PEER_RANK_H_
