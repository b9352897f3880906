// The server role: the echo peer for clients on other hosts, several sessions at once.
//
// A session. The client connects to the control address and sends a request
// (control_protocol.h). The server opens a data socket on the address the client reached
// and ServerOptions::data_port:
//   * UDP: bound, and connected to the client's address and the port its request names,
//     so that it hears that client only (with a fixed data port, every session's socket
//     binds it, and the kernel gives each datagram to the socket connected to its sender);
//   * TCP: listening for one connection, taken only from the client's address, within
//     data_accept_timeout. With a fixed data port one session at a time listens on it,
//     from its answer to its data connection (milliseconds for a real client, at most
//     data_accept_timeout); a session whose turn does not come by then is refused.
// It answers "accept" with the data port, and runs the echo peer (transport/echo/echo_peer.h)
// on the data socket in a thread of its own. The session ends when the client closes
// the control connection, when the echo peer returns (the client sent kQuit, or an
// error), on a stop, or when the client is silent: a UDP session's first datagram must
// come within data_accept_timeout (as a TCP data connection), and a receive on the data
// socket waits at most data_idle_timeout (the echo peer's receive timeout: SO_RCVTIMEO
// on UDP, the read watchdog on TCP). Every session is so bounded in time, whatever its
// transport. The server then shuts the data socket down, which on Linux wakes
// the echo thread from a blocked recv() or send() on TCP and UDP alike, joins the
// thread, and closes both sockets.
//
// Threads and limits. Serve()'s own thread runs a poll loop that accepts connections and
// reads their requests without blocking on any one of them; a whole, valid request
// starts the session in a thread of its own (plus its echo thread), at most max_sessions
// at once: 1 + 2 x max_sessions threads in all. A request that arrives while max_sessions
// sessions are active is answered "busy" (control_protocol.h; an error message to a
// version-1 client) and its connection closed.
//
// Faults it survives: a request that is malformed, oversize, of an unknown protocol
// version, or not whole within request_timeout of the connection's accept is answered
// with an error and its connection closed; meanwhile the loop goes on accepting and
// reading every other connection, so idle connections hold up no one. At most
// max_pending connections wait for their request; one more closes the oldest of them
// (a real client sends its request at once, so the oldest is the likeliest to be idle).
// A client host that vanishes without closing is noticed by TCP keepalive on the idle
// control connection within about 25 s (10 s idle, then 3 probes 5 s apart).
//
// Every wait, in every thread, also polls a stop descriptor: Serve() returns within
// milliseconds of `stop_fd` becoming readable, with every session ended, every thread
// joined and every socket but the listener closed.
//
// Not promised: authentication or fairness between clients; a refused client's answer
// is sent without waiting (it fits the empty send buffer of a new connection) and may be
// lost if the client does not read it within 200 ms.
//
// Listening on an IPv6 address serves IPv6 clients only (IPV6_V6ONLY): an IPv4 client
// would arrive as ::ffff:a.b.c.d, and the data sockets would be of the wrong family.
#ifndef REMOTE_ECHO_SERVER_H_
#define REMOTE_ECHO_SERVER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "remote/control_protocol.h"
#include "transport/io/unique_fd.h"
#include "transport/sockets/inet_address.h"
#include "transport/transport.h"

namespace tickbench::remote {

struct ServerOptions {
  transport::InetAddress listen;  // the control address; port 0: the kernel picks one
  uint16_t data_port = 0;         // 0: the kernel picks one per session
  // A request must arrive whole within this long of the connection's accept (it is 32
  // bytes); the connection is then answered with an error and closed.
  absl::Duration request_timeout = absl::Seconds(2);
  // TCP: the client's data connection, UDP: its first datagram, must arrive within this
  // long of the accept.
  absl::Duration data_accept_timeout = absl::Seconds(5);
  // A session whose client sends nothing on the data socket for this long ends.
  absl::Duration data_idle_timeout = absl::Seconds(60);
  // Sessions served at once (at least 1); a request beyond them is answered "busy".
  int max_sessions = 8;
  // Connections accepted and still waiting for their request (at least 1); one more
  // closes the oldest.
  int max_pending = 256;
  // One line per session event (a session, its end, a refusal); empty: nothing is said.
  // Called from several threads, never from two at once.
  std::function<void(absl::string_view line)> log;
};

class EchoServer {
 public:
  // Binds and listens. FailedPrecondition when this host has no such address,
  // InvalidArgument for a max_sessions or max_pending below 1.
  static absl::StatusOr<std::unique_ptr<EchoServer>> Listen(const ServerOptions& options);

  EchoServer(const EchoServer&) = delete;
  EchoServer& operator=(const EchoServer&) = delete;

  // The control address, with the port the kernel gave when it was 0.
  const transport::InetAddress& address() const { return address_; }

  // Serves clients until `stop_fd` becomes readable (a pipe, an eventfd, a signalfd; it
  // is polled, never read), then returns OK with every session ended, every thread it
  // started joined and every socket but the listener closed. An error only when the
  // listening socket itself fails (after the same clean-up). Call it once.
  absl::Status Serve(int stop_fd);

 private:
  EchoServer(ServerOptions options, transport::UniqueFd listener, transport::InetAddress address);

  // One session, from a valid request to its end, in a thread of its own; `cancel_fd`
  // becomes readable when the server stops. Answers in `version`.
  void RunSession(transport::UniqueFd control, const transport::InetAddress& client,
                  const SessionRequest& request, uint16_t version, int cancel_fd);
  // The session's data socket once the client has shown up on it within
  // data_accept_timeout: `data` when its first datagram has come (UDP), the connection
  // accepted on the listener `data` (TCP; the listener is closed then and
  // `release_data_port` called). Invalid when the client did not (logged) or the server
  // stops.
  transport::UniqueFd AwaitClient(transport::UniqueFd data, const transport::InetAddress& client,
                                  bool udp, const std::string& who, int cancel_fd,
                                  const std::function<void()>& release_data_port);
  // Echoes on the data socket until the session ends.
  void Echo(int control_fd, transport::Endpoint& endpoint, int data_fd, const std::string& who,
            int cancel_fd);
  // Answers with an error, waiting at most ~1 s, and closes the connection.
  void Refuse(transport::UniqueFd control, const std::string& who, absl::string_view why,
              uint16_t version, int cancel_fd);
  // The fixed TCP data port for one session's handshake: false when the server stops or
  // it is not free by `deadline`.
  bool AcquireTcpDataPort(absl::Time deadline);
  void ReleaseTcpDataPort();
  void Log(absl::string_view line) const;

  ServerOptions options_;
  transport::UniqueFd listener_;
  transport::InetAddress address_;
  mutable absl::Mutex log_mutex_;
  absl::Mutex data_port_mutex_;
  bool tcp_data_port_held_ ABSL_GUARDED_BY(data_port_mutex_) = false;
  bool stopping_ ABSL_GUARDED_BY(data_port_mutex_) = false;
};

}  // namespace tickbench::remote

#endif  // REMOTE_ECHO_SERVER_H_
