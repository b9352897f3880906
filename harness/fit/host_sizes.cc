// This host's sizes as candidate causes of a step (sweep_analysis.h): the page size, the
// socket buffers, the path MTU and the sysctls that size buffers.
#include <unistd.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/fit/sweep_analysis.h"
#include "platform/facts/network_facts.h"
#include "platform/facts/system_info.h"
#include "transport/registry/transport_registry.h"

namespace tickbench::harness {

std::string MtuPeerAddress(absl::string_view transport_name, absl::string_view remote_host) {
  absl::StatusOr<const transport::TransportInfo*> row = transport::FindTransport(transport_name);
  if (!row.ok() || !(*row)->is_ip()) return "";
  if (!remote_host.empty()) return std::string(remote_host);
  return (*row)->is_ipv6() ? "::1" : "127.0.0.1";
}

analysis::SizeFacts CollectSizeFacts(
    const std::string& transport_name,
    const std::optional<transport::Endpoint::BufferSizes>& socket_buffers,
    const std::string& peer_address) {
  analysis::SizeFacts facts;
  facts.push_back({"page size", static_cast<double>(sysconf(_SC_PAGESIZE))});
  if (socket_buffers && socket_buffers->pipe) {
    // A message over the pipe's capacity C goes in ceil(n / C) parts the reader must drain
    // in turn: steps at C and its first multiples.
    const double capacity = socket_buffers->send_bytes;
    facts.push_back({"pipe capacity (F_GETPIPE_SZ)", capacity});
    for (int k = 2; k <= 4; ++k) {
      facts.push_back({absl::StrFormat("%d x pipe capacity", k), k * capacity});
    }
  } else if (socket_buffers) {
    facts.push_back({"SO_SNDBUF", static_cast<double>(socket_buffers->send_bytes)});
    facts.push_back({"SO_RCVBUF", static_cast<double>(socket_buffers->receive_bytes)});
    // A UNIX stream skb carries at most sndbuf/2 - 64 bytes (net/unix/af_unix.c).
    absl::StatusOr<const transport::TransportInfo*> row = transport::FindTransport(transport_name);
    if (row.ok() && (*row)->family == transport::AddressFamily::kUnix &&
        !(*row)->keeps_boundaries) {
      facts.push_back({"SO_SNDBUF/2 - 64 (largest AF_UNIX stream skb)",
                       static_cast<double>(socket_buffers->send_bytes / 2 - 64)});
      // A message over the send buffer waits for the reader once per buffer's worth.
      for (int k = 2; k <= 4; ++k) {
        facts.push_back({absl::StrFormat("%d x SO_SNDBUF", k),
                         k * static_cast<double>(socket_buffers->send_bytes)});
      }
    }
  }
  if (!peer_address.empty()) {
    if (absl::StatusOr<int> mtu = platform::PathMtu(peer_address); mtu.ok()) {
      const bool v6 = peer_address.find(':') != std::string::npos;
      facts.push_back({absl::StrCat("path MTU to ", peer_address), static_cast<double>(*mtu)});
      facts.push_back({absl::StrFormat("largest unfragmented UDP payload (MTU - %d)", v6 ? 48 : 28),
                       static_cast<double>(*mtu - (v6 ? 48 : 28))});
    }
  }
  for (const char* sysctl :
       {"net.core.wmem_default", "net.core.rmem_default", "net.unix.max_dgram_qlen"}) {
    if (absl::StatusOr<int64_t> value = platform::ReadSysctlInt(sysctl); value.ok()) {
      facts.push_back({sysctl, static_cast<double>(*value)});
    }
  }
  return facts;
}

}  // namespace tickbench::harness
