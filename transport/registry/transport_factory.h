// Makes a Transport from its name, through the registry (transport/registry/transport_registry.h).
//
// Promised: every registered name makes a transport whose keeps_boundaries(), may_lose(), limit and
// peer needs are its row's (transport_registry_test); an unknown name is an InvalidArgument listing
// every registered one, escaped. Not promised: that Connect() works on this host (an IPv6 transport
// without ::1, a TMPDIR that cannot hold a socket path fail there, with their reason).
#ifndef TRANSPORT_TRANSPORT_FACTORY_H_
#define TRANSPORT_TRANSPORT_FACTORY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "transport/registry/transport_registry.h"
#include "transport/transport.h"

namespace tickbench::transport {

// The transport of `row`. A bind address is InvalidArgument for a row that is not IP,
// naming the ones it applies to; everything else is the row's factory's to say.
absl::StatusOr<std::unique_ptr<Transport>> MakeTransport(
    const TransportInfo& row, const TransportOptions& options = TransportOptions());

// InvalidArgument listing the names allowed when `name` is unknown (FindTransport()).
absl::StatusOr<std::unique_ptr<Transport>> MakeTransport(
    absl::string_view name, const TransportOptions& options = TransportOptions());

// Every name MakeTransport() accepts, in the registry's order.
std::vector<std::string> TransportNames();

}  // namespace tickbench::transport

#endif  // TRANSPORT_TRANSPORT_FACTORY_H_
