// Control messages on a connected stream socket, each read and write bounded by a
// deadline, and the wait that bounds them.
//
// Every wait here is poll(2) on the socket plus an optional cancel descriptor (a stop
// pipe, eventfd or signalfd): a silent or trickling peer costs at most the time to the
// deadline, and a readable cancel descriptor ends the wait at once. The process-wide stop
// flag (platform/stop_signal.h) ends it too, with Cancelled: a SIGINT or SIGTERM caught
// by its handler interrupts poll (EINTR), and a signal that lands between two calls is
// seen within kStopCheckInterval, because no single poll waits longer than that.
// The socket may be blocking; the I/O calls pass MSG_DONTWAIT and MSG_NOSIGNAL, so a
// peer gone away is an error, never SIGPIPE.
#ifndef REMOTE_CONTROL_CHANNEL_H_
#define REMOTE_CONTROL_CHANNEL_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "remote/control_protocol.h"

namespace tickbench::remote {

// The longest single poll: how late a stop request that arrives between two system calls
// may be seen.
inline constexpr absl::Duration kStopCheckInterval = absl::Milliseconds(100);

// Waits until `fd` reports one of `events` (or an error or hang-up, which the next I/O
// call then reports). DeadlineExceeded at `deadline` (absl::InfiniteFuture() waits for
// ever); Cancelled as soon as `cancel_fd` (-1: none) is readable or a stop is requested
// (platform::StopRequested()), which take precedence.
absl::Status WaitReady(int fd, short events, absl::Time deadline, int cancel_fd = -1);

// Sends all of `message`, encoded in `version`, before `deadline`; Cancelled as WaitReady.
absl::Status WriteControlMessage(int fd, const ControlMessage& message, absl::Time deadline,
                                 int cancel_fd = -1, uint16_t version = kControlVersion);

// Reads one message: the 12-byte header first, checked by DecodeControlHeader() before any
// payload byte is read, then the payload. InvalidArgument for a malformed message,
// DeadlineExceeded when it has not arrived whole by `deadline`, Cancelled when
// `cancel_fd` becomes readable or a stop is requested first, Unavailable when the peer
// closes the connection.
absl::StatusOr<ControlMessage> ReadControlMessage(int fd, absl::Time deadline, int cancel_fd = -1);

}  // namespace tickbench::remote

#endif  // REMOTE_CONTROL_CHANNEL_H_
