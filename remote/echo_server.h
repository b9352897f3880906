// The server role: the echo peer for clients on other hosts, one client at a time.
//
// A session. The client connects to the control address and sends a request
// (control_protocol.h). The server opens a data socket on the address the client reached
// and ServerOptions::data_port:
//   * UDP: bound, and connected to the client's address and the port its request names,
//     so that it hears that client only;
//   * TCP: listening for one connection, taken only from the client's address, within
//     data_accept_timeout.
// It answers "accept" with the data port, and runs the echo peer (transport/echo_peer.h)
// on the data socket in a thread of its own. The session ends when the client closes
// the control connection, when the echo peer returns (the client sent kQuit, or an
// error), or on a stop request. The server then shuts the data socket down, which on
// Linux wakes the echo thread from a blocked recv() or send() on TCP and UDP alike,
// joins the thread, closes both sockets, and waits for the next client.
//
// Faults it survives: a request that is malformed, oversize, of another protocol version,
// or not whole within request_timeout is answered with an error, and the server goes on
// with the next client; so is a client that arrives during a session ("busy"). A client
// host that vanishes without closing is noticed by TCP keepalive on the idle control
// connection within about 25 s (10 s idle, then 3 probes 5 s apart).
//
// Every wait also polls the stop descriptor: Serve() returns within milliseconds of it
// becoming readable, whatever state it is in.
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
#include "absl/time/time.h"
#include "transport/inet_address.h"
#include "transport/transport.h"
#include "transport/unique_fd.h"

namespace tickbench::remote {

struct ServerOptions {
  transport::InetAddress listen;  // the control address; port 0: the kernel picks one
  uint16_t data_port = 0;         // 0: the kernel picks one per session
  // A request must arrive whole within this long of the connection (it is 32 bytes).
  absl::Duration request_timeout = absl::Seconds(5);
  // TCP: the client's data connection must arrive within this long of the accept.
  absl::Duration data_accept_timeout = absl::Seconds(5);
  // One line per session event (a session, its end, a refusal); empty: nothing is said.
  std::function<void(absl::string_view line)> log;
};

class EchoServer {
 public:
  // Binds and listens. FailedPrecondition when this host has no such address.
  static absl::StatusOr<std::unique_ptr<EchoServer>> Listen(const ServerOptions& options);

  EchoServer(const EchoServer&) = delete;
  EchoServer& operator=(const EchoServer&) = delete;

  // The control address, with the port the kernel gave when it was 0.
  const transport::InetAddress& address() const { return address_; }

  // Serves clients until `stop_fd` becomes readable (a pipe, an eventfd, a signalfd),
  // then returns OK with every socket of the session closed. An error only when the
  // listening socket itself fails.
  absl::Status Serve(int stop_fd);

 private:
  EchoServer(ServerOptions options, transport::UniqueFd listener, transport::InetAddress address);

  // One client, start to end. True when it ended because of a stop request.
  bool RunSession(transport::UniqueFd control, const transport::InetAddress& client, int stop_fd);
  // Echoes on the data socket until the session ends; true on a stop request.
  bool Echo(int control_fd, transport::Endpoint& endpoint, int data_fd, const std::string& who,
            int stop_fd);
  // Answers a client that arrives during a session, and closes its connection.
  void TurnAwayNewcomer(const std::string& serving);
  void Refuse(transport::UniqueFd control, const std::string& who, absl::string_view why);
  void Log(absl::string_view line) const;

  ServerOptions options_;
  transport::UniqueFd listener_;
  transport::InetAddress address_;
};

}  // namespace tickbench::remote

#endif  // REMOTE_ECHO_SERVER_H_
