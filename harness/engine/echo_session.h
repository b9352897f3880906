// A connected client endpoint with its echo peer: a process of its own (fork) for real
// transports, nothing for transports that echo by themselves or elsewhere.
//
// Promised:
//   * The peer is always reaped: by Close() within its grace (100 ms after a stop signal,
//     then killed), by the destructor otherwise; it also dies with its parent
//     (PR_SET_PDEATHSIG), so no peer outlives tickbench.
//   * The client's receive timeout is set before Open() returns.
// Not promised:
//   * The peer's CPU placement beyond what --pin asked; an unpinned peer may share a CPU.
#ifndef HARNESS_ENGINE_ECHO_SESSION_H_
#define HARNESS_ENGINE_ECHO_SESSION_H_

#include <memory>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "transport/echo/echo_peer.h"
#include "transport/echo/peer_process.h"
#include "transport/transport.h"

namespace tickbench::harness {

inline constexpr absl::Duration kGraceAfterStop = absl::Milliseconds(100);

class EchoSession {
 public:
  // Connects, starts the peer (pinned to `pin_peer_cpu` unless -1) and sets the client's
  // receive timeout; with peer_options.busy_poll, both the client and the peer receive
  // by busy polling.
  static absl::StatusOr<EchoSession> Open(transport::Transport& transport,
                                          const transport::EchoPeerOptions& peer_options,
                                          int pin_peer_cpu, absl::Duration receive_timeout);

  EchoSession(EchoSession&&) = default;
  EchoSession& operator=(EchoSession&&) = default;
  ~EchoSession();

  transport::Endpoint& client() { return peer_ ? peer_->client() : *direct_client_; }

  // Tells the peer to quit and reaps it (within `grace`, or kGraceAfterStop once SIGINT
  // or SIGTERM asked to stop); its status when it failed.
  absl::Status Close(absl::Duration grace = absl::Seconds(2));

 private:
  EchoSession() = default;
  std::optional<transport::PeerProcess> peer_;
  std::unique_ptr<transport::Endpoint> direct_client_;
  bool closed_ = false;
};

}  // namespace tickbench::harness

#endif  // HARNESS_ENGINE_ECHO_SESSION_H_
