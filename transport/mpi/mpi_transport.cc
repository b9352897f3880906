#include "transport/mpi/mpi_transport.h"

#include <mpi.h>
#include <sched.h>

#include <climits>
#include <memory>
#include <utility>

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"
#include "absl/strings/str_format.h"
#include "platform/mpi/mpi_world.h"
#include "platform/stop_signal.h"
#include "transport/io/spin_deadline.h"

namespace tickbench::transport {
namespace {

// The tag of every message of this transport (control frames and round trips alike), so
// that MPI traffic of other parts (the matrix's coordination) never meets it.
constexpr int kDataTag = 0x7462;  // "tb"

// The bytes an MPI_BYTE receive's `status` says came. Open MPI keeps them in the status
// (`_ucount`), and MPI_Get_count divides them by the type's size after checking its
// arguments: read directly, the check takes a compare where the call took about 70
// instructions on each rank, between a message's arrival and the echo or the next
// reading: 20 ns of a 1 µs round trip (docs/overhead.md). Another MPI is asked.
inline int ReceivedBytes(const MPI_Status& status) {
#if defined(OPEN_MPI)
  return static_cast<int>(status._ucount);
#else
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  return count;
#endif
}

ABSL_ATTRIBUTE_NOINLINE absl::Status WrongLengthError(int count, size_t expected) {
  return absl::DataLossError(
      absl::StrFormat("mpi: a message of %d bytes came where %d were expected", count, expected));
}

// DataLoss unless `status` says `expected` bytes came.
inline absl::Status CheckReceivedLength(const MPI_Status& status, size_t expected) {
  const int count = ReceivedBytes(status);
  if (ABSL_PREDICT_TRUE(count == static_cast<int>(expected))) return absl::OkStatus();
  return WrongLengthError(count, expected);
}

absl::Status ReceiveFailed(int error) {
  // A longer message than the buffer: MPI truncates it and says so; the contract's DataLoss.
  int error_class = 0;
  MPI_Error_class(error, &error_class);
  return platform::MpiStatus(error, "mpi: receive",
                             error_class == MPI_ERR_TRUNCATE ? absl::StatusCode::kDataLoss
                                                             : absl::StatusCode::kUnavailable);
}

}  // namespace

bool MpiBuilt() { return true; }

// MPI_Recv_init's request for `count` bytes into `data` from the peer: inactive between
// receives, started by each. Freed with the endpoint while MPI is up (after MPI_Finalize
// there is nothing left to free).
struct MpiEndpoint::PersistentReceive {
  MPI_Request request = MPI_REQUEST_NULL;
  char* data = nullptr;
  int count = 0;

  PersistentReceive() = default;
  PersistentReceive(const PersistentReceive&) = delete;
  PersistentReceive& operator=(const PersistentReceive&) = delete;
  ~PersistentReceive() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && request != MPI_REQUEST_NULL) MPI_Request_free(&request);
  }
};

MpiEndpoint::MpiEndpoint(int peer_rank) : peer_rank_(peer_rank) {}

MpiEndpoint::~MpiEndpoint() = default;

absl::Status MpiEndpoint::Send(absl::Span<const char> message) {
  if (absl::Status size = CheckMessageSize(message.size(), kMpiMaxMessageBytes, kMpiName);
      !size.ok()) {
    return size;
  }
  const int sent = MPI_Send(message.data(), static_cast<int>(message.size()), MPI_BYTE, peer_rank_,
                            kDataTag, MPI_COMM_WORLD);
  if (ABSL_PREDICT_TRUE(sent == MPI_SUCCESS)) return absl::OkStatus();
  return platform::MpiStatus(sent, "mpi: send");
}

absl::Status MpiEndpoint::Receive(absl::Span<char> buffer) {
  if (absl::Status size = CheckMessageSize(buffer.size(), kMpiMaxMessageBytes, kMpiName);
      !size.ok()) {
    return size;
  }
  if (busy_poll_ || timeout_ns_ != SpinDeadline::kNever) return ReceiveTesting(buffer);
  MPI_Status status;
  const int received = MPI_Recv(buffer.data(), static_cast<int>(buffer.size()), MPI_BYTE,
                                peer_rank_, kDataTag, MPI_COMM_WORLD, &status);
  if (ABSL_PREDICT_FALSE(received != MPI_SUCCESS)) return ReceiveFailed(received);
  return CheckReceivedLength(status, buffer.size());
}

