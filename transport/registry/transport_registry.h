// The transports this build offers: one row each in transport_registry.cc, with what the
// rest of the program asks of a transport (its name on the command line, what it is,
// datagram or stream, address family, largest message, whether it needs an echo peer,
// its code across hosts) and the factory that makes it.
//
// Adding a transport is its own file and BUILD target, one row in the table and that
// target in the registry's deps: --help, the allowed-value messages, the README check
// (tests/registry_docs_test) and the conformance suites
// (tests/conformance/transport_conformance_test, transport/registry/busy_poll_test) all read this
// table. Code that needs to know "is this IP?" or "is this IPv6?" asks the row (is_ip(), is_ipv6(),
// is_udp()), never the name.
//
// What is promised: names are unique, non-empty, lower case and printable; the order of
// RegisteredTransports() is fixed (it is the order of --help and of every list); a row's
// `datagram`, `needs_local_peer` and (where not kMeasuredWhenMade) `max_message_bytes`
// are what the made transport reports (transport_registry_test checks every row).
// What is not: a row being usable on this host (udp6 and tcp6 need ::1; their Connect()
// says FailedPrecondition without it).
#ifndef TRANSPORT_TRANSPORT_REGISTRY_H_
#define TRANSPORT_TRANSPORT_REGISTRY_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "transport/sim/sim_rtt_model.h"
#include "transport/sim/sim_transport.h"
#include "transport/transport.h"

namespace tickbench::transport {

// Where a transport's endpoints live. kNone: no socket address at all (pipes, the
// simulation).
enum class AddressFamily { kNone, kUnix, kInet, kInet6 };

// "none", "unix", "inet", "inet6".
absl::string_view AddressFamilyName(AddressFamily family);

// What a factory may be given. Each row uses only what applies to it; MakeTransport()
// refuses a bind address for a transport that is not IP.
struct TransportOptions {
  // A numeric address for an IP transport to bind instead of the loopback address
  // ("0.0.0.0", "::", or one of this host's addresses); "" = loopback.
  std::string bind_address;
  // pipe: each pipe's capacity set with F_SETPIPE_SZ (the kernel rounds it up to a power
  // of two pages; what it granted is the endpoints' SocketBufferSizes()); 0 = the kernel's.
  int64_t pipe_size_bytes = 0;
  // unix_stream: SO_SNDBUF and SO_RCVBUF asked for on both ends (Linux doubles the request
  // and caps it at net.core.wmem_max / rmem_max; what it granted is the endpoints'
  // SocketBufferSizes()); 0 = the kernel's.
  int so_sndbuf_bytes = 0;
  int so_rcvbuf_bytes = 0;
  // The simulated transport: its round-trip model, the virtual time it advances (null:
  // time is advanced nowhere, the echoes still come back), and its peer's fault hooks.
  SimRttModel sim_model;
  std::function<void(int64_t nanos)> advance_time;
  SimFaults sim_faults;
};

using TransportFactory =
    absl::StatusOr<std::unique_ptr<Transport>> (*)(const TransportOptions& options);

// A row's max_message_bytes when the limit is known only once the transport is made
// (unix_dgram measures its socket buffers).
inline constexpr size_t kMeasuredWhenMade = 0;

struct TransportInfo {
  const char* name;         // as --transport names it: "udp6"
  const char* description;  // one line, for --help and the README's table
  bool keeps_boundaries;    // each Receive() returns one whole message as sent
  bool may_lose;            // a message may be lost on the way (datagram sockets)
  AddressFamily family;
  size_t max_message_bytes;  // or kMeasuredWhenMade
  bool needs_local_peer;     // Transport::needs_local_peer() of what the factory makes
  bool simulated;            // runs in virtual time: no sockets, no peer process, sim flags
  // The transport's code in the remote control protocol (remote/control_protocol.h); 0
  // when it cannot reach another host. Never renumber: a peer of another build reads it.
  uint8_t remote_code;
  TransportFactory factory;

  bool is_ip() const { return family == AddressFamily::kInet || family == AddressFamily::kInet6; }
  bool is_ipv6() const { return family == AddressFamily::kInet6; }
  bool is_udp() const { return keeps_boundaries && is_ip(); }
};

// Every row, in the order of --help.
absl::Span<const TransportInfo> RegisteredTransports();

// The row named `name`, or InvalidArgument "unknown transport '<name escaped>'; choose
// one of: <TransportNamesForHelp()>".
absl::StatusOr<const TransportInfo*> FindTransport(absl::string_view name);

// The row whose remote_code is `code`, or null (0 is no transport's).
const TransportInfo* FindTransportByRemoteCode(uint8_t code);

// "unix_stream, unix_dgram, udp, udp6, tcp, tcp6, pipe, mpi, sim": every name, in order.
std::string TransportNamesForHelp();

// The names of the rows for which `keep` holds, in order, joined by ", " and the last
// two by `last_separator` (" or " gives "udp, udp6, tcp or tcp6").
std::string TransportNamesWhere(const std::function<bool(const TransportInfo&)>& keep,
                                absl::string_view last_separator = ", ");

// One line per row, "  NAME  DESCRIPTION" with the names padded to one width, for the
// usage text of --help.
std::string TransportTableForHelp();

// The README's table: a header "| `--transport=` | what it is |", its rule, and one
// "| `NAME` | DESCRIPTION |" line per row, each line ending in '\n'.
std::string TransportTableMarkdown();

}  // namespace tickbench::transport

#endif  // TRANSPORT_TRANSPORT_REGISTRY_H_
