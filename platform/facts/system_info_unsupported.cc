// Systems other than Linux: only what needs no OS-specific call.
#include "platform/facts/system_info.h"

namespace tickbench::platform {

SystemInfo GetSystemInfo() {
  SystemInfo info;
  info.os = "unknown";
  info.build_mode = BuildMode();
  return info;
}

absl::StatusOr<LoadAverage> ReadLoadAverage() {
  return absl::UnimplementedError("no load average on this system");
}

}  // namespace tickbench::platform
