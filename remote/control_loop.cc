#include "remote/control_loop.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/types/span.h"
#include "platform/errno_status.h"
#include "remote/server_sockets.h"

namespace tickbench::remote {
namespace {

using transport::UniqueFd;

// Connections accepted per wake-up of the loop, so that a flood of them does not starve
// the requests of those already accepted.
constexpr int kAcceptsPerRound = 64;
// After accept4() fails for want of descriptors or memory, how long the loop leaves the
// listener alone (it stays readable, and would otherwise spin).
constexpr absl::Duration kAcceptBackoff = absl::Milliseconds(100);

// poll()'s timeout until `deadline`, rounded up; -1 for none.
int TimeoutMs(absl::Time deadline, absl::Time now) {
  if (deadline == absl::InfiniteFuture()) return -1;
  if (deadline <= now) return 0;
  return static_cast<int>(std::min<int64_t>(
      absl::ToInt64Milliseconds(absl::Ceil(deadline - now, absl::Milliseconds(1))), 60'000));
}

}  // namespace

absl::StatusOr<std::unique_ptr<ControlLoop>> ControlLoop::Create(int listener,
                                                                 ControlLoopOptions options,
                                                                 SessionFunction run_session,
                                                                 LogFunction log) {
  UniqueFd wake(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  UniqueFd cancel(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake.valid() || !cancel.valid()) return platform::ErrnoToStatus(errno, "eventfd");
  return std::unique_ptr<ControlLoop>(new ControlLoop(listener, options, std::move(run_session),
                                                      std::move(log), std::move(wake),
                                                      std::move(cancel)));
}

ControlLoop::ControlLoop(int listener, ControlLoopOptions options, SessionFunction run_session,
                         LogFunction log, UniqueFd wake, UniqueFd cancel)
    : listener_(listener),
      options_(options),
      run_session_(std::move(run_session)),
      log_(std::move(log)),
      wake_(std::move(wake)),
      cancel_(std::move(cancel)) {}

ControlLoop::~ControlLoop() {
  if (sessions_.empty()) return;
  CancelSessions();
  JoinSessions();
}

void ControlLoop::CancelSessions() { SignalEventFd(cancel_.get()); }

void ControlLoop::JoinSessions() {
  for (SessionThread& session : sessions_) session.thread.join();
  sessions_.clear();
}

void ControlLoop::JoinFinished() {
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    if (it->done.load()) {
      it->thread.join();
      it = sessions_.erase(it);
    } else {
      ++it;
    }
  }
}

void ControlLoop::Refuse(PendingConnection& connection, const ControlMessage& answer,
                         uint16_t version, absl::string_view why) {
  log_(absl::StrCat(connection.peer.ToString(), ": refused: ", why));
  const std::string bytes = EncodeControlMessage(answer, version);
  if (send(connection.fd.get(), bytes.data(), bytes.size(), MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
    return;  // the client is gone: close at once
  }
  shutdown(connection.fd.get(), SHUT_WR);
  closing_.push_back({std::move(connection.fd), absl::Now() + kLingerTimeout});
}

void ControlLoop::RefuseWithError(PendingConnection& connection, uint16_t version,
                                  absl::string_view why) {
  Refuse(connection, SessionError{std::string(why)}, version, why);
}

void ControlLoop::Dispatch(PendingConnection& connection, uint16_t version) {
  absl::StatusOr<ControlMessage> message = DecodeControlMessage(connection.bytes);
  if (!message.ok()) return RefuseWithError(connection, version, message.status().message());
  const SessionRequest* request = std::get_if<SessionRequest>(&*message);
  if (request == nullptr) {
    return RefuseWithError(connection, version, "expected a session request");
  }
  const bool ipv6_client = connection.peer.storage.ss_family == AF_INET6;
  if (request->transport->is_ipv6() != ipv6_client) {
    return RefuseWithError(
        connection, version,
        absl::StrCat(request->transport->name,
                     " needs a control connection of the same IP version; this one is ",
                     ipv6_client ? "IPv6" : "IPv4"));
  }
  JoinFinished();
  if (sessions_.size() >= static_cast<size_t>(options_.max_sessions)) {
    const SessionBusy busy{static_cast<uint32_t>(sessions_.size()),
                           static_cast<uint32_t>(options_.max_sessions)};
    return Refuse(connection, busy, version,
                  absl::StrFormat("%s (limit %d)", BusyText(busy), options_.max_sessions));
  }
  SessionThread& session = sessions_.emplace_back();
  session.thread = std::thread([this, &session, control = std::move(connection.fd),
                                peer = connection.peer, request = *request, version,
                                cancel_fd = cancel_.get(), wake_fd = wake_.get()]() mutable {
    run_session_(std::move(control), peer, request, version, cancel_fd);
    session.done.store(true);
    SignalEventFd(wake_fd);
  });
}

bool ControlLoop::ReadRequest(PendingConnection& connection) {
  const std::string who = connection.peer.ToString();
  while (true) {
    const ssize_t n = recv(connection.fd.get(), connection.bytes.data() + connection.have,
                           connection.bytes.size() - connection.have, MSG_DONTWAIT);
    if (n == 0) {
      log_(absl::StrFormat("%s: closed the control connection after %u of %u bytes", who,
                           connection.have, connection.bytes.size()));
      return false;
    }
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
      log_(absl::StrCat(who, ": ", platform::ErrnoToStatus(errno, "recv request").message()));
      return false;
    }
    connection.have += static_cast<size_t>(n);
    if (connection.have < connection.bytes.size()) continue;
    if (connection.bytes.size() == kControlHeaderBytes) {
      absl::StatusOr<ControlHeader> header = DecodeControlHeader(connection.bytes);
      if (!header.ok()) {
        // Every version reads version 1: the oldest is the one the peer surely speaks.
        RefuseWithError(connection, kMinControlVersion, header.status().message());
        return false;
      }
      connection.bytes.resize(kControlHeaderBytes + header->payload_length);
      if (header->payload_length > 0) continue;
    }
    absl::StatusOr<ControlHeader> header =
        DecodeControlHeader(absl::MakeConstSpan(connection.bytes).first(kControlHeaderBytes));
    Dispatch(connection, header.ok() ? header->version : kMinControlVersion);
    return false;
  }
}

void ControlLoop::ServeConnections(absl::Span<const short> revents, absl::Time now) {
  // Requests, in the order the connections came; each one read or timed out.
  const size_t polled_pending = pending_.size();
  const size_t polled_closing = closing_.size();
  std::deque<PendingConnection> still_pending;
  for (size_t i = 0; i < pending_.size(); ++i) {
    PendingConnection& connection = pending_[i];
    bool waiting = true;
    if (revents[i] != 0) waiting = ReadRequest(connection);
    if (waiting && now >= connection.deadline) {
      RefuseWithError(
          connection, kMinControlVersion,
          absl::StrCat("no whole request within ", absl::FormatDuration(options_.request_timeout)));
      waiting = false;
    }
    if (waiting) still_pending.push_back(std::move(connection));
  }
  // Refused connections: closed at the client's end of file, an error, or the deadline.
  // (`closing_` may have grown above; the new ones are past the polled range.)
  std::deque<ClosingConnection> still_closing;
  for (size_t i = 0; i < closing_.size(); ++i) {
    ClosingConnection& connection = closing_[i];
    bool open = now < connection.deadline;
    if (open && i < polled_closing && revents[polled_pending + i] != 0) {
      char discard[512];
      const ssize_t n = recv(connection.fd.get(), discard, sizeof(discard), MSG_DONTWAIT);
      open = n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN));
    }
    if (open) still_closing.push_back(std::move(connection));
  }
  pending_ = std::move(still_pending);
  closing_ = std::move(still_closing);
  // As many lingering closes as waiting connections at most; the oldest go first.
  while (closing_.size() > static_cast<size_t>(options_.max_pending)) closing_.pop_front();
}

absl::Status ControlLoop::AcceptConnections(absl::Time now) {
  for (int accepted = 0; accepted < kAcceptsPerRound; ++accepted) {
    PendingConnection connection;
    connection.peer.length = sizeof(connection.peer.storage);
    connection.fd.reset(accept4(listener_, connection.peer.get(), &connection.peer.length,
                                SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (!connection.fd.valid()) {
      const int error = errno;
      if (error == EINTR || error == ECONNABORTED) continue;
      if (error == EAGAIN || error == EWOULDBLOCK) break;
      log_(platform::ErrnoToStatus(error, "accept4").message());
      if (error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM) {
        // Room for the next one: the connection waiting longest is the likeliest idle.
        if (!pending_.empty()) pending_.pop_front();
        listener_paused_until_ = now + kAcceptBackoff;
        break;
      }
      return platform::ErrnoToStatus(error, "accept4");
    }
    if (absl::Status s = SetKeepAlive(connection.fd.get()); !s.ok()) {
      log_(absl::StrCat(connection.peer.ToString(), ": ", s.message()));
    }
    connection.deadline = now + options_.request_timeout;
    connection.bytes.assign(kControlHeaderBytes, '\0');
    if (pending_.size() >= static_cast<size_t>(options_.max_pending)) {
      log_(absl::StrFormat("%s: closed: %d connections waiting for their request",
                           pending_.front().peer.ToString(), options_.max_pending));
      pending_.pop_front();
    }
    pending_.push_back(std::move(connection));
  }
  return absl::OkStatus();
}

absl::Status ControlLoop::Run(int stop_fd) {
  while (true) {
    JoinFinished();
    absl::Time now = absl::Now();
    const bool poll_listener = now >= listener_paused_until_;
    absl::Time next = poll_listener ? absl::InfiniteFuture() : listener_paused_until_;
    std::vector<pollfd> fds = {{stop_fd, POLLIN, 0},
                               {wake_.get(), POLLIN, 0},
                               {poll_listener ? listener_ : -1, POLLIN, 0}};
    constexpr size_t kFixed = 3;
    for (const PendingConnection& connection : pending_) {
      fds.push_back({connection.fd.get(), POLLIN, 0});
      next = std::min(next, connection.deadline);
    }
    for (const ClosingConnection& connection : closing_) {
      fds.push_back({connection.fd.get(), POLLIN, 0});
      next = std::min(next, connection.deadline);
    }
    if (poll(fds.data(), fds.size(), TimeoutMs(next, now)) < 0) {
      if (errno == EINTR) continue;
      return platform::ErrnoToStatus(errno, "poll");
    }
    if (fds[0].revents != 0) return absl::OkStatus();
    if (fds[1].revents != 0) DrainEventFd(wake_.get());
    now = absl::Now();
    std::vector<short> revents;
    for (size_t i = kFixed; i < fds.size(); ++i) revents.push_back(fds[i].revents);
    ServeConnections(revents, now);

    if (!poll_listener || fds[2].revents == 0) continue;
    if ((fds[2].revents & (POLLERR | POLLNVAL)) != 0) {
      return absl::InternalError("the listening socket failed");
    }
    if (absl::Status s = AcceptConnections(now); !s.ok()) return s;
  }
}

}  // namespace tickbench::remote
