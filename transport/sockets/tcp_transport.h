// "tcp" and "tcp6": a TCP connection over loopback (127.0.0.1 or ::1 unless told
// otherwise), with TCP_NODELAY on both ends so that a small message leaves at once
// instead of waiting up to 40 ms for a delayed ACK (Nagle's algorithm). Messages are
// limited to kMaxStreamMessageBytes (16 MiB).
#ifndef TRANSPORT_TCP_TRANSPORT_H_
#define TRANSPORT_TCP_TRANSPORT_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "transport/sockets/inet_address.h"
#include "transport/transport.h"

namespace tickbench::transport {

// `bind_address`: a numeric address of `family` for the listener; empty = loopback.
absl::StatusOr<std::unique_ptr<Transport>> MakeTcpTransport(IpFamily family,
                                                            absl::string_view bind_address);

}  // namespace tickbench::transport

#endif  // TRANSPORT_TCP_TRANSPORT_H_
