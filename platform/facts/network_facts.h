// Network facts for the report: the path MTU towards an address, and the kernel's socket
// defaults (sysctls).
#ifndef PLATFORM_NETWORK_FACTS_H_
#define PLATFORM_NETWORK_FACTS_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tickbench::platform {

// The MTU of the route to a numeric IPv4 or IPv6 `address`, as the kernel knows it
// (IP_MTU / IPV6_MTU on a connected UDP socket; nothing is sent). 65536 for loopback.
absl::StatusOr<int> PathMtu(absl::string_view address);

}  // namespace tickbench::platform

#endif  // PLATFORM_NETWORK_FACTS_H_
