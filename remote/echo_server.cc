#include "remote/echo_server.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "platform/errno_status.h"
#include "remote/control_channel.h"
#include "remote/control_protocol.h"
#include "remote/role_options.h"
#include "transport/echo_peer.h"
#include "transport/socket_endpoint.h"
#include "transport/udp_transport.h"

namespace tickbench::remote {
namespace {

using transport::InetAddress;
using transport::UniqueFd;

// One client is served; a few more may wait in the queue to be told "busy".
constexpr int kControlBacklog = 8;
// Answers to refused clients are ~100 bytes into an empty send buffer: they go at once
// unless the client is gone, and a gone client must not hold the server up.
constexpr absl::Duration kReplyTimeout = absl::Seconds(1);
// After a refusal, how long to read and discard what the client still sends so that the
// close is a FIN after our answer, not a reset that could overtake it.
constexpr absl::Duration kLingerTimeout = absl::Milliseconds(200);
// Keepalive on the idle control connection: a vanished client host is noticed after
// 10 s + 3 x 5 s = 25 s.
constexpr int kKeepAliveIdleSeconds = 10;
constexpr int kKeepAliveIntervalSeconds = 5;
constexpr int kKeepAliveProbes = 3;

absl::Status SetIntOption(int fd, int level, int name, int value, const char* what) {
  if (setsockopt(fd, level, name, &value, sizeof(value)) != 0) {
    return platform::ErrnoToStatus(errno, absl::StrCat("setsockopt(", what, ")"));
  }
  return absl::OkStatus();
}

// A non-blocking listening TCP socket, so that accept() after poll() never waits on a
// connection that was reset in between.
absl::StatusOr<UniqueFd> ListeningSocket(const InetAddress& address, int backlog,
                                         InetAddress* bound) {
  UniqueFd fd(socket(address.storage.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd.valid()) return platform::ErrnoToStatus(errno, "socket");
  // A restarted server, and the next session's data listener, must bind the port while
  // connections of the last one sit in TIME_WAIT (60 s on Linux).
  if (absl::Status s = SetIntOption(fd.get(), SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
      !s.ok()) {
    return s;
  }
  if (address.storage.ss_family == AF_INET6) {
    if (absl::Status s = SetIntOption(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, 1, "IPV6_V6ONLY");
        !s.ok()) {
      return s;
    }
  }
  if (bind(fd.get(), address.get(), address.length) != 0) {
    const int error = errno;
    if (error == EADDRNOTAVAIL || error == EAFNOSUPPORT) {
      return absl::FailedPreconditionError(absl::StrCat("cannot listen on ", address.ToString(),
                                                        " on this host: ", std::strerror(error)));
    }
    return platform::ErrnoToStatus(error, absl::StrCat("bind ", address.ToString()));
  }
  if (listen(fd.get(), backlog) != 0) return platform::ErrnoToStatus(errno, "listen");
  bound->length = sizeof(bound->storage);
  if (getsockname(fd.get(), bound->get(), &bound->length) != 0) {
    return platform::ErrnoToStatus(errno, "getsockname");
  }
  return fd;
}

// The next connection on `listener`, or DeadlineExceeded / Cancelled (see WaitReady).
absl::StatusOr<UniqueFd> AcceptBefore(int listener, absl::Time deadline, int cancel_fd,
                                      InetAddress* peer) {
  while (true) {
    if (absl::Status ready = WaitReady(listener, POLLIN, deadline, cancel_fd); !ready.ok()) {
      return ready;
    }
    peer->length = sizeof(peer->storage);
    UniqueFd fd(accept4(listener, peer->get(), &peer->length, SOCK_CLOEXEC));
    if (fd.valid()) return fd;
    // Gone again between poll() and accept(), or a signal: wait for the next one.
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ECONNABORTED && errno != EINTR) {
      return platform::ErrnoToStatus(errno, "accept4");
    }
  }
}

// Same family and address; the ports differ (control and data connections).
bool SameHost(const InetAddress& a, const InetAddress& b) {
  if (a.storage.ss_family != b.storage.ss_family) return false;
  if (a.storage.ss_family == AF_INET6) {
    return std::memcmp(&reinterpret_cast<const sockaddr_in6*>(&a.storage)->sin6_addr,
                       &reinterpret_cast<const sockaddr_in6*>(&b.storage)->sin6_addr,
                       sizeof(in6_addr)) == 0;
  }
  return reinterpret_cast<const sockaddr_in*>(&a.storage)->sin_addr.s_addr ==
         reinterpret_cast<const sockaddr_in*>(&b.storage)->sin_addr.s_addr;
}

// Closes after the peer has read what we sent: FIN first, then discard its bytes until
// it closes too or kLingerTimeout passes.
void LingeringClose(UniqueFd fd) {
  shutdown(fd.get(), SHUT_WR);
  const absl::Time deadline = absl::Now() + kLingerTimeout;
  char discard[512];
  while (WaitReady(fd.get(), POLLIN, deadline).ok()) {
    const ssize_t n = recv(fd.get(), discard, sizeof(discard), MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) break;
  }
}

bool IsIpv6(transport::TransportKind kind) {
  return kind == transport::TransportKind::kUdp6 || kind == transport::TransportKind::kTcp6;
}

bool IsUdp(transport::TransportKind kind) {
  return kind == transport::TransportKind::kUdp || kind == transport::TransportKind::kUdp6;
}

std::string Describe(const SessionRequest& request) {
  return absl::StrFormat("%s, %u sizes of %u..%u bytes",
                         transport::TransportKindName(request.transport), request.size_count,
                         request.min_message_bytes, request.max_message_bytes);
}

absl::Status SetKeepAlive(int fd) {
  absl::Status s = SetIntOption(fd, SOL_SOCKET, SO_KEEPALIVE, 1, "SO_KEEPALIVE");
  if (s.ok())
    s = SetIntOption(fd, IPPROTO_TCP, TCP_KEEPIDLE, kKeepAliveIdleSeconds, "TCP_KEEPIDLE");
  if (s.ok()) {
    s = SetIntOption(fd, IPPROTO_TCP, TCP_KEEPINTVL, kKeepAliveIntervalSeconds, "TCP_KEEPINTVL");
  }
  if (s.ok()) s = SetIntOption(fd, IPPROTO_TCP, TCP_KEEPCNT, kKeepAliveProbes, "TCP_KEEPCNT");
  return s;
}

// The data socket for `request`, on the address the client reached (`control`'s local
// address) and `data_port`: UDP connected to the client, or a TCP listener.
absl::StatusOr<UniqueFd> OpenDataSocket(int control, const InetAddress& client,
                                        const SessionRequest& request, uint16_t data_port,
                                        InetAddress* bound) {
  InetAddress local;
  local.length = sizeof(local.storage);
  if (getsockname(control, local.get(), &local.length) != 0) {
    return platform::ErrnoToStatus(errno, "getsockname");
  }
  local = WithPort(local, data_port);
  if (!IsUdp(request.transport)) return ListeningSocket(local, 1, bound);
  absl::StatusOr<UniqueFd> fd = transport::BoundSocket(SOCK_DGRAM, local, bound);
  if (!fd.ok()) return fd.status();
  absl::StatusOr<transport::SocketBufferSizes> sizes =
      transport::SetSocketBufferSizes(fd->get(), transport::kUdpBufferRequestBytes);
  if (!sizes.ok()) return sizes.status();
  const InetAddress target = WithPort(client, request.client_data_port);
  if (connect(fd->get(), target.get(), target.length) != 0) {
    return platform::ErrnoToStatus(errno, absl::StrCat("connect ", target.ToString()));
  }
  return fd;
}

// The client's TCP data connection; connections from other hosts are closed unanswered.
absl::StatusOr<UniqueFd> AcceptDataConnection(int listener, const InetAddress& client,
                                              absl::Time deadline, int stop_fd) {
  while (true) {
    InetAddress peer;
    absl::StatusOr<UniqueFd> fd = AcceptBefore(listener, deadline, stop_fd, &peer);
    if (!fd.ok()) return fd.status();
    if (!SameHost(peer, client)) continue;
    // Without TCP_NODELAY a small echo can wait up to 40 ms for a delayed ACK (Nagle).
    if (absl::Status s = SetIntOption(fd->get(), IPPROTO_TCP, TCP_NODELAY, 1, "TCP_NODELAY");
        !s.ok()) {
      return s;
    }
    return fd;
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<EchoServer>> EchoServer::Listen(const ServerOptions& options) {
  InetAddress bound;
  absl::StatusOr<UniqueFd> listener = ListeningSocket(options.listen, kControlBacklog, &bound);
  if (!listener.ok()) return listener.status();
  return std::unique_ptr<EchoServer>(new EchoServer(options, std::move(*listener), bound));
}

EchoServer::EchoServer(ServerOptions options, UniqueFd listener, InetAddress address)
    : options_(std::move(options)), listener_(std::move(listener)), address_(address) {}

void EchoServer::Log(absl::string_view line) const {
  if (options_.log) options_.log(line);
}

absl::Status EchoServer::Serve(int stop_fd) {
  while (true) {
    InetAddress client;
    absl::StatusOr<UniqueFd> control =
        AcceptBefore(listener_.get(), absl::InfiniteFuture(), stop_fd, &client);
    if (absl::IsCancelled(control.status())) return absl::OkStatus();
    if (!control.ok()) return control.status();
    if (RunSession(std::move(*control), client, stop_fd)) return absl::OkStatus();
  }
}

void EchoServer::Refuse(UniqueFd control, const std::string& who, absl::string_view why) {
  Log(absl::StrCat(who, ": refused: ", why));
  WriteControlMessage(control.get(), SessionError{std::string(why)},
                      absl::Now() + kReplyTimeout)
      .IgnoreError();  // the client may be gone already; it is refused either way
  LingeringClose(std::move(control));
}

void EchoServer::TurnAwayNewcomer(const std::string& serving) {
  InetAddress newcomer;
  newcomer.length = sizeof(newcomer.storage);
  UniqueFd fd(accept4(listener_.get(), newcomer.get(), &newcomer.length, SOCK_CLOEXEC));
  if (!fd.valid()) return;  // gone again between poll() and accept()
  Refuse(std::move(fd), newcomer.ToString(),
         absl::StrCat("busy: serving ", serving, " (one client at a time); try again later"));
}

bool EchoServer::RunSession(UniqueFd control, const InetAddress& client, int stop_fd) {
  const std::string who = client.ToString();
  if (absl::Status s = SetKeepAlive(control.get()); !s.ok()) {
    Log(absl::StrCat(who, ": ", s.message()));
  }
  absl::StatusOr<ControlMessage> message =
      ReadControlMessage(control.get(), absl::Now() + options_.request_timeout, stop_fd);
  if (absl::IsCancelled(message.status())) return true;
  if (absl::IsUnavailable(message.status())) {
    Log(absl::StrCat(who, ": ", message.status().message()));
    return false;
  }
  if (absl::IsDeadlineExceeded(message.status())) {
    Refuse(
        std::move(control), who,
        absl::StrCat("no whole request within ", absl::FormatDuration(options_.request_timeout)));
    return false;
  }
  if (!message.ok()) {
    Refuse(std::move(control), who, message.status().message());
    return false;
  }
  const SessionRequest* request = std::get_if<SessionRequest>(&*message);
  if (request == nullptr) {
    Refuse(std::move(control), who, "expected a session request");
    return false;
  }
  if (IsIpv6(request->transport) != (client.storage.ss_family == AF_INET6)) {
    Refuse(std::move(control), who,
           absl::StrCat(transport::TransportKindName(request->transport),
                        " needs a control connection of the same IP version; this one is ",
                        client.storage.ss_family == AF_INET6 ? "IPv6" : "IPv4"));
    return false;
  }
  InetAddress bound;
  absl::StatusOr<UniqueFd> data =
      OpenDataSocket(control.get(), client, *request, options_.data_port, &bound);
  if (!data.ok()) {
    Refuse(std::move(control), who, absl::StrCat("no data socket: ", data.status().message()));
    return false;
  }
  if (absl::Status s = WriteControlMessage(control.get(), SessionAccept{bound.port()},
                                           absl::Now() + kReplyTimeout);
      !s.ok()) {
    Log(absl::StrCat(who, ": ", s.message()));
    return false;
  }
  std::unique_ptr<transport::Endpoint> endpoint;
  const std::string name(transport::TransportKindName(request->transport));
  const size_t limit = RemoteMaxMessageBytes(request->transport);
  if (IsUdp(request->transport)) {
    endpoint = std::make_unique<transport::DatagramSocketEndpoint>(std::move(*data), name, limit);
  } else {
    absl::StatusOr<UniqueFd> connection = AcceptDataConnection(
        data->get(), client, absl::Now() + options_.data_accept_timeout, stop_fd);
    if (absl::IsCancelled(connection.status())) return true;
    if (!connection.ok()) {
      Log(absl::StrCat(who, ": no data connection: ", connection.status().message()));
      return false;
    }
    data->reset();  // one data connection per session: stop listening at once
    endpoint =
        std::make_unique<transport::StreamSocketEndpoint>(std::move(*connection), name, limit);
  }
  const int data_fd = IsUdp(request->transport)
                          ? static_cast<transport::DatagramSocketEndpoint&>(*endpoint).fd()
                          : static_cast<transport::StreamSocketEndpoint&>(*endpoint).fd();
  Log(absl::StrFormat("%s: session: %s; data port %d", who, Describe(*request), bound.port()));
  return Echo(control.get(), *endpoint, data_fd, who, stop_fd);
}

bool EchoServer::Echo(int control_fd, transport::Endpoint& endpoint, int data_fd,
                      const std::string& who, int stop_fd) {
  UniqueFd done(eventfd(0, EFD_CLOEXEC));
  if (!done.valid()) {
    Log(absl::StrCat(who, ": ", platform::ErrnoToStatus(errno, "eventfd").message()));
    return false;
  }
  absl::Status peer_status;  // written by the echo thread, read after join()
  std::thread echo([&endpoint, &peer_status, &done] {
    peer_status = transport::RunEchoPeer(endpoint, transport::EchoPeerOptions());
    const uint64_t one = 1;
    while (write(done.get(), &one, sizeof(one)) < 0 && errno == EINTR) {
    }
  });
  const char* why = nullptr;
  bool stop = false;
  bool peer_returned = false;
  while (why == nullptr) {
    pollfd fds[4] = {{stop_fd, POLLIN, 0},
                     {done.get(), POLLIN, 0},
                     {control_fd, POLLIN, 0},
                     {listener_.get(), POLLIN, 0}};
    if (poll(fds, 4, -1) < 0) {
      if (errno == EINTR) continue;
      why = "poll failed";
    } else if (fds[0].revents != 0) {
      why = "the server is stopping";
      stop = true;
    } else if (fds[1].revents != 0) {
      why = "the echo peer returned";
      peer_returned = true;
    } else if (fds[2].revents != 0) {
      // End of file, or bytes the protocol does not allow here: either way, over.
      why = "the client closed the control connection";
    } else if (fds[3].revents != 0) {
      TurnAwayNewcomer(who);
    }
  }
  // Wakes the echo thread: recv() then returns 0 and send() fails with EPIPE.
  shutdown(data_fd, SHUT_RDWR);
  echo.join();
  // After the shutdown the echo peer fails as if the client had gone; only an end it
  // came to by itself says something.
  const bool peer_failed = peer_returned && !peer_status.ok();
  Log(absl::StrCat(who, ": session over: ", why,
                   peer_failed ? absl::StrCat(" (", peer_status.message(), ")") : ""));
  return stop;
}

}  // namespace tickbench::remote
