// The least an MPI round trip can cost: n bytes each way between two ranks of an MPI job,
// the MPI calls a ping-pong needs and nothing else. It is the reference tickbench's
// --transport=mpi is held to (bench/mpi_compare.sh, docs/overhead.md).
//
//   mpirun -np 2 mpi_bare_loop --size=N [--iterations=20000] [--warmup=1000] [--busy_poll]
//
// A round trip, rank 0: MPI_Send of n bytes, then their echo received; rank 1: the
// receive, then MPI_Send of the n bytes back. All as MPI_BYTE on MPI_COMM_WORLD, one tag.
// Receiving is MPI_Recv (mode "blocking"), or with --busy_poll MPI_Irecv then MPI_Test
// until it completes, on both ranks, as tickbench's --busy_poll receives. Nothing else is
// called per round trip: no status is kept (MPI_STATUS_IGNORE), no count, no timeout.
// Both ranks take the count of round trips from the flags, so no control message is sent.
// Its buffers start a page, as tickbench's do (transport/io/message_buffer.h).
//
// Rank 0 reads CLOCK_MONOTONIC (vDSO, no system call) once per round trip, as tickbench
// does with --batch=1, after --warmup untimed round trips, and prints the bare loops' line
// (bench/loop_line.h) with transport "mpi":
//   mpi size mode iterations median_us mean_us p90_us p99_us
// Exit code 0; 1 with a message on standard error when an MPI call fails; 2 for a bad flag
// (naming it) or a world of other than two ranks. A bad flag is said once, by rank 0.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_format.h"
#include "bench/loop_line.h"
#include "platform/monotonic.h"
#include "transport/io/message_buffer.h"

ABSL_FLAG(int64_t, size, 1, "Bytes each way per round trip (1..65536)");
ABSL_FLAG(int64_t, iterations, 20000, "Timed round trips");
ABSL_FLAG(int64_t, warmup, 1000, "Untimed round trips before the timed ones");
ABSL_FLAG(bool, busy_poll, false, "Receive by MPI_Irecv and spinning MPI_Test (both ranks)");

namespace {

constexpr char kUsage[] =
    "The least an MPI round trip can cost: n bytes each way between ranks 0 and 1 of\n"
    "mpirun -np 2, MPI_Send and MPI_Recv (or MPI_Irecv and MPI_Test) and nothing else.\n"
    "Prints one line:\n"
    "  mpi size mode iterations median_us mean_us p90_us p99_us\n"
    "  mpirun -np 2 mpi_bare_loop [--size=1] [--iterations=20000] [--warmup=1000] "
    "[--busy_poll]";

constexpr int kTag = 0;

// Whether this process speaks for the job: rank 0 by Open MPI's environment, or a process
// started alone. Read before MPI starts, so that a bad flag is said once.
bool Speaks() {
  const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
  return rank == nullptr || std::string(rank) == "0";
}

[[noreturn]] void Usage(const std::string& what) {
  if (Speaks()) std::fprintf(stderr, "mpi_bare_loop: %s\n", what.c_str());
  std::exit(2);
}

[[noreturn]] void Die(const char* call, int error) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(error, text, &length);
  std::fprintf(stderr, "mpi_bare_loop: %s: %.*s\n", call, length, text);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

void Check(const char* call, int error) {
  if (error != MPI_SUCCESS) Die(call, error);
}

// One rank's calls: n bytes to and from `peer`.
class Rank {
 public:
  Rank(int peer, int n, bool busy_poll) : peer_(peer), n_(n), busy_poll_(busy_poll) {}

  void Send(const char* data) {
    Check("MPI_Send", MPI_Send(data, n_, MPI_BYTE, peer_, kTag, MPI_COMM_WORLD));
  }

  void Receive(char* data) {
    if (!busy_poll_) {
      Check("MPI_Recv",
            MPI_Recv(data, n_, MPI_BYTE, peer_, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      return;
    }
    MPI_Request request;
    Check("MPI_Irecv", MPI_Irecv(data, n_, MPI_BYTE, peer_, kTag, MPI_COMM_WORLD, &request));
    int done = 0;
    while (!done) Check("MPI_Test", MPI_Test(&request, &done, MPI_STATUS_IGNORE));
  }

 private:
  int peer_;
  int n_;
  bool busy_poll_;
};

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(kUsage);
  absl::ParseCommandLine(argc, argv);
  const int64_t size = absl::GetFlag(FLAGS_size);
  const int64_t iterations = absl::GetFlag(FLAGS_iterations);
  const int64_t warmup = absl::GetFlag(FLAGS_warmup);
  const bool busy_poll = absl::GetFlag(FLAGS_busy_poll);
  if (size < 1 || size > 65536) Usage(absl::StrFormat("--size=%d: allowed 1..65536", size));
  if (iterations < 1 || iterations > 100'000'000) {
    Usage(absl::StrFormat("--iterations=%d: allowed 1..100000000", iterations));
  }
  if (warmup < 0 || warmup > 100'000'000) {
    Usage(absl::StrFormat("--warmup=%d: allowed 0..100000000", warmup));
  }

  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks != 2) {
    if (rank == 0) {
      std::fprintf(stderr, "mpi_bare_loop: runs between two ranks (mpirun -np 2), not %d\n", ranks);
    }
    MPI_Finalize();
    return 2;
  }

  const int n = static_cast<int>(size);
  Rank io(1 - rank, n, busy_poll);
  tickbench::transport::MessageBuffer message(n), echo(n);  // page-aligned, as tickbench's
  if (rank == 1) {
    for (int64_t i = 0; i < warmup + iterations; ++i) {
      io.Receive(echo.data());
      io.Send(echo.data());
    }
    MPI_Finalize();
    return 0;
  }

  for (int64_t i = 0; i < n; ++i) message.data()[i] = 'x';
  std::vector<int64_t> marks(static_cast<size_t>(iterations) + 1);
  for (int64_t i = 0; i < warmup; ++i) {
    io.Send(message.data());
    io.Receive(echo.data());
  }
  marks[0] = tickbench::platform::MonotonicNanos();
  for (int64_t i = 0; i < iterations; ++i) {
    io.Send(message.data());
    io.Receive(echo.data());
    marks[static_cast<size_t>(i) + 1] = tickbench::platform::MonotonicNanos();
  }
  std::printf("%s\n", tickbench::bench::LoopLine("mpi", size, busy_poll, marks).c_str());
  MPI_Finalize();
  return 0;
}