MpiEndpoint::PersistentReceive* MpiEndpoint::RequestFor(absl::Span<char> buffer, int& error) {
  const int count = static_cast<int>(buffer.size());
  auto is_for = [&](const std::unique_ptr<PersistentReceive>& r) {
    return r != nullptr && r->data == buffer.data() && r->count == count;
  };
  if (ABSL_PREDICT_TRUE(is_for(receives_[0]))) return receives_[0].get();
  if (!is_for(receives_[1])) {
    // A buffer not seen lately: its own request, in place of the older one (inactive: no
    // receive is pending between two receives).
    auto made = std::make_unique<PersistentReceive>();
    error = MPI_Recv_init(buffer.data(), count, MPI_BYTE, peer_rank_, kDataTag, MPI_COMM_WORLD,
                          &made->request);
    if (error != MPI_SUCCESS) return nullptr;
    made->data = buffer.data();
    made->count = count;
    receives_[1] = std::move(made);
  }
  std::swap(receives_[0], receives_[1]);
  return receives_[0].get();
}

absl::Status MpiEndpoint::ReceiveTesting(absl::Span<char> buffer) {
  int error = MPI_SUCCESS;
  PersistentReceive* receive = RequestFor(buffer, error);
  if (ABSL_PREDICT_FALSE(receive == nullptr)) return ReceiveFailed(error);
  MPI_Request& request = receive->request;
  const int posted = MPI_Start(&request);
  if (ABSL_PREDICT_FALSE(posted != MPI_SUCCESS)) {
    receives_[0].reset();
    return ReceiveFailed(posted);
  }
  SpinDeadline deadline = SpinDeadline::FromNanoseconds(timeout_ns_);
  int64_t empty = 0;
  MPI_Status status;
  while (true) {
    int done = 0;
    const int tested = MPI_Test(&request, &done, &status);
    if (ABSL_PREDICT_FALSE(tested != MPI_SUCCESS)) {
      // A receive that completes in error (MPI_ERR_TRUNCATE) takes its request with it:
      // Open MPI frees it, persistent or not, and sets the handle to MPI_REQUEST_NULL.
      // The next receive makes a new one.
      receives_[0].reset();
      return ReceiveFailed(tested);
    }
    if (done) break;
    const bool check = ++empty % SpinDeadline::kAttemptsPerCheck == 0;
    // Blocking: as Open MPI's MPI_Recv, test without a pause (its progress engine spins);
    // unlike it, once the wait is long, give the CPU away every 64 empty tests, so that a
    // rank waiting long on a shared CPU does not hold it from the rank it waits for.
    if (check && !busy_poll_ && empty >= kMpiTestsBeforeYield) sched_yield();
    const bool stop = check && platform::StopRequested();
    if (ABSL_PREDICT_FALSE(deadline.Expired() || stop)) {
      MPI_Cancel(&request);
      MPI_Wait(&request, &status);
      int cancelled = 0;
      MPI_Test_cancelled(&status, &cancelled);
      if (!cancelled) break;  // it came after all, as the cancel was asked
      if (stop) return platform::CancelledIfStopRequested("mpi: receive");
      return absl::DeadlineExceededError(
          absl::StrFormat("mpi: no message from rank %d within %s", peer_rank_,
                          absl::FormatDuration(absl::Nanoseconds(timeout_ns_))));
    }
  }
  // status.MPI_ERROR is set only by the calls that complete several requests: MPI_Test's
  // own return code (above) is this receive's.
  return CheckReceivedLength(status, buffer.size());
}

absl::Status MpiEndpoint::SetReceiveTimeout(absl::Duration timeout) {
  if (absl::Status checked = CheckReceiveTimeout(timeout); !checked.ok()) return checked;
  timeout_ns_ = SpinDeadline::TimeoutNanoseconds(timeout);
  return absl::OkStatus();
}

absl::StatusOr<EndpointPair> MpiTransport::Connect() {
  absl::StatusOr<platform::MpiWorld> world = platform::JoinMpiWorld();
  if (!world.ok()) return world.status();
  if (world->size < 2) {
    return absl::FailedPreconditionError(
        "the mpi transport runs between two ranks: start it with mpirun -np 2 (this run is "
        "a world of one)");
  }
  if (peer_rank_ == world->rank || peer_rank_ < 0 || peer_rank_ >= world->size) {
    return absl::FailedPreconditionError(
        absl::StrFormat("mpi: rank %d cannot be rank %d's peer in a world of %d ranks", peer_rank_,
                        world->rank, world->size));
  }
  EndpointPair pair;
  pair.client = std::make_unique<MpiEndpoint>(peer_rank_);
  return pair;
}

absl::Status RunMpiEchoPeer(int client_rank, const EchoPeerOptions& options,
                            absl::Duration idle_timeout) {
  absl::StatusOr<platform::MpiWorld> world = platform::JoinMpiWorld();
  if (!world.ok()) return world.status();
  MpiEndpoint endpoint(client_rank);
  if (absl::Status set = endpoint.SetReceiveTimeout(idle_timeout); !set.ok()) return set;
  return RunEchoPeer(endpoint, options);
}

}  // namespace tickbench::transport
