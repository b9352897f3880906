// "mpi": the round trip as MPI point-to-point messages between two ranks of an MPI job
// (Open MPI, built with `--config=mpi`), as the MPI ping-pongs (OSU osu_latency, NetPIPE's
// NPmpi, Intel MPI Benchmarks' PingPong) make it. The peer is another rank, not a
// forked process: under `mpirun -np 2`, rank 0 measures and rank 1 runs the echo peer
// (RunMpiEchoPeer) on its endpoint towards rank 0.
//
// Sending is MPI_Send of the message as MPI_BYTE. Receiving, by mode:
//   * no receive timeout and no busy polling (--receive_timeout=none on the measuring
//     rank; the bare ping-pong): one MPI_Recv, the call the established ping-pongs make;
//   * a receive timeout (every timeout the harness sets, and the echo peer rank's idle
//     timeout): MPI_Recv cannot be bounded or interrupted, so the receive is a
//     nonblocking one, tested (MPI_Test) until it completes. Its request is persistent
//     (MPI_Recv_init), made at the first receive into a buffer (the last two buffers'
//     are kept) and started (MPI_Start) for each message into it, so that no request is taken from
//     Open MPI's free list and returned per message, as MPI_Irecv and a completing MPI_Test would
//     (about 130 instructions a receive, by callgrind). A receive that fails takes its request with
//     it (Open MPI frees it); the next one makes a new one. Open MPI's MPI_Recv spins in
//     its progress engine; so does this loop, which for its first 4096 empty tests does
//     nothing else but count them and, every 64th, look at the clock and the stop flag.
//     Past them (a wait far longer than a round trip over shared memory) it also calls
//     sched_yield() every 64 empty tests, so that a rank that waits long on a shared CPU
//     lets the rank it waits for run. Past the timeout (or on a stop) it cancels the
//     receive (MPI_Cancel, then MPI_Wait for the cancel): DeadlineExceeded (Cancelled).
//     What this costs against a bare MPI_Send/MPI_Recv loop is measured in
//     docs/overhead.md;
//   * busy polling (--busy_poll): the same persistent request and MPI_Test loop, never
//     yielding.
// So a silent or stopped peer rank ends a receive within its timeout plus 64 tests, and a
// stop request within 64 tests, whatever MPI does.
//
// Messages keep their boundaries and MPI does not lose them: in the contract's terms
// (it keeps message boundaries and loses nothing: keeps_boundaries() true,
// may_lose() false; a missing echo is an error, not a loss). A message of another length is
// DataLoss: a longer one is refused by MPI (MPI_ERR_TRUNCATE, the message consumed), a
// shorter one by the count received (read from Open MPI's status, where MPI_Get_count would
// cost a call and its argument checks on the round trip's path); either way the next
// message is received whole (tests/mpi/mpi_endpoint_test).
//
// Not promised: the peer being on another host (mpirun places ranks); that the library
// makes no system call per round trip (Open MPI's shared-memory path makes none, its TCP
// path does); that a blocking receive never yields within a round trip (on a CPU shared
// with the peer rank, one may take more than 4096 tests).
#ifndef TRANSPORT_MPI_MPI_TRANSPORT_H_
#define TRANSPORT_MPI_MPI_TRANSPORT_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "transport/echo/echo_peer.h"
#include "transport/io/endpoint_checks.h"
#include "transport/transport.h"

namespace tickbench::transport {

inline constexpr char kMpiName[] = "mpi";
inline constexpr size_t kMpiMaxMessageBytes = kMaxStreamMessageBytes;
// The empty tests a blocking bounded receive makes before it starts to yield (see above).
inline constexpr int64_t kMpiTestsBeforeYield = 4096;

// One end, talking to `peer_rank` of MPI_COMM_WORLD. `final`, so that the measurement
// loop specialised on it calls Send() and Receive() directly.
class MpiEndpoint final : public Endpoint {
 public:
  explicit MpiEndpoint(int peer_rank);
  ~MpiEndpoint() override;  // frees the persistent request, if MPI is still up
  MpiEndpoint(const MpiEndpoint&) = delete;
  MpiEndpoint& operator=(const MpiEndpoint&) = delete;

