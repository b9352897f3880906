#include "transport/transport_factory.h"

#include "absl/strings/str_cat.h"
#include "transport/inet_address.h"
#include "transport/pipe_transport.h"
#include "transport/tcp_transport.h"
#include "transport/udp_transport.h"
#include "transport/unix_dgram_transport.h"
#include "transport/unix_stream_transport.h"

namespace tickbench::transport {
namespace {

bool TakesBindAddress(TransportKind kind) {
  return kind == TransportKind::kUdp || kind == TransportKind::kUdp6 ||
         kind == TransportKind::kTcp || kind == TransportKind::kTcp6;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Transport>> MakeTransport(TransportKind kind,
                                                         const TransportOptions& options) {
  if (!options.bind_address.empty() && !TakesBindAddress(kind)) {
    return absl::InvalidArgumentError(
        absl::StrCat("a bind address applies to udp, udp6, tcp and tcp6, not ",
                     TransportKindName(kind)));
  }
  // No default: -Wswitch names a new kind that has no case here.
  switch (kind) {
    case TransportKind::kUnixStream:
      return MakeUnixStreamTransport();
    case TransportKind::kUnixDgram:
      return MakeUnixDgramTransport();
    case TransportKind::kUdp:
      return MakeUdpTransport(IpFamily::kIpv4, options.bind_address);
    case TransportKind::kUdp6:
      return MakeUdpTransport(IpFamily::kIpv6, options.bind_address);
    case TransportKind::kTcp:
      return MakeTcpTransport(IpFamily::kIpv4, options.bind_address);
    case TransportKind::kTcp6:
      return MakeTcpTransport(IpFamily::kIpv6, options.bind_address);
    case TransportKind::kPipe:
      return MakePipeTransport();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("no transport of kind ", static_cast<int>(kind)));
}

absl::StatusOr<std::unique_ptr<Transport>> MakeTransport(absl::string_view name,
                                                         const TransportOptions& options) {
  absl::StatusOr<TransportKind> kind = ParseTransportKind(name);
  if (!kind.ok()) return kind.status();
  return MakeTransport(*kind, options);
}

std::vector<std::string> TransportNames() {
  std::vector<std::string> names;
  for (TransportKind kind : AllTransportKinds()) {
    names.emplace_back(TransportKindName(kind));
  }
  return names;
}

}  // namespace tickbench::transport
