// Makes a Transport from its kind or its name.
//
// "sim" (a simulated transport) is not handled here yet: it is an unknown name until a
// TransportKind and a case in MakeTransport() are added for it.
#ifndef TRANSPORT_TRANSPORT_FACTORY_H_
#define TRANSPORT_TRANSPORT_FACTORY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "transport/transport.h"
#include "transport/transport_kind.h"

namespace tickbench::transport {

struct TransportOptions {
  // A numeric address for udp, udp6, tcp and tcp6 to bind instead of the loopback
  // address ("0.0.0.0", "::", or one of this host's addresses); "" = loopback. The other
  // transports refuse a non-empty value (InvalidArgument).
  std::string bind_address;
};

absl::StatusOr<std::unique_ptr<Transport>> MakeTransport(
    TransportKind kind, const TransportOptions& options = TransportOptions());

// InvalidArgument listing the names allowed when `name` is unknown.
absl::StatusOr<std::unique_ptr<Transport>> MakeTransport(
    absl::string_view name, const TransportOptions& options = TransportOptions());

// Every name MakeTransport() accepts, in a fixed order.
std::vector<std::string> TransportNames();

}  // namespace tickbench::transport

#endif  // TRANSPORT_TRANSPORT_FACTORY_H_
