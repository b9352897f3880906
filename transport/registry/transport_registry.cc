#include "transport/registry/transport_registry.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "transport/io/endpoint_checks.h"
#include "transport/mpi/mpi_transport.h"
#include "transport/pipes/pipe_transport.h"
#include "transport/sockets/inet_address.h"
#include "transport/sockets/tcp_transport.h"
#include "transport/sockets/udp_transport.h"
#include "transport/sockets/unix_dgram_transport.h"
#include "transport/sockets/unix_stream_transport.h"

namespace tickbench::transport {
namespace {

absl::StatusOr<std::unique_ptr<Transport>> UnixStream(const TransportOptions& options) {
  return MakeUnixStreamTransport(options.so_sndbuf_bytes, options.so_rcvbuf_bytes);
}
absl::StatusOr<std::unique_ptr<Transport>> UnixDgram(const TransportOptions&) {
  return MakeUnixDgramTransport();
}
absl::StatusOr<std::unique_ptr<Transport>> Udp(const TransportOptions& options) {
  return MakeUdpTransport(IpFamily::kIpv4, options.bind_address);
}
absl::StatusOr<std::unique_ptr<Transport>> Udp6(const TransportOptions& options) {
  return MakeUdpTransport(IpFamily::kIpv6, options.bind_address);
}
absl::StatusOr<std::unique_ptr<Transport>> Tcp(const TransportOptions& options) {
  return MakeTcpTransport(IpFamily::kIpv4, options.bind_address);
}
absl::StatusOr<std::unique_ptr<Transport>> Tcp6(const TransportOptions& options) {
  return MakeTcpTransport(IpFamily::kIpv6, options.bind_address);
}
absl::StatusOr<std::unique_ptr<Transport>> Pipe(const TransportOptions& options) {
  return MakePipeTransport(options.pipe_size_bytes);
}
absl::StatusOr<std::unique_ptr<Transport>> Mpi(const TransportOptions&) {
  return MakeMpiTransport();
}
absl::StatusOr<std::unique_ptr<Transport>> Sim(const TransportOptions& options) {
  std::function<void(int64_t)> advance = options.advance_time;
  if (!advance) advance = [](int64_t) {};
  return std::unique_ptr<Transport>(
      std::make_unique<SimTransport>(options.sim_model, std::move(advance), options.sim_faults));
}

using AF = AddressFamily;

// One row per transport. The remote codes are the control protocol's: never renumber.
const TransportInfo kTransports[] = {
    // name, description, keeps boundaries, may lose, family, max_message_bytes,
    // needs_local_peer, simulated, remote_code, factory
    {"unix_stream", "UNIX domain stream socket pair", false, false, AF::kUnix,
     kMaxStreamMessageBytes, true, false, 0, &UnixStream},
    {"unix_dgram", "UNIX domain datagram sockets, bound to paths in TMPDIR", true, true, AF::kUnix,
     kMeasuredWhenMade, true, false, 0, &UnixDgram},
    {"udp", "UDP over IPv4 (127.0.0.1), one message per datagram", true, true, AF::kInet,
     kUdpIpv4MaxPayloadBytes, true, false, 1, &Udp},
    {"udp6", "UDP over IPv6 (::1), one message per datagram", true, true, AF::kInet6,
     kUdpIpv6MaxPayloadBytes, true, false, 2, &Udp6},
    {"tcp", "TCP over IPv4 (127.0.0.1), TCP_NODELAY", false, false, AF::kInet,
     kMaxStreamMessageBytes, true, false, 3, &Tcp},
    {"tcp6", "TCP over IPv6 (::1), TCP_NODELAY", false, false, AF::kInet6, kMaxStreamMessageBytes,
     true, false, 4, &Tcp6},
    {"pipe", "a pair of pipes, one each way", false, false, AF::kNone, kMaxStreamMessageBytes, true,
     false, 0, &Pipe},
    {"mpi", "MPI_Send/MPI_Recv between the two ranks of mpirun -np 2 (a build with --config=mpi)",
     true, false, AF::kNone, kMpiMaxMessageBytes, false, false, 0, &Mpi},
    {"sim", "simulated: round trips take a model's time (--sim_*), in virtual time", true, true,
     AF::kNone, SimTransport::kMaxMessageBytes, false, true, 0, &Sim},
};

}  // namespace

absl::string_view AddressFamilyName(AddressFamily family) {
  switch (family) {
    case AddressFamily::kNone:
      return "none";
    case AddressFamily::kUnix:
      return "unix";
    case AddressFamily::kInet:
      return "inet";
    case AddressFamily::kInet6:
      return "inet6";
  }
  return "unknown";
}

absl::Span<const TransportInfo> RegisteredTransports() { return kTransports; }

absl::StatusOr<const TransportInfo*> FindTransport(absl::string_view name) {
  for (const TransportInfo& row : kTransports) {
    if (name == row.name) return &row;
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown transport '", absl::CHexEscape(name),
                                                 "'; choose one of: ", TransportNamesForHelp()));
}

const TransportInfo* FindTransportByRemoteCode(uint8_t code) {
  if (code == 0) return nullptr;
  for (const TransportInfo& row : kTransports) {
    if (row.remote_code == code) return &row;
  }
  return nullptr;
}

std::string TransportNamesWhere(const std::function<bool(const TransportInfo&)>& keep,
                                absl::string_view last_separator) {
  std::vector<absl::string_view> kept;
  for (const TransportInfo& row : kTransports) {
    if (keep(row)) kept.push_back(row.name);
  }
  std::string names;
  for (size_t i = 0; i < kept.size(); ++i) {
    if (i > 0) absl::StrAppend(&names, i + 1 == kept.size() ? last_separator : ", ");
    absl::StrAppend(&names, kept[i]);
  }
  return names;
}

std::string TransportNamesForHelp() {
  return TransportNamesWhere([](const TransportInfo&) { return true; });
}

std::string TransportTableForHelp() {
  size_t width = 0;
  for (const TransportInfo& row : kTransports) width = std::max(width, strlen(row.name));
  std::string table;
  for (const TransportInfo& row : kTransports) {
    absl::StrAppendFormat(&table, "  %-*s  %s\n", static_cast<int>(width), row.name,
                          row.description);
  }
  return table;
}

std::string TransportTableMarkdown() {
  std::string table = "| `--transport=` | what it is |\n|---|---|\n";
  for (const TransportInfo& row : kTransports) {
    absl::StrAppendFormat(&table, "| `%s` | %s |\n", row.name, row.description);
  }
  return table;
}

}  // namespace tickbench::transport
