#include "remote/role_options.h"

#include <netinet/in.h>

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace tickbench::remote {
namespace {

absl::Status BadFlag(absl::string_view flag, absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("--", flag, ": ", message));
}

absl::StatusOr<uint16_t> ParsePort(absl::string_view text) {
  uint32_t port = 0;
  // SimpleAtoi would also take "+80" and " 80"; a port is digits only.
  const bool digits = !text.empty() && text.size() <= 5 &&
                      std::all_of(text.begin(), text.end(), absl::ascii_isdigit);
  if (!digits || !absl::SimpleAtoi(text, &port) || port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not a port number (0..65535)"));
  }
  return static_cast<uint16_t>(port);
}

absl::StatusOr<transport::InetAddress> ParseFlagAddress(absl::string_view flag,
                                                        absl::string_view text) {
  absl::StatusOr<transport::InetAddress> address = ParseHostPort(text);
  if (!address.ok()) return BadFlag(flag, address.status().message());
  return address;
}

}  // namespace

transport::InetAddress WithPort(transport::InetAddress address, uint16_t port) {
  if (address.storage.ss_family == AF_INET6) {
    reinterpret_cast<sockaddr_in6*>(&address.storage)->sin6_port = htons(port);
  } else {
    reinterpret_cast<sockaddr_in*>(&address.storage)->sin_port = htons(port);
  }
  return address;
}

absl::StatusOr<transport::InetAddress> ParseHostPort(absl::string_view text) {
  const size_t colon = text.rfind(':');
  if (colon == absl::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "' is not ADDR:PORT (or [IPV6-ADDR]:PORT)"));
  }
  absl::string_view host = text.substr(0, colon);
  transport::IpFamily family = transport::IpFamily::kIpv4;
  if (absl::ConsumePrefix(&host, "[")) {
    if (!absl::ConsumeSuffix(&host, "]")) {
      return absl::InvalidArgumentError(absl::StrCat("'", text, "': no ']' after the address"));
    }
    family = transport::IpFamily::kIpv6;
  } else if (absl::StrContains(host, ':')) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "': write an IPv6 address in brackets, [ADDR]:PORT"));
  }
  if (host.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "' names no address"));
  }
  absl::StatusOr<transport::InetAddress> address = transport::ParseBindAddress(family, host);
  if (!address.ok()) return address.status();
  absl::StatusOr<uint16_t> port = ParsePort(text.substr(colon + 1));
  if (!port.ok()) return port.status();
  return WithPort(*address, *port);
}

absl::StatusOr<RoleOptions> ParseRoleOptions(absl::string_view role, absl::string_view listen,
                                             absl::string_view peer) {
  RoleOptions options;
  if (role == "local") {
    options.role = Role::kLocal;
  } else if (role == "server") {
    options.role = Role::kServer;
  } else if (role == "client") {
    options.role = Role::kClient;
  } else {
    return BadFlag("role",
                   absl::StrCat("unknown role '", role, "'; allowed: local, server, client"));
  }
  if (!listen.empty() && options.role != Role::kServer) {
    return BadFlag("listen", "applies only to --role=server");
  }
  if (!peer.empty() && options.role != Role::kClient) {
    return BadFlag("peer", "applies only to --role=client");
  }
  if (options.role == Role::kServer) {
    absl::StatusOr<transport::InetAddress> address = ParseFlagAddress(
        "listen", listen.empty() ? absl::StrCat("127.0.0.1:", kDefaultControlPort) : listen);
    if (!address.ok()) return address.status();
    options.listen = *address;
    const uint16_t port = address->port();
    options.data_port = port == 0 || port == 65535 ? 0 : static_cast<uint16_t>(port + 1);
  }
  if (options.role == Role::kClient) {
    if (peer.empty()) return BadFlag("peer", "--role=client needs --peer=ADDR:PORT");
    absl::StatusOr<transport::InetAddress> address = ParseFlagAddress("peer", peer);
    if (!address.ok()) return address.status();
    if (address->port() == 0) return BadFlag("peer", "port 0 cannot be connected to");
    options.peer = *address;
  }
  return options;
}

}  // namespace tickbench::remote
