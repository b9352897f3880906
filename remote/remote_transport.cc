#include "remote/remote_transport.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "platform/errno_status.h"
#include "remote/control_channel.h"
#include "remote/control_protocol.h"
#include "remote/role_options.h"
#include "transport/echo/echo_peer.h"
#include "transport/io/unique_fd.h"
#include "transport/sockets/socket_endpoint.h"
#include "transport/sockets/udp_transport.h"

namespace tickbench::remote {
namespace {

using transport::InetAddress;
using transport::TransportInfo;
using transport::UniqueFd;

absl::Status Prefixed(const absl::Status& status, absl::string_view prefix) {
  return absl::Status(status.code(), absl::StrCat(prefix, status.message()));
}

// connect() that gives up at `deadline`: a server host that drops SYNs would otherwise
// hold the client for the kernel's ~2 minutes of SYN retries.
absl::Status ConnectBefore(int fd, const InetAddress& target, absl::Time deadline) {
  const int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) {
    return platform::ErrnoToStatus(errno, "fcntl");
  }
  if (connect(fd, target.get(), target.length) != 0) {
    if (errno != EINPROGRESS) return platform::ErrnoToStatus(errno, "connect");
    if (absl::Status ready = WaitReady(fd, POLLOUT, deadline); !ready.ok()) return ready;
    int error = 0;
    socklen_t length = sizeof(error);
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0) error = errno;
    if (error != 0) return platform::ErrnoToStatus(error, "connect");
  }
  // The data endpoint's I/O is blocking, bounded by SO_RCVTIMEO.
  if (fcntl(fd, F_SETFL, flags) != 0) return platform::ErrnoToStatus(errno, "fcntl");
  return absl::OkStatus();
}

// The data endpoint, which also keeps the control connection open for the session.
class RemoteEndpoint final : public transport::Endpoint {
 public:
  RemoteEndpoint(UniqueFd control, std::unique_ptr<transport::Endpoint> data)
      : control_(std::move(control)), data_(std::move(data)) {}

  absl::Status Send(absl::Span<const char> message) override { return data_->Send(message); }
  absl::Status Receive(absl::Span<char> buffer) override { return data_->Receive(buffer); }
  absl::StatusOr<size_t> ReceiveDatagram(absl::Span<char> buffer) override {
    return data_->ReceiveDatagram(buffer);
  }
  absl::Status SetReceiveTimeout(absl::Duration timeout) override {
    return data_->SetReceiveTimeout(timeout);
  }
  // The client side only: the server on the other host receives as it always does.
  absl::Status SetBusyPoll(bool on) override { return data_->SetBusyPoll(on); }
  bool keeps_boundaries() const override { return data_->keeps_boundaries(); }
  bool may_lose() const override { return data_->may_lose(); }
  size_t max_message_size() const override { return data_->max_message_size(); }

 private:
  UniqueFd control_;  // closed when the endpoint goes: the server ends the session
  std::unique_ptr<transport::Endpoint> data_;
};

// The server's answer when it accepted the session; its refusal ("busy", an error) or
// a message out of place as an error naming `server`.
absl::StatusOr<const SessionAccept*> AcceptedSession(const ControlMessage& answer,
                                                     const std::string& server) {
  if (const auto* busy = std::get_if<SessionBusy>(&answer)) {
    return absl::UnavailableError(absl::StrFormat("%s (%s serves at most %u sessions at once)",
                                                  BusyText(*busy), server, busy->session_limit));
  }
  if (const auto* error = std::get_if<SessionError>(&answer)) {
    return absl::FailedPreconditionError(
        absl::StrCat("server ", server, " refused the session: ", error->message));
  }
  const auto* accept = std::get_if<SessionAccept>(&answer);
  if (accept == nullptr) {
    return absl::InternalError(absl::StrCat("server ", server, " answered with a request"));
  }
  return accept;
}

// Connects the data socket to the server's data port: a UDP connect() and an empty block
// (the server ends a UDP session whose first datagram does not come within its data
// accept timeout, echo_server.h: this says "here" at once, however long the client then
// takes to start measuring), or a TCP connection made before `deadline` with TCP_NODELAY.
absl::Status ConnectDataSocket(int fd, const InetAddress& target, bool udp, absl::Time deadline) {
  if (udp) {
    if (connect(fd, target.get(), target.length) != 0) {
      return platform::ErrnoToStatus(errno, absl::StrCat("connect ", target.ToString()));
    }
    const auto here = transport::EncodeControlFrame({transport::PeerCommand::kEchoBlock, 0, 0});
    if (send(fd, here.data(), here.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(here.size())) {
      return platform::ErrnoToStatus(errno, absl::StrCat("send to ", target.ToString()));
    }
    return absl::OkStatus();
  }
  if (absl::Status s = ConnectBefore(fd, target, deadline); !s.ok()) {
    return Prefixed(s, absl::StrCat("data connection to ", target.ToString(), ": "));
  }
  // Without TCP_NODELAY a small message can wait up to 40 ms for a delayed ACK (Nagle).
  const int on = 1;
  if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on)) != 0) {
    return platform::ErrnoToStatus(errno, "setsockopt(TCP_NODELAY)");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<RemoteTransport>> RemoteTransport::Create(
    RemoteTransportOptions options) {
  if (options.data == nullptr || !IsRemoteTransport(*options.data)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--transport: ", options.data == nullptr ? "none" : options.data->name,
        " cannot reach another host; with --role=client use ", RemoteTransportNames()));
  }
  const bool ipv6 = options.data->is_ipv6();
  if (ipv6 != (options.peer.storage.ss_family == AF_INET6)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--transport: ", options.data->name, " needs an ", ipv6 ? "IPv6" : "IPv4",
                     " --peer; ", options.peer.ToString(), " is not one"));
  }
  const size_t limit = RemoteMaxMessageBytes(*options.data);
  if (options.sizes.empty() || options.sizes.size() > kMaxRequestSizeCount) {
    return absl::InvalidArgumentError(
        absl::StrFormat("--sizes: %u sizes; a remote session takes 1..%u", options.sizes.size(),
                        kMaxRequestSizeCount));
  }
  const auto [min, max] = std::minmax_element(options.sizes.begin(), options.sizes.end());
  if (*min == 0 || *max > limit) {
    return absl::InvalidArgumentError(absl::StrFormat("--sizes: %u..%u bytes; %s carries 1..%u",
                                                      *min, *max, options.data->name, limit));
  }
  return std::unique_ptr<RemoteTransport>(new RemoteTransport(std::move(options)));
}

