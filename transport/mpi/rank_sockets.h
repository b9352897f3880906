// UDP or TCP between two ranks' hosts, MPI only carrying the addresses: the matrix's
// `--transport=udp` and `--transport=tcp` (harness/mpi/matrix_command.h). Built with MPI
// only (`--config=mpi`).
//
// How. The echo peer's rank binds a socket to every address of its host (0.0.0.0) and
// port 0, and sends the measuring rank its host name, its first IPv4 address that is not
// loopback and the port, as one MPI message. The measuring rank connects to 127.0.0.1
// when both ranks are on one host (the same MPI processor name), else to that address:
// TCP connects (TCP_NODELAY on both ends); UDP binds its own socket likewise, sends its
// address back the same way, and each end connects its socket to the other's. Then the
// echo peer runs on its end, and the measuring rank's end is a Transport whose Connect()
// returns it, for the sweep of every transport.
//
// Bounded: every MPI wait by `timeout`, the TCP accept by it too (poll), the TCP connect
// by it (SO_SNDTIMEO); the echo peer's receives by its `idle_timeout`.
// Not promised: a host whose first non-loopback address is not the one the other rank
// reaches it by (several networks): that rank should not be in the job.
#ifndef TRANSPORT_MPI_RANK_SOCKETS_H_
#define TRANSPORT_MPI_RANK_SOCKETS_H_

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "transport/echo/echo_peer.h"
#include "transport/transport.h"

namespace tickbench::transport {

enum class RankSocketKind { kUdp, kTcp };

// The measuring rank's side: the connected transport towards `server_rank`.
absl::StatusOr<std::unique_ptr<Transport>> ConnectToRank(RankSocketKind kind, int server_rank,
                                                         absl::Duration timeout);

// The echo peer's side, for `client_rank`, until its kQuit.
absl::Status ServeRank(RankSocketKind kind, int client_rank, const EchoPeerOptions& options,
                       absl::Duration timeout, absl::Duration idle_timeout);

}  // namespace tickbench::transport

#endif  // TRANSPORT_MPI_RANK_SOCKETS_H_
