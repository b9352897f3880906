// IPv4/IPv6 addresses for the UDP and TCP transports: which address to bind, and a bound
// socket, with "this host has no such address" told apart from other failures.
#ifndef TRANSPORT_INET_ADDRESS_H_
#define TRANSPORT_INET_ADDRESS_H_

#include <sys/socket.h>

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "transport/io/unique_fd.h"

namespace tickbench::transport {

enum class IpFamily { kIpv4, kIpv6 };

struct InetAddress {
  sockaddr_storage storage = {};
  socklen_t length = 0;

  const sockaddr* get() const { return reinterpret_cast<const sockaddr*>(&storage); }
  sockaddr* get() { return reinterpret_cast<sockaddr*>(&storage); }
  uint16_t port() const;
  // "127.0.0.1:41234", "[::1]:41234".
  std::string ToString() const;
  // The address alone: "127.0.0.1", "::1".
  std::string Host() const;
};

// The address a transport binds, with port 0 so that the kernel picks a free one.
// `text` is a numeric address of `family` ("10.0.0.2", "fe80::1%eth0" is not accepted);
// empty means the loopback address (127.0.0.1 or ::1).
absl::StatusOr<InetAddress> ParseBindAddress(IpFamily family, absl::string_view text);

// Where a peer connects to reach a socket bound at `bound`: the same address and port,
// except that a wildcard (0.0.0.0 or ::) becomes the loopback address.
InetAddress ConnectTarget(const InetAddress& bound);

// A new socket of `type` (SOCK_STREAM, SOCK_DGRAM), close-on-exec, bound to `address`,
// with the address the kernel gave it (the port filled in) in `*bound`.
// FailedPrecondition when this host cannot use the address at all (no IPv6, ::1 not
// configured: EAFNOSUPPORT, EADDRNOTAVAIL), so callers can skip rather than fail.
absl::StatusOr<UniqueFd> BoundSocket(int type, const InetAddress& address, InetAddress* bound);

}  // namespace tickbench::transport

#endif  // TRANSPORT_INET_ADDRESS_H_
