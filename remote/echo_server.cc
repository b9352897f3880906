#include "remote/echo_server.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "platform/errno_status.h"
#include "remote/control_channel.h"
#include "remote/control_loop.h"
#include "remote/control_protocol.h"
#include "remote/role_options.h"
#include "remote/server_sockets.h"
#include "transport/echo/echo_peer.h"
#include "transport/sockets/socket_endpoint.h"
#include "transport/sockets/udp_transport.h"

namespace tickbench::remote {
namespace {

using transport::InetAddress;
using transport::UniqueFd;

// Connections the kernel completes before the poll loop accepts them; the loop accepts
// as fast as they come, so this only absorbs bursts.
constexpr int kControlBacklog = 128;
// A session thread's answers are ~100 bytes into an empty send buffer: they go at once
// unless the client is gone, and a gone client must not hold the session up.
constexpr absl::Duration kReplyTimeout = absl::Seconds(1);

std::string Describe(const SessionRequest& request) {
  return absl::StrFormat("%s, %u sizes of %u..%u bytes", request.transport->name,
                         request.size_count, request.min_message_bytes, request.max_message_bytes);
}

// The echo peer's endpoint on a session's data socket: the connected UDP socket, or the
// client's TCP data connection.
std::unique_ptr<transport::Endpoint> SessionEndpoint(UniqueFd data,
                                                     const transport::TransportInfo& transport) {
  const std::string name(transport.name);
  const size_t limit = RemoteMaxMessageBytes(transport);
  if (transport.is_udp()) {
    return std::make_unique<transport::DatagramSocketEndpoint>(std::move(data), name, limit);
  }
  return std::make_unique<transport::StreamSocketEndpoint>(std::move(data), name, limit);
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
  ControlLoopOptions loop_options;
  loop_options.request_timeout = options_.request_timeout;
  loop_options.max_sessions = options_.max_sessions;
  loop_options.max_pending = options_.max_pending;
  absl::StatusOr<std::unique_ptr<ControlLoop>> loop = ControlLoop::Create(
      listener_.get(), loop_options,
      [this](UniqueFd control, const InetAddress& client, const SessionRequest& request,
             uint16_t version, int cancel_fd) {
        RunSession(std::move(control), client, request, version, cancel_fd);
      },
      [this](absl::string_view line) { Log(line); });
  if (!loop.ok()) return loop.status();
  {
    absl::MutexLock lock(&data_port_mutex_);
    stopping_ = false;
  }
  const absl::Status result = (*loop)->Run(stop_fd);
  // Every session sees the cancel descriptor (and the data port's waiters `stopping_`) and
  // ends; joining them closes their sockets. The loop's waiting connections close with it.
  (*loop)->CancelSessions();
  {
    absl::MutexLock lock(&data_port_mutex_);
    stopping_ = true;
  }
  (*loop)->JoinSessions();
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
  UniqueFd data_socket =
      AwaitClient(std::move(*data), client, request.transport->is_udp(), who, cancel_fd, [&] {
        if (!release.held) return;
        ReleaseTcpDataPort();
        release.held = false;
      });
  if (!data_socket.valid()) return;
  const int data_fd = data_socket.get();
  std::unique_ptr<transport::Endpoint> endpoint =
      SessionEndpoint(std::move(data_socket), *request.transport);
  // Bounded in time whatever the transport: a client silent this long is gone.
  if (absl::Status s = endpoint->SetReceiveTimeout(options_.data_idle_timeout); !s.ok()) {
    Log(absl::StrCat(who, ": ", s.message()));
    return;
  }
  Log(absl::StrFormat("%s: session: %s; data port %d", who, Describe(request), bound.port()));
  Echo(control.get(), *endpoint, data_fd, who, cancel_fd);
}

UniqueFd EchoServer::AwaitClient(UniqueFd data, const InetAddress& client, bool udp,
                                 const std::string& who, int cancel_fd,
                                 const std::function<void()>& release_data_port) {
  const absl::Time deadline = absl::Now() + options_.data_accept_timeout;
  if (udp) {
    const absl::Status first = WaitReady(data.get(), POLLIN, deadline, cancel_fd);
    if (first.ok()) return data;
    if (!absl::IsCancelled(first)) {
      Log(absl::StrCat(who, ": no datagram within ",
                       absl::FormatDuration(options_.data_accept_timeout), "; session over"));
    }
    return UniqueFd();
  }
  absl::StatusOr<UniqueFd> connection =
      AcceptDataConnection(data.get(), client, deadline, cancel_fd);
  data.reset();  // one data connection per session: stop listening at once
  release_data_port();
  if (connection.ok()) return *std::move(connection);
  if (!absl::IsCancelled(connection.status())) {
    Log(absl::StrCat(who, ": no data connection: ", connection.status().message()));
  }
  return UniqueFd();
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
    SignalEventFd(done.get());
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
  if (peer_returned && absl::IsDeadlineExceeded(peer_status)) {
    Log(absl::StrCat(who, ": session over: the client sent nothing for ",
                     absl::FormatDuration(options_.data_idle_timeout)));
    return;
  }
  const bool peer_failed = peer_returned && !peer_status.ok();
  Log(absl::StrCat(who, ": session over: ", why,
                   peer_failed ? absl::StrCat(" (", peer_status.message(), ")") : ""));
}

}  // namespace tickbench::remote