absl::string_view RemoteTransport::name() const { return options_.data->name; }

size_t RemoteTransport::max_message_size() const { return RemoteMaxMessageBytes(*options_.data); }

bool RemoteTransport::keeps_boundaries() const { return options_.data->keeps_boundaries; }
bool RemoteTransport::may_lose() const { return options_.data->may_lose; }

absl::StatusOr<transport::EndpointPair> RemoteTransport::Connect() {
  const absl::Time deadline = absl::Now() + options_.handshake_timeout;
  const std::string server = options_.peer.ToString();
  UniqueFd control(socket(options_.peer.storage.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!control.valid()) return platform::ErrnoToStatus(errno, "socket");
  if (absl::Status s = ConnectBefore(control.get(), options_.peer, deadline); !s.ok()) {
    return Prefixed(s, absl::StrCat("server ", server, ": "));
  }
  InetAddress local;
  local.length = sizeof(local.storage);
  if (getsockname(control.get(), local.get(), &local.length) != 0) {
    return platform::ErrnoToStatus(errno, "getsockname");
  }
  // Data leaves from the control connection's address, the one the server checks.
  local = WithPort(local, 0);

  SessionRequest request;
  request.transport = options_.data;
  request.size_count = static_cast<uint32_t>(options_.sizes.size());
  request.min_message_bytes =
      static_cast<uint32_t>(*std::min_element(options_.sizes.begin(), options_.sizes.end()));
  request.max_message_bytes =
      static_cast<uint32_t>(*std::max_element(options_.sizes.begin(), options_.sizes.end()));
  const bool udp = options_.data->is_udp();
  InetAddress data_bound;
  absl::StatusOr<UniqueFd> data =
      transport::BoundSocket(udp ? SOCK_DGRAM : SOCK_STREAM, local, &data_bound);
  if (!data.ok()) return data.status();
  if (udp) {
    absl::StatusOr<transport::SocketBufferSizes> sizes =
        transport::SetSocketBufferSizes(data->get(), transport::kUdpBufferRequestBytes);
    if (!sizes.ok()) return sizes.status();
    request.client_data_port = data_bound.port();
  }

  if (absl::Status s = WriteControlMessage(control.get(), request, deadline); !s.ok()) {
    return Prefixed(s, absl::StrCat("server ", server, ": "));
  }
  absl::StatusOr<ControlMessage> answer = ReadControlMessage(control.get(), deadline);
  if (!answer.ok()) return Prefixed(answer.status(), absl::StrCat("server ", server, ": "));
  absl::StatusOr<const SessionAccept*> accept = AcceptedSession(*answer, server);
  if (!accept.ok()) return accept.status();
  const InetAddress target = WithPort(options_.peer, (*accept)->data_port);
  if (absl::Status s = ConnectDataSocket(data->get(), target, udp, deadline); !s.ok()) return s;
  std::unique_ptr<transport::Endpoint> endpoint;
  if (udp) {
    endpoint = std::make_unique<transport::DatagramSocketEndpoint>(
        std::move(*data), std::string(name()), max_message_size());
  } else {
    endpoint = std::make_unique<transport::StreamSocketEndpoint>(
        std::move(*data), std::string(name()), max_message_size());
  }
  transport::EndpointPair pair;
  pair.client = std::make_unique<RemoteEndpoint>(std::move(control), std::move(endpoint));
  return pair;
}

absl::StatusOr<std::unique_ptr<transport::Transport>> MakeRemoteTransport(
    absl::string_view name, const InetAddress& peer, const std::vector<size_t>& sizes) {
  absl::StatusOr<const TransportInfo*> row = transport::FindTransport(name);
  if (!row.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--transport: ", absl::CHexEscape(name),
        " cannot reach another host; with --role=client use ", RemoteTransportNames()));
  }
  RemoteTransportOptions options;
  options.peer = peer;
  options.data = *row;
  options.sizes = sizes;
  absl::StatusOr<std::unique_ptr<RemoteTransport>> made = RemoteTransport::Create(options);
  if (!made.ok()) return made.status();
  return std::unique_ptr<transport::Transport>(std::move(*made));
}

}  // namespace tickbench::remote
