// The echo server's poll loop (echo_server.h): on its one thread it accepts control
// connections, reads their requests without blocking on any one of them, and starts each
// whole, valid request's session in a thread of its own; it refuses the rest with an
// answer and a lingering close. For EchoServer only.
//
// Promised: at most max_sessions sessions run at once (a request beyond them is answered
// "busy"); at most max_pending connections wait for their request (one more closes the
// oldest); a request not whole within request_timeout of its accept is answered with an
// error; Run() returns within milliseconds of `stop_fd` becoming readable. The sessions
// still run when Run() returns: CancelSessions() tells them to end, JoinSessions() waits.
// Not promised: fairness between clients; a refusal's answer is sent without waiting.
#ifndef REMOTE_CONTROL_LOOP_H_
#define REMOTE_CONTROL_LOOP_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "remote/control_protocol.h"
#include "transport/io/unique_fd.h"
#include "transport/sockets/inet_address.h"

namespace tickbench::remote {

struct ControlLoopOptions {
  absl::Duration request_timeout = absl::Seconds(2);
  int max_sessions = 8;   // at least 1
  int max_pending = 256;  // at least 1
};

class ControlLoop {
 public:
  // One session, in a thread of its own, from a valid request (answered in `version`) to
  // its end; it must end soon after `cancel_fd` becomes readable.
  using SessionFunction =
      std::function<void(transport::UniqueFd control, const transport::InetAddress& client,
                         const SessionRequest& request, uint16_t version, int cancel_fd)>;
  // One line per event; called from the loop's thread only.
  using LogFunction = std::function<void(absl::string_view line)>;

  // `listener`: a non-blocking listening socket, owned by the caller and open as long as
  // the loop. An error only when its eventfds cannot be made.
  static absl::StatusOr<std::unique_ptr<ControlLoop>> Create(int listener,
                                                             ControlLoopOptions options,
                                                             SessionFunction run_session,
                                                             LogFunction log);
  ControlLoop(const ControlLoop&) = delete;
  ControlLoop& operator=(const ControlLoop&) = delete;
  // Cancels and joins the sessions still running.
  ~ControlLoop();

  // Serves until `stop_fd` becomes readable (it is polled, never read): OK then; an error
  // when poll() or the listening socket fails.
  absl::Status Run(int stop_fd);
  // Makes every session's `cancel_fd` readable.
  void CancelSessions();
  // Waits for every session thread.
  void JoinSessions();

 private:
  // A connection accepted and waiting for its request.
  struct PendingConnection {
    transport::UniqueFd fd;
    transport::InetAddress peer;
    absl::Time deadline;
    std::string bytes;  // sized to what is wanted: the header, then header and payload
    size_t have = 0;    // bytes received so far
  };
  // A refused connection, its answer sent and its write side shut, closed when the client
  // closes too or at `deadline` (see LingeringClose).
  struct ClosingConnection {
    transport::UniqueFd fd;
    absl::Time deadline;
  };
  // A session's thread; `done` is set as its last act, before it signals the loop.
  struct SessionThread {
    std::thread thread;
    std::atomic<bool> done{false};
  };

  ControlLoop(int listener, ControlLoopOptions options, SessionFunction run_session,
              LogFunction log, transport::UniqueFd wake, transport::UniqueFd cancel);

  void JoinFinished();
  // Answers without waiting (a new connection's send buffer is empty, and every answer is
  // smaller than it), then closes as LingeringClose does, in the loop.
  void Refuse(PendingConnection& connection, const ControlMessage& answer, uint16_t version,
              absl::string_view why);
  void RefuseWithError(PendingConnection& connection, uint16_t version, absl::string_view why);
  // A whole request has arrived on `connection`: start its session, or refuse it.
  void Dispatch(PendingConnection& connection, uint16_t version);
  // Reads what `connection` has; false when it is finished with (dispatched, refused,
  // or gone), true when it still waits for bytes.
  bool ReadRequest(PendingConnection& connection);
  // After a poll: reads the pending connections whose `revents` are set (one per
  // connection, then one per closing connection, in order) and drops those finished.
  void ServeConnections(absl::Span<const short> revents, absl::Time now);
  // Accepts what the listener has, up to kAcceptsPerRound; an error when it fails.
  absl::Status AcceptConnections(absl::Time now);

  const int listener_;
  const ControlLoopOptions options_;
  const SessionFunction run_session_;
  const LogFunction log_;
  // `wake_`: a session ended (readable for the loop); `cancel_`: the server stops
  // (readable for every session thread).
  transport::UniqueFd wake_;
  transport::UniqueFd cancel_;
  std::deque<PendingConnection> pending_;  // oldest first
  std::deque<ClosingConnection> closing_;  // oldest first
  std::list<SessionThread> sessions_;
  absl::Time listener_paused_until_ = absl::InfinitePast();
};

}  // namespace tickbench::remote

#endif  // REMOTE_CONTROL_LOOP_H_
