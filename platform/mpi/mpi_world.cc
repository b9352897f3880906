#include "platform/mpi/mpi_world.h"

#include <mpi.h>
#include <time.h>

#include <cstdlib>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "platform/monotonic.h"
#include "platform/stop_signal.h"

namespace tickbench::platform {
namespace {

bool g_joined = false;
bool g_skip_finalize = false;

void FinalizeAtExit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!g_skip_finalize && !finalized) MPI_Finalize();
}

}  // namespace

absl::Status MpiStatus(int mpi_error, absl::string_view what, absl::StatusCode code) {
  if (mpi_error == MPI_SUCCESS) return absl::OkStatus();
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(mpi_error, text, &length) != MPI_SUCCESS) length = 0;
  return absl::Status(code, absl::StrCat(what, ": ", absl::string_view(text, length)));
}

absl::StatusOr<MpiWorld> JoinMpiWorld() {
  if (!g_joined) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      int provided = 0;
      const int started = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SINGLE, &provided);
      if (started != MPI_SUCCESS) {
        return MpiStatus(started, "MPI_Init_thread", absl::StatusCode::kFailedPrecondition);
      }
      std::atexit(FinalizeAtExit);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    g_joined = true;
  }
  MpiWorld world;
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world.size);
  char name[MPI_MAX_PROCESSOR_NAME];
  int length = 0;
  if (MPI_Get_processor_name(name, &length) == MPI_SUCCESS) world.host.assign(name, length);
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  if (MPI_Get_library_version(version, &length) == MPI_SUCCESS) {
    // The length Open MPI reports counts the terminating NUL.
    const absl::string_view text(version, strnlen(version, length));
    world.library =
        std::string(absl::StripTrailingAsciiWhitespace(text.substr(0, text.find_first_of("\n\r"))));
  }
  return world;
}

absl::Status MpiPollReceive(void* data, int bytes, int source, int tag, absl::Duration timeout,
                            absl::Duration poll) {
  MPI_Request request;
  const int posted = MPI_Irecv(data, bytes, MPI_BYTE, source, tag, MPI_COMM_WORLD, &request);
  if (posted != MPI_SUCCESS) return MpiStatus(posted, "MPI_Irecv");
  const int64_t deadline_ns = timeout == absl::InfiniteDuration()
                                  ? INT64_MAX
                                  : MonotonicNanos() + absl::ToInt64Nanoseconds(timeout);
  const timespec nap = absl::ToTimespec(poll);
  while (true) {
    int done = 0;
    MPI_Status status;
    const int tested = MPI_Test(&request, &done, &status);
    if (tested != MPI_SUCCESS) return MpiStatus(tested, "MPI_Test");
    if (done) return absl::OkStatus();
    const bool stop = StopRequested();
    if (stop || MonotonicNanos() >= deadline_ns) {
      MPI_Cancel(&request);
      MPI_Wait(&request, &status);
      int cancelled = 0;
      MPI_Test_cancelled(&status, &cancelled);
      if (!cancelled) return absl::OkStatus();  // it came as the cancel was asked
      if (stop) return CancelledIfStopRequested(absl::StrCat("waiting for rank ", source));
      return absl::DeadlineExceededError(
          absl::StrFormat("no word from rank %d within %s", source, absl::FormatDuration(timeout)));
    }
    nanosleep(&nap, nullptr);
  }
}

bool InMpiWorld() { return g_joined; }

void LeaveMpiWorldWithoutFinalize() { g_skip_finalize = true; }

}  // namespace tickbench::platform
