#include "platform/facts/network_facts.h"

namespace tickbench::platform {

absl::StatusOr<int> PathMtu(absl::string_view) {
  return absl::UnimplementedError("the path MTU is read on Linux only");
}

}  // namespace tickbench::platform
