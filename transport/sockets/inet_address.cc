#include "transport/sockets/inet_address.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "platform/errno_status.h"

namespace tickbench::transport {
namespace {

bool IsUnavailableHere(int error_number) {
  return error_number == EAFNOSUPPORT || error_number == EADDRNOTAVAIL ||
         error_number == EPROTONOSUPPORT;
}

}  // namespace

uint16_t InetAddress::port() const {
  if (storage.ss_family == AF_INET6) {
    return ntohs(reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_port);
  }
  return ntohs(reinterpret_cast<const sockaddr_in*>(&storage)->sin_port);
}

std::string InetAddress::Host() const {
  char text[INET6_ADDRSTRLEN] = "?";
  if (storage.ss_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_addr, text,
              sizeof(text));
  } else {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&storage)->sin_addr, text,
              sizeof(text));
  }
  return text;
}

std::string InetAddress::ToString() const {
  if (storage.ss_family == AF_INET6) return absl::StrCat("[", Host(), "]:", port());
  return absl::StrCat(Host(), ":", port());
}

absl::StatusOr<InetAddress> ParseBindAddress(IpFamily family, absl::string_view text) {
  InetAddress result;
  const std::string owned(text);
  if (family == IpFamily::kIpv4) {
    auto* in = reinterpret_cast<sockaddr_in*>(&result.storage);
    in->sin_family = AF_INET;
    if (owned.empty()) {
      in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    } else if (inet_pton(AF_INET, owned.c_str(), &in->sin_addr) != 1) {
      return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not a numeric IPv4 address"));
    }
    result.length = sizeof(sockaddr_in);
  } else {
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&result.storage);
    in6->sin6_family = AF_INET6;
    if (owned.empty()) {
      in6->sin6_addr = in6addr_loopback;
    } else if (inet_pton(AF_INET6, owned.c_str(), &in6->sin6_addr) != 1) {
      return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not a numeric IPv6 address"));
    }
    result.length = sizeof(sockaddr_in6);
  }
  return result;
}

InetAddress ConnectTarget(const InetAddress& bound) {
  InetAddress target = bound;
  if (target.storage.ss_family == AF_INET6) {
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&target.storage);
    if (IN6_IS_ADDR_UNSPECIFIED(&in6->sin6_addr)) in6->sin6_addr = in6addr_loopback;
  } else {
    auto* in = reinterpret_cast<sockaddr_in*>(&target.storage);
    if (in->sin_addr.s_addr == htonl(INADDR_ANY)) in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  }
  return target;
}

absl::StatusOr<UniqueFd> BoundSocket(int type, const InetAddress& address, InetAddress* bound) {
  UniqueFd fd(socket(address.storage.ss_family, type | SOCK_CLOEXEC, 0));
  if (!fd.valid()) {
    const int error_number = errno;
    if (IsUnavailableHere(error_number)) {
      return absl::FailedPreconditionError(
          absl::StrCat("this host has no ", address.storage.ss_family == AF_INET6 ? "IPv6" : "IPv4",
                       " sockets: ", std::strerror(error_number)));
    }
    return platform::ErrnoToStatus(error_number, "socket");
  }
  if (bind(fd.get(), address.get(), address.length) != 0) {
    const int error_number = errno;
    if (IsUnavailableHere(error_number)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot bind ", address.ToString(), " on this host: ", std::strerror(error_number)));
    }
    return platform::ErrnoToStatus(error_number, absl::StrCat("bind ", address.ToString()));
  }
  bound->length = sizeof(bound->storage);
  if (getsockname(fd.get(), bound->get(), &bound->length) != 0) {
    return platform::ErrnoToStatus(errno, "getsockname");
  }
  return fd;
}

}  // namespace tickbench::transport
