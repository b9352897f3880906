// The mpi transport in a build without MPI: there to be named, refusing to connect.
#include "transport/mpi/mpi_transport.h"

namespace tickbench::transport {
namespace {

absl::Status NotBuilt() {
  return absl::FailedPreconditionError(
      "the mpi transport needs a build with Open MPI: bazel build --config=mpi //harness "
      "(after tools/setup.sh --mpi)");
}

}  // namespace

bool MpiBuilt() { return false; }

absl::StatusOr<EndpointPair> MpiTransport::Connect() { return NotBuilt(); }

// No endpoint is ever made here; these keep the class whole (the loop's type list names it).
struct MpiEndpoint::PersistentReceive {};
MpiEndpoint::MpiEndpoint(int peer_rank) : peer_rank_(peer_rank) {}
MpiEndpoint::~MpiEndpoint() = default;
absl::Status MpiEndpoint::Send(absl::Span<const char>) { return NotBuilt(); }
absl::Status MpiEndpoint::Receive(absl::Span<char>) { return NotBuilt(); }
absl::Status MpiEndpoint::ReceiveTesting(absl::Span<char>) { return NotBuilt(); }
absl::Status MpiEndpoint::SetReceiveTimeout(absl::Duration) { return NotBuilt(); }

absl::Status RunMpiEchoPeer(int, const EchoPeerOptions&, absl::Duration) { return NotBuilt(); }

}  // namespace tickbench::transport
