#include "remote/echo_server.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <deque>
#include <list>
#include <thread>
#include <utility>
#include <vector>

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

// Connections the kernel completes before the poll loop accepts them; the loop accepts
// as fast as they come, so this only absorbs bursts.
constexpr int kControlBacklog = 128;
// Connections accepted per wake-up of the loop, so that a flood of them does not starve
// the requests of those already accepted.
constexpr int kAcceptsPerRound = 64;
// After accept4() fails for want of descriptors or memory, how long the loop leaves the
// listener alone (it stays readable, and would otherwise spin).
constexpr absl::Duration kAcceptBackoff = absl::Milliseconds(100);
// A session thread's answers are ~100 bytes into an empty send buffer: they go at once
// unless the client is gone, and a gone client must not hold the session up.
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
// Used for data connections; the control listener is served by Serve()'s poll loop.
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
// it closes too, kLingerTimeout passes, or `cancel_fd` becomes readable.
void LingeringClose(UniqueFd fd, int cancel_fd) {
  shutdown(fd.get(), SHUT_WR);
  const absl::Time deadline = absl::Now() + kLingerTimeout;
  char discard[512];
  while (WaitReady(fd.get(), POLLIN, deadline, cancel_fd).ok()) {
    const ssize_t n = recv(fd.get(), discard, sizeof(discard), MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) break;
  }
}

