// Sockets and descriptors of the echo server (echo_server.h): the listeners, the data
// socket of a session, the lingering close of a refused connection, and the eventfds that
// wake its threads. For echo_server and its poll loop only; not a general socket library.
//
// LingeringClose, SignalEventFd and DrainEventFd are best effort and report nothing.
// Only LingeringClose (at most kLingerTimeout) and AcceptDataConnection (until its
// deadline) wait; both also return when their cancel descriptor becomes readable.
#ifndef REMOTE_SERVER_SOCKETS_H_
#define REMOTE_SERVER_SOCKETS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "remote/control_protocol.h"
#include "transport/io/unique_fd.h"
#include "transport/sockets/inet_address.h"

namespace tickbench::remote {

// After a refusal, how long to read and discard what the client still sends so that the
// close is a FIN after our answer, not a reset that could overtake it.
inline constexpr absl::Duration kLingerTimeout = absl::Milliseconds(200);

// setsockopt() of an int option; `what` names it in the error.
absl::Status SetIntOption(int fd, int level, int name, int value, const char* what);

// A non-blocking listening TCP socket on `address` (SO_REUSEADDR; IPV6_V6ONLY for IPv6),
// its bound address in `bound`. FailedPrecondition when this host has no such address.
absl::StatusOr<transport::UniqueFd> ListeningSocket(const transport::InetAddress& address,
                                                    int backlog, transport::InetAddress* bound);

// Closes after the peer has read what we sent: FIN first, then discard its bytes until
// it closes too, kLingerTimeout passes, or `cancel_fd` becomes readable.
void LingeringClose(transport::UniqueFd fd, int cancel_fd);

// TCP keepalive on the idle control connection: a vanished client host is noticed after
// 10 s + 3 x 5 s = 25 s.
absl::Status SetKeepAlive(int fd);

// The data socket for `request`, on the address the client reached (`control`'s local
// address) and `data_port` (0: the kernel picks): UDP connected to the client's port the
// request names, or a TCP listener. Its bound address in `bound`.
absl::StatusOr<transport::UniqueFd> OpenDataSocket(int control,
                                                   const transport::InetAddress& client,
                                                   const SessionRequest& request,
                                                   uint16_t data_port,
                                                   transport::InetAddress* bound);

// The client's TCP data connection on `listener`, with TCP_NODELAY; connections from
// other hosts than `client`'s are closed unanswered. DeadlineExceeded after `deadline`,
// Cancelled when `stop_fd` becomes readable (control_channel.h's WaitReady).
absl::StatusOr<transport::UniqueFd> AcceptDataConnection(int listener,
                                                         const transport::InetAddress& client,
                                                         absl::Time deadline, int stop_fd);

// Adds 1 to the eventfd `event_fd` (makes it readable), retrying on EINTR.
void SignalEventFd(int event_fd);
// Reads the eventfd `event_fd` back to zero, retrying on EINTR.
void DrainEventFd(int event_fd);

}  // namespace tickbench::remote

#endif  // REMOTE_SERVER_SOCKETS_H_
