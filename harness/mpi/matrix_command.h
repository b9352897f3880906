// --experiment=matrix under `mpirun -np N`: every ordered pair of ranks measured in turn,
// the others waiting, into an N x N matrix (matrix_report.h).
//
// How. Rank 0 leads: for each pair (c, s), c != s, it tells s to run the echo peer for c
// and c to measure s (or does either itself), then waits for c's cell. The measuring rank
// runs the sweep of every transport (RunSweep: warm-up, runs, the same loop, stamps and
// fault rules) over the mpi transport towards s, or over UDP or TCP between their hosts
// with MPI only carrying the addresses (transport/mpi/rank_sockets.h), one size, and
// sends its cell to rank 0.
// Ranks that wait poll for their next order every 200 us (MPI_Irecv and MPI_Test, then a
// sleep), so that a waiting rank leaves the CPUs to the pair measured.
//
// Bounded. Every wait is: a pair's cell must reach rank 0 within kPairBudget plus 1 ms per
// round trip of the pair, else the pair is reported timed out, the matrix so far is
// written, and rank 0 aborts the job (MPI_Abort): exit 1 from mpirun, nothing left
// waiting. A rank that dies makes mpirun end the others (SIGTERM): rank 0 then writes the
// matrix so far and ends as a stopped run does (128 + the signal). The echo peer's
// receives wait at most kPairBudget. A stop request (SIGINT, SIGTERM) ends every wait.
#ifndef HARNESS_MPI_MATRIX_COMMAND_H_
#define HARNESS_MPI_MATRIX_COMMAND_H_

#include "absl/time/time.h"
#include "harness/cli/command_line.h"
#include "harness/cli/plan.h"
#include "harness/cli/presets.h"
#include "harness/report/reporter.h"

namespace tickbench::harness {

inline constexpr absl::Duration kPairBudget = absl::Seconds(60);

// This rank's part of the matrix; on rank 0 the matrix's table, CSV or JSON on `streams`
// and in --output, and with --report its page (matrix_page.h; the context rank 0's, with
// `command_line`'s flags), both rewritten after every pair as the matrix so far. kExitOk
// when every pair was measured; kExitFault when one was not (the others are still
// reported) or a file could not be written (it is then left as it was); kExitUsage for a
// world of one rank, a transport other than mpi, udp or tcp, or more than one size; 128 +
// the signal after a stop.
int RunMatrixCommand(const Plan& plan, const CommandLine& command_line,
                     const ReportStreams& streams);

}  // namespace tickbench::harness

#endif  // HARNESS_MPI_MATRIX_COMMAND_H_