  absl::Status Send(absl::Span<const char> message) override;
  absl::Status Receive(absl::Span<char> buffer) override;
  absl::Status EchoMessages(absl::Span<char> buffer, uint32_t count, EchoCount& done) override {
    return EchoMessagesOf(*this, buffer, count, done);
  }
  absl::Status SetReceiveTimeout(absl::Duration timeout) override;
  absl::Status SetBusyPoll(bool on) override {
    busy_poll_ = on;
    return absl::OkStatus();
  }
  bool keeps_boundaries() const override { return true; }
  bool may_lose() const override { return false; }
  size_t max_message_size() const override { return kMpiMaxMessageBytes; }

  int peer_rank() const { return peer_rank_; }

 private:
  // The persistent receive request of one buffer (mpi_transport.cc).
  struct PersistentReceive;

  // The request of `buffer`, made on its first receive and kept, with the one of the
  // buffer received into before it: an endpoint that alternates between two buffers (the
  // echo peer's control frames and messages) makes and frees none per message, and the
  // measurement loop allocates nothing. Null when MPI_Recv_init failed (`error` set).
  PersistentReceive* RequestFor(absl::Span<char> buffer, int& error);

  // The bounded receive: the persistent request of `buffer` started, then MPI_Test until
  // done, a timeout or a stop.
  absl::Status ReceiveTesting(absl::Span<char> buffer);

  int peer_rank_;
  // The receive timeout in nanoseconds, converted once (SpinDeadline::TimeoutNanoseconds);
  // the largest int64_t (SpinDeadline::kNever) for none.
  int64_t timeout_ns_ = std::numeric_limits<int64_t>::max();
  bool busy_poll_ = false;
  // The last buffer's request first, then the one before (RequestFor).
  std::unique_ptr<PersistentReceive> receives_[2];
};

// The transport: Connect() joins the MPI world and returns a client endpoint towards
// `peer_rank` (no server end: needs_local_peer() is false, the peer is a rank).
// Connect() is FailedPrecondition in a build without MPI, in a world of one rank, or when
// the peer rank is this rank or not in the world.
class MpiTransport final : public Transport {
 public:
  explicit MpiTransport(int peer_rank) : peer_rank_(peer_rank) {}
  absl::string_view name() const override { return kMpiName; }
  size_t max_message_size() const override { return kMpiMaxMessageBytes; }
  bool keeps_boundaries() const override { return true; }
  bool may_lose() const override { return false; }
  bool needs_local_peer() const override { return false; }
  absl::StatusOr<EndpointPair> Connect() override;

 private:
  int peer_rank_;
};

// The mpi transport towards rank 1, as `--transport=mpi` makes it on rank 0.
inline absl::StatusOr<std::unique_ptr<Transport>> MakeMpiTransport(int peer_rank = 1) {
  return std::unique_ptr<Transport>(std::make_unique<MpiTransport>(peer_rank));
}

// True when this build has MPI (`--config=mpi`).
bool MpiBuilt();

// The echo peer (echo_peer.h) on this rank, for the client at `client_rank`, until its
// kQuit; with options.busy_poll it receives by busy polling, as the client does. Each
// receive waits at most `idle_timeout` (DeadlineExceeded: the client is gone or stuck),
// so it is MPI_Irecv and MPI_Test (see above), never an unbounded MPI_Recv.
absl::Status RunMpiEchoPeer(int client_rank, const EchoPeerOptions& options,
                            absl::Duration idle_timeout);

}  // namespace tickbench::transport

#endif  // TRANSPORT_MPI_MPI_TRANSPORT_H_
