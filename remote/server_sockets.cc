#include "remote/server_sockets.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "platform/errno_status.h"
#include "remote/control_channel.h"
#include "remote/role_options.h"
#include "transport/sockets/socket_endpoint.h"
#include "transport/sockets/udp_transport.h"

namespace tickbench::remote {
namespace {

using transport::InetAddress;
using transport::UniqueFd;

// Keepalive on the idle control connection: a vanished client host is noticed after
// 10 s + 3 x 5 s = 25 s.
constexpr int kKeepAliveIdleSeconds = 10;
constexpr int kKeepAliveIntervalSeconds = 5;
constexpr int kKeepAliveProbes = 3;

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

}  // namespace

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

void SignalEventFd(int event_fd) {
  const uint64_t one = 1;
  while (write(event_fd, &one, sizeof(one)) < 0 && errno == EINTR) {
  }
}

void DrainEventFd(int event_fd) {
  uint64_t count;
  while (read(event_fd, &count, sizeof(count)) < 0 && errno == EINTR) {
  }
}

}  // namespace tickbench::remote
