// The client role: a Transport whose peer is a tickbench server on another host
// (echo_server.h).
//
// Connect() opens a session: it connects to the server's control address, sends a
// request (control_protocol.h) naming the data transport and the sweep's sizes, and on
// "accept" connects a data socket to the port the server names, from the same local
// address as the control connection (the server accepts data only from there). For UDP
// the client binds its data socket before the request, whose port the request carries.
//
// What it returns: an EndpointPair with only `client` set. That endpoint moves messages
// on the data socket and also owns the control connection, which stays open and idle for
// the session: destroying the endpoint closes it, and that tells the server the session
// is over. needs_local_peer() is false: the harness starts no echo peer of its own and
// sends kQuit to the server's at the end.
//
// Waits. Every wait of Connect() ends by handshake_timeout (DeadlineExceeded), and
// within ~100 ms of a SIGINT or SIGTERM caught by platform::InstallStopHandlers()'s
// handlers (Cancelled; see control_channel.h).
//
// What is NOT promised: the server may refuse. A server that already serves as many
// sessions as it will answers "busy": Connect() fails with Unavailable, "server busy: N
// sessions active, try again later", and trying again later may succeed. Any other
// refusal (a limit of its own, a request it cannot serve) is FailedPrecondition with the
// server's reason. Each Connect() is a new session, counted by the server while its
// endpoint lives.
#ifndef REMOTE_REMOTE_TRANSPORT_H_
#define REMOTE_REMOTE_TRANSPORT_H_

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "transport/registry/transport_registry.h"
#include "transport/sockets/inet_address.h"
#include "transport/transport.h"

namespace tickbench::remote {

struct RemoteTransportOptions {
  // The server's control address.
  transport::InetAddress peer;
  // The data transport: a registry row that reaches another host (IsRemoteTransport:
  // udp, udp6, tcp, tcp6). Null or another row is InvalidArgument from Create().
  const transport::TransportInfo* data = nullptr;
  // The sweep's message sizes, which the server checks against the transport's limit.
  std::vector<size_t> sizes;
  // The whole handshake: control connection, request, answer, TCP data connection.
  absl::Duration handshake_timeout = absl::Seconds(5);
};

class RemoteTransport final : public transport::Transport {
 public:
  // InvalidArgument (naming the flag: --transport, --sizes) for a data transport that
  // cannot reach another host or whose IP version is not the peer's, or for sizes that
  // are none, too many, 0, or over the data transport's largest message.
  static absl::StatusOr<std::unique_ptr<RemoteTransport>> Create(RemoteTransportOptions options);

  absl::string_view name() const override;   // the data transport's: "udp", "tcp6", ...
  size_t max_message_size() const override;  // the data transport's: 65507 for udp, ...
  bool keeps_boundaries() const override;
  bool may_lose() const override;
  bool needs_local_peer() const override { return false; }
  absl::StatusOr<transport::EndpointPair> Connect() override;

  const transport::InetAddress& peer() const { return options_.peer; }

 private:
  explicit RemoteTransport(RemoteTransportOptions options) : options_(std::move(options)) {}

  RemoteTransportOptions options_;
};

// Create() for the transport named `name` (as --transport names it), with the default
// handshake timeout.
absl::StatusOr<std::unique_ptr<transport::Transport>> MakeRemoteTransport(
    absl::string_view name, const transport::InetAddress& peer, const std::vector<size_t>& sizes);

}  // namespace tickbench::remote

#endif  // REMOTE_REMOTE_TRANSPORT_H_
