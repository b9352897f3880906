// The MPI world this process belongs to: MPI started once, on first use, by whichever
// part needs it (the mpi transport, the mpi_wtime clock, the matrix experiment), and
// finished once, at exit. Built only with `--config=mpi` (bazel/mpi.bzl).
//
// Promised:
//   * JoinMpiWorld() calls MPI_Init_thread (MPI_THREAD_SINGLE) the first time, and is a
//     no-op after; under mpirun the process is one rank of the job, run alone it is a world
//     of one (MPI's singleton start). MPI is called from the thread that joined only, and
//     no other thread of the harness calls it: at any level above MPI_THREAD_SINGLE
//     (MPI_THREAD_FUNNELED included) Open MPI locks a mutex in every send and progress
//     call, which cost a shared-memory round trip a tenth of a microsecond
//     (docs/overhead.md, MPI).
//   * Errors on MPI_COMM_WORLD are returned (MPI_ERRORS_RETURN), never MPI's default of
//     aborting the job: every MPI call here ends in a Status.
//   * At exit (std::atexit), MPI_Finalize, unless LeaveMpiWorldWithoutFinalize() was
//     called: a rank whose peer died or that was told to stop would wait in
//     MPI_Finalize's closing exchange with ranks that never come. Leaving without it makes
//     mpirun end the job, which is what such a rank wants.
// Not promised:
//   * Threads: only the thread that joined may call MPI.
#ifndef PLATFORM_MPI_MPI_WORLD_H_
#define PLATFORM_MPI_MPI_WORLD_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace tickbench::platform {

struct MpiWorld {
  int rank = 0;
  int size = 1;
  std::string host;     // MPI_Get_processor_name: this rank's host
  std::string library;  // MPI_Get_library_version's first line: "Open MPI v4.1.4, ..."
};

// Starts MPI on first use; the world as MPI sees it. FailedPrecondition when MPI cannot
// start (its message says why).
absl::StatusOr<MpiWorld> JoinMpiWorld();

// True once JoinMpiWorld() succeeded.
bool InMpiWorld();

// At exit, skip MPI_Finalize (see above).
void LeaveMpiWorldWithoutFinalize();

// One message of `bytes` from `source` with `tag` into `data`, MPI_Irecv then MPI_Test
// every `poll` (sleeping in between, so that a waiting rank leaves the CPUs to others).
// DeadlineExceeded past `timeout` (absl::InfiniteDuration(): none); Cancelled on a stop
// request (platform/stop_signal.h). The receive is cancelled (MPI_Cancel) either way.
absl::Status MpiPollReceive(void* data, int bytes, int source, int tag, absl::Duration timeout,
                            absl::Duration poll = absl::Microseconds(200));

// An MPI return code as a Status: OK for MPI_SUCCESS, else `code` (Unavailable by default:
// a peer gone or a link down is what a failed call means here) with "WHAT: MPI's error
// string".
absl::Status MpiStatus(int mpi_error, absl::string_view what,
                       absl::StatusCode code = absl::StatusCode::kUnavailable);

}  // namespace tickbench::platform

#endif  // PLATFORM_MPI_MPI_WORLD_H_
