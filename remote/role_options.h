// The role of one tickbench process (--role, --listen, --peer): measure on this host,
// serve clients from other hosts, or measure against such a server.
#ifndef REMOTE_ROLE_OPTIONS_H_
#define REMOTE_ROLE_OPTIONS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "transport/sockets/inet_address.h"

namespace tickbench::remote {

// The server's control port when --listen names none. Any free port works; the number
// has no meaning.
inline constexpr uint16_t kDefaultControlPort = 7478;

enum class Role {
  kLocal,   // the echo peer runs on this host, in a process of its own
  kServer,  // echo for clients on other hosts
  kClient,  // measure against a server on another host
};

struct RoleOptions {
  Role role = Role::kLocal;
  transport::InetAddress listen;  // kServer: the control address
  // kServer: the port data sockets bind, the control port + 1 so that a firewall needs
  // two fixed ports; 0 (the kernel picks one per session) when the control port is 0
  // or 65535.
  uint16_t data_port = 0;
  transport::InetAddress peer;  // kClient: the server's control address
};

// "ADDR:PORT" with a numeric IPv4 address, "[ADDR]:PORT" with a numeric IPv6 one; the
// port is 0..65535. InvalidArgument naming what is wrong otherwise (host names are not
// looked up: the address measured against should be the one the user wrote).
absl::StatusOr<transport::InetAddress> ParseHostPort(absl::string_view text);

// `address` with its port replaced by `port`.
transport::InetAddress WithPort(transport::InetAddress address, uint16_t port);

// From the flag values ("" = the flag was not given). InvalidArgument naming the flag for
// an unknown role, a malformed address, --role=client without --peer or with port 0,
// --listen without --role=server, and --peer without --role=client. --role=server
// listens on 127.0.0.1:kDefaultControlPort unless --listen says otherwise.
absl::StatusOr<RoleOptions> ParseRoleOptions(absl::string_view role, absl::string_view listen,
                                             absl::string_view peer);

}  // namespace tickbench::remote

#endif  // REMOTE_ROLE_OPTIONS_H_