std::string Describe(const SessionRequest& request) {
  return absl::StrFormat("%s, %u sizes of %u..%u bytes",
                         request.transport->name, request.size_count,
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

// A UDP socket bound to `local`. SO_REUSEADDR lets the sessions of a fixed data port
// bind it together; each connects to its client, and the kernel delivers a datagram to
// the socket connected to its sender.
absl::StatusOr<UniqueFd> UdpDataSocket(const InetAddress& local, InetAddress* bound) {
  UniqueFd fd(socket(local.storage.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return platform::ErrnoToStatus(errno, "socket");
  if (absl::Status s = SetIntOption(fd.get(), SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
      !s.ok()) {
    return s;
  }
  if (bind(fd.get(), local.get(), local.length) != 0) {
    return platform::ErrnoToStatus(errno, absl::StrCat("bind ", local.ToString()));
  }
  bound->length = sizeof(bound->storage);
  if (getsockname(fd.get(), bound->get(), &bound->length) != 0) {
    return platform::ErrnoToStatus(errno, "getsockname");
  }
  return fd;
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
  if (!request.transport->is_udp()) return ListeningSocket(local, 1, bound);
  absl::StatusOr<UniqueFd> fd = UdpDataSocket(local, bound);
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

// A connection accepted by the poll loop and waiting for its request.
struct PendingConnection {
  UniqueFd fd;
  InetAddress peer;
  absl::Time deadline;
  std::string bytes;  // sized to what is wanted: the header, then header and payload
  size_t have = 0;    // bytes received so far
};

// A refused connection, its answer sent and its write side shut, closed when the client
// closes too or at `deadline` (see LingeringClose).
struct ClosingConnection {
  UniqueFd fd;
  absl::Time deadline;
};

// A session's thread; `done` is set as its last act, before it signals the loop.
struct SessionThread {
  std::thread thread;
  std::atomic<bool> done{false};
};

// poll()'s timeout until `deadline`, rounded up; -1 for none.
int TimeoutMs(absl::Time deadline, absl::Time now) {
  if (deadline == absl::InfiniteFuture()) return -1;
  if (deadline <= now) return 0;
  return static_cast<int>(std::min<int64_t>(
      absl::ToInt64Milliseconds(absl::Ceil(deadline - now, absl::Milliseconds(1))), 60'000));
}

void Signal(int event_fd) {
  const uint64_t one = 1;
  while (write(event_fd, &one, sizeof(one)) < 0 && errno == EINTR) {
  }
}

void Drain(int event_fd) {
  uint64_t count;
  while (read(event_fd, &count, sizeof(count)) < 0 && errno == EINTR) {
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<EchoServer>> EchoServer::Listen(const ServerOptions& options) {
  if (options.max_sessions < 1 || options.max_pending < 1) {
    return absl::InvalidArgumentError(
        absl::StrFormat("a server needs max_sessions >= 1 and max_pending >= 1, not %d and %d",
                        options.max_sessions, options.max_pending));
  }
  InetAddress bound;
  absl::StatusOr<UniqueFd> listener = ListeningSocket(options.listen, kControlBacklog, &bound);
  if (!listener.ok()) return listener.status();
  return std::unique_ptr<EchoServer>(new EchoServer(options, std::move(*listener), bound));
}

EchoServer::EchoServer(ServerOptions options, UniqueFd listener, InetAddress address)
    : options_(std::move(options)), listener_(std::move(listener)), address_(address) {}

void EchoServer::Log(absl::string_view line) const {
  if (!options_.log) return;
  absl::MutexLock lock(&log_mutex_);
  options_.log(line);
}

absl::Status EchoServer::Serve(int stop_fd) {
  // `wake`: a session ended (readable for the loop); `cancel`: the server stops
  // (readable for every session thread).
  UniqueFd wake(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  UniqueFd cancel(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake.valid() || !cancel.valid()) return platform::ErrnoToStatus(errno, "eventfd");
  {
    absl::MutexLock lock(&data_port_mutex_);
    stopping_ = false;
  }
  std::deque<PendingConnection> pending;  // oldest first
  std::deque<ClosingConnection> closing;  // oldest first
  std::list<SessionThread> sessions;
  absl::Time listener_paused_until = absl::InfinitePast();
  absl::Status result;

  auto join_finished = [&sessions] {
    for (auto it = sessions.begin(); it != sessions.end();) {
      if (it->done.load()) {
        it->thread.join();
        it = sessions.erase(it);
      } else {
        ++it;
      }
    }
  };
  // Answers without waiting (a new connection's send buffer is empty, and every answer is
  // smaller than it), then closes as LingeringClose does, in the loop.
  auto refuse = [&](PendingConnection& connection, const ControlMessage& answer, uint16_t version,
                    absl::string_view why) {
    Log(absl::StrCat(connection.peer.ToString(), ": refused: ", why));
    const std::string bytes = EncodeControlMessage(answer, version);
    if (send(connection.fd.get(), bytes.data(), bytes.size(), MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
      return;  // the client is gone: close at once
    }
    shutdown(connection.fd.get(), SHUT_WR);
    closing.push_back({std::move(connection.fd), absl::Now() + kLingerTimeout});
  };
  auto refuse_with_error = [&](PendingConnection& connection, uint16_t version,
                               absl::string_view why) {
    refuse(connection, SessionError{std::string(why)}, version, why);
  };
  // A whole request has arrived on `connection`: start its session, or refuse it.
  auto dispatch = [&](PendingConnection& connection, uint16_t version) {
    absl::StatusOr<ControlMessage> message = DecodeControlMessage(connection.bytes);
    if (!message.ok()) return refuse_with_error(connection, version, message.status().message());
    const SessionRequest* request = std::get_if<SessionRequest>(&*message);
    if (request == nullptr) {
      return refuse_with_error(connection, version, "expected a session request");
    }
    const bool ipv6_client = connection.peer.storage.ss_family == AF_INET6;
    if (request->transport->is_ipv6() != ipv6_client) {
      return refuse_with_error(
          connection, version,
          absl::StrCat(request->transport->name,
                       " needs a control connection of the same IP version; this one is ",
                       ipv6_client ? "IPv6" : "IPv4"));
    }
    join_finished();
    if (sessions.size() >= static_cast<size_t>(options_.max_sessions)) {
      const SessionBusy busy{static_cast<uint32_t>(sessions.size()),
                             static_cast<uint32_t>(options_.max_sessions)};
      return refuse(connection, busy, version,
                    absl::StrFormat("%s (limit %d)", BusyText(busy), options_.max_sessions));
    }
    SessionThread& session = sessions.emplace_back();
    session.thread =
        std::thread([this, &session, control = std::move(connection.fd), peer = connection.peer,
                     request = *request, version, cancel_fd = cancel.get(),
                     wake_fd = wake.get()]() mutable {
          RunSession(std::move(control), peer, request, version, cancel_fd);
          session.done.store(true);
          Signal(wake_fd);
        });
  };
  // Reads what `connection` has; false when it is finished with (dispatched, refused,
  // or gone), true when it still waits for bytes.
  auto read_request = [&](PendingConnection& connection) {
    const std::string who = connection.peer.ToString();
    while (true) {
      const ssize_t n = recv(connection.fd.get(), connection.bytes.data() + connection.have,
                             connection.bytes.size() - connection.have, MSG_DONTWAIT);
      if (n == 0) {
        Log(absl::StrFormat("%s: closed the control connection after %u of %u bytes", who,
                            connection.have, connection.bytes.size()));
        return false;
      }
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
        Log(absl::StrCat(who, ": ", platform::ErrnoToStatus(errno, "recv request").message()));
        return false;
      }
      connection.have += static_cast<size_t>(n);
      if (connection.have < connection.bytes.size()) continue;
      if (connection.bytes.size() == kControlHeaderBytes) {
        absl::StatusOr<ControlHeader> header = DecodeControlHeader(connection.bytes);
        if (!header.ok()) {
          // Every version reads version 1: the oldest is the one the peer surely speaks.
          refuse_with_error(connection, kMinControlVersion, header.status().message());
          return false;
        }
        connection.bytes.resize(kControlHeaderBytes + header->payload_length);
        if (header->payload_length > 0) continue;
      }
      absl::StatusOr<ControlHeader> header =
          DecodeControlHeader(absl::MakeConstSpan(connection.bytes).first(kControlHeaderBytes));
      dispatch(connection, header.ok() ? header->version : kMinControlVersion);
      return false;
    }
  };

  while (true) {
    join_finished();
    absl::Time now = absl::Now();
    const bool poll_listener = now >= listener_paused_until;
    absl::Time next = poll_listener ? absl::InfiniteFuture() : listener_paused_until;
    std::vector<pollfd> fds = {{stop_fd, POLLIN, 0},
                               {wake.get(), POLLIN, 0},
                               {poll_listener ? listener_.get() : -1, POLLIN, 0}};
    constexpr size_t kFixed = 3;
    for (const PendingConnection& connection : pending) {
      fds.push_back({connection.fd.get(), POLLIN, 0});
      next = std::min(next, connection.deadline);
    }
    for (const ClosingConnection& connection : closing) {
      fds.push_back({connection.fd.get(), POLLIN, 0});
      next = std::min(next, connection.deadline);
    }
    if (poll(fds.data(), fds.size(), TimeoutMs(next, now)) < 0) {
      if (errno == EINTR) continue;
      result = platform::ErrnoToStatus(errno, "poll");
      break;
    }
    if (fds[0].revents != 0) break;
    if (fds[1].revents != 0) Drain(wake.get());
    now = absl::Now();

    // Requests, in the order the connections came; each one read or timed out.
    std::deque<PendingConnection> still_pending;
    for (size_t i = 0; i < pending.size(); ++i) {
      PendingConnection& connection = pending[i];
      bool waiting = true;
      if (fds[kFixed + i].revents != 0) waiting = read_request(connection);
      if (waiting && now >= connection.deadline) {
        refuse_with_error(connection, kMinControlVersion,
                          absl::StrCat("no whole request within ",
                                       absl::FormatDuration(options_.request_timeout)));
        waiting = false;
      }
      if (waiting) still_pending.push_back(std::move(connection));
    }
    // Refused connections: closed at the client's end of file, an error, or the deadline.
    // (`closing` may have grown above; the new ones are past the polled range.)
    const size_t polled_closing = fds.size() - kFixed - pending.size();
    std::deque<ClosingConnection> still_closing;
    for (size_t i = 0; i < closing.size(); ++i) {
      ClosingConnection& connection = closing[i];
      bool open = now < connection.deadline;
      if (open && i < polled_closing && fds[kFixed + pending.size() + i].revents != 0) {
        char discard[512];
        const ssize_t n = recv(connection.fd.get(), discard, sizeof(discard), MSG_DONTWAIT);
        open = n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN));
      }
      if (open) still_closing.push_back(std::move(connection));
    }
    pending = std::move(still_pending);
    closing = std::move(still_closing);
    // As many lingering closes as waiting connections at most; the oldest go first.
    while (closing.size() > static_cast<size_t>(options_.max_pending)) closing.pop_front();

    if (!poll_listener || fds[2].revents == 0) continue;
    if ((fds[2].revents & (POLLERR | POLLNVAL)) != 0) {
      result = absl::InternalError("the listening socket failed");
      break;
    }
    for (int accepted = 0; accepted < kAcceptsPerRound; ++accepted) {
      PendingConnection connection;
      connection.peer.length = sizeof(connection.peer.storage);
      connection.fd.reset(accept4(listener_.get(), connection.peer.get(), &connection.peer.length,
                                  SOCK_CLOEXEC | SOCK_NONBLOCK));
      if (!connection.fd.valid()) {
        const int error = errno;
        if (error == EINTR || error == ECONNABORTED) continue;
        if (error == EAGAIN || error == EWOULDBLOCK) break;
        Log(platform::ErrnoToStatus(error, "accept4").message());
        if (error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM) {
          // Room for the next one: the connection waiting longest is the likeliest idle.
          if (!pending.empty()) pending.pop_front();
          listener_paused_until = now + kAcceptBackoff;
          break;
        }
        result = platform::ErrnoToStatus(error, "accept4");
        break;
      }
      if (absl::Status s = SetKeepAlive(connection.fd.get()); !s.ok()) {
        Log(absl::StrCat(connection.peer.ToString(), ": ", s.message()));
      }
      connection.deadline = now + options_.request_timeout;
      connection.bytes.assign(kControlHeaderBytes, '\0');
      if (pending.size() >= static_cast<size_t>(options_.max_pending)) {
        Log(absl::StrFormat("%s: closed: %d connections waiting for their request",
                            pending.front().peer.ToString(), options_.max_pending));
        pending.pop_front();
      }
      pending.push_back(std::move(connection));
    }
    if (!result.ok()) break;
  }

  // Every session sees `cancel` (and the data port's waiters `stopping_`) and ends;
  // joining them closes their sockets. `pending` and `closing` close as they go.
  Signal(cancel.get());
  {
    absl::MutexLock lock(&data_port_mutex_);
    stopping_ = true;
  }
  for (SessionThread& session : sessions) session.thread.join();
  return result;
}

bool EchoServer::AcquireTcpDataPort(absl::Time deadline) {
  absl::MutexLock lock(&data_port_mutex_);
  auto free_or_stopping = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(data_port_mutex_) {
    return !tcp_data_port_held_ || stopping_;
  };
  data_port_mutex_.AwaitWithDeadline(absl::Condition(&free_or_stopping), deadline);
  if (stopping_ || tcp_data_port_held_) return false;
  tcp_data_port_held_ = true;
  return true;
}

void EchoServer::ReleaseTcpDataPort() {
  absl::MutexLock lock(&data_port_mutex_);
  tcp_data_port_held_ = false;
}

void EchoServer::Refuse(UniqueFd control, const std::string& who, absl::string_view why,
                        uint16_t version, int cancel_fd) {
  Log(absl::StrCat(who, ": refused: ", why));
  WriteControlMessage(control.get(), SessionError{std::string(why)}, absl::Now() + kReplyTimeout,
                      cancel_fd, version)
      .IgnoreError();  // the client may be gone already; it is refused either way
  LingeringClose(std::move(control), cancel_fd);
}

void EchoServer::RunSession(UniqueFd control, const InetAddress& client,
                            const SessionRequest& request, uint16_t version, int cancel_fd) {
  const std::string who = client.ToString();
  // A fixed TCP data port takes one listener at a time: held from the answer to the
  // data connection.
  const bool holds_data_port = !request.transport->is_udp() && options_.data_port != 0;
  if (holds_data_port && !AcquireTcpDataPort(absl::Now() + options_.data_accept_timeout)) {
    Refuse(std::move(control), who,
           absl::StrFormat("the TCP data port %d is busy with other sessions' handshakes; try "
                           "again later",
                           options_.data_port),
           version, cancel_fd);
    return;
  }
  struct Release {
    EchoServer* server;
    bool held;
    ~Release() {
      if (held) server->ReleaseTcpDataPort();
    }
  } release{this, holds_data_port};

  InetAddress bound;
  absl::StatusOr<UniqueFd> data =
      OpenDataSocket(control.get(), client, request, options_.data_port, &bound);
  if (!data.ok()) {
    Refuse(std::move(control), who, absl::StrCat("no data socket: ", data.status().message()),
           version, cancel_fd);
    return;
  }
  if (absl::Status s = WriteControlMessage(control.get(), SessionAccept{bound.port()},
                                           absl::Now() + kReplyTimeout, cancel_fd, version);
      !s.ok()) {
    if (!absl::IsCancelled(s)) Log(absl::StrCat(who, ": ", s.message()));
    return;
  }
  std::unique_ptr<transport::Endpoint> endpoint;
  const std::string name(request.transport->name);
  const size_t limit = RemoteMaxMessageBytes(*request.transport);
  if (request.transport->is_udp()) {
    endpoint = std::make_unique<transport::DatagramSocketEndpoint>(std::move(*data), name, limit);
  } else {
    absl::StatusOr<UniqueFd> connection = AcceptDataConnection(
        data->get(), client, absl::Now() + options_.data_accept_timeout, cancel_fd);
    data->reset();  // one data connection per session: stop listening at once
    if (release.held) {
      ReleaseTcpDataPort();
      release.held = false;
    }
    if (absl::IsCancelled(connection.status())) return;
    if (!connection.ok()) {
      Log(absl::StrCat(who, ": no data connection: ", connection.status().message()));
      return;
    }
    endpoint =
        std::make_unique<transport::StreamSocketEndpoint>(std::move(*connection), name, limit);
  }
  const int data_fd = request.transport->is_udp()
                          ? static_cast<transport::DatagramSocketEndpoint&>(*endpoint).fd()
                          : static_cast<transport::StreamSocketEndpoint&>(*endpoint).fd();
  Log(absl::StrFormat("%s: session: %s; data port %d", who, Describe(request), bound.port()));
  Echo(control.get(), *endpoint, data_fd, who, cancel_fd);
}

void EchoServer::Echo(int control_fd, transport::Endpoint& endpoint, int data_fd,
                      const std::string& who, int cancel_fd) {
  UniqueFd done(eventfd(0, EFD_CLOEXEC));
  if (!done.valid()) {
    Log(absl::StrCat(who, ": ", platform::ErrnoToStatus(errno, "eventfd").message()));
    return;
  }
  absl::Status peer_status;  // written by the echo thread, read after join()
  std::thread echo([&endpoint, &peer_status, &done] {
    peer_status = transport::RunEchoPeer(endpoint, transport::EchoPeerOptions());
    Signal(done.get());
  });
  const char* why = nullptr;
  bool peer_returned = false;
  while (why == nullptr) {
    pollfd fds[3] = {{cancel_fd, POLLIN, 0}, {done.get(), POLLIN, 0}, {control_fd, POLLIN, 0}};
    if (poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      why = "poll failed";
    } else if (fds[0].revents != 0) {
      why = "the server is stopping";
    } else if (fds[1].revents != 0) {
      why = "the echo peer returned";
      peer_returned = true;
    } else if (fds[2].revents != 0) {
      // End of file, or bytes the protocol does not allow here: either way, over.
      why = "the client closed the control connection";
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
}

}  // namespace tickbench::remote
