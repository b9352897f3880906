#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "absl/strings/str_cat.h"
#include "platform/errno_status.h"
#include "platform/facts/network_facts.h"

namespace tickbench::platform {

absl::StatusOr<int> PathMtu(absl::string_view address) {
  const std::string text(address);
  sockaddr_storage storage{};
  socklen_t length = 0;
  int family = AF_INET;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&storage);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&storage);
  if (inet_pton(AF_INET, text.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(9);  // discard; connect() on UDP sends nothing
    length = sizeof(*v4);
  } else if (inet_pton(AF_INET6, text.c_str(), &v6->sin6_addr) == 1) {
    family = AF_INET6;
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(9);
    length = sizeof(*v6);
  } else {
    return absl::InvalidArgumentError(absl::StrCat("'", address, "' is not a numeric IP address"));
  }
  const int fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return ErrnoToStatus(errno, "socket");
  int mtu = 0;
  socklen_t mtu_length = sizeof(mtu);
  absl::Status status;
  if (connect(fd, reinterpret_cast<sockaddr*>(&storage), length) != 0) {
    status = ErrnoToStatus(errno, absl::StrCat("connect to ", address));
  } else if (getsockopt(fd, family == AF_INET ? IPPROTO_IP : IPPROTO_IPV6,
                        family == AF_INET ? IP_MTU : IPV6_MTU, &mtu, &mtu_length) != 0) {
    status = ErrnoToStatus(errno, "getsockopt(IP_MTU)");
  }
  close(fd);
  if (!status.ok()) return status;
  return mtu;
}

}  // namespace tickbench::platform
