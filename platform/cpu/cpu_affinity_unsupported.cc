#include "platform/cpu/cpu_affinity.h"

namespace tickbench::platform {

absl::Status PinCurrentThreadToCpu(int) {
  return absl::UnimplementedError("CPU pinning is implemented for Linux only");
}

int CurrentCpu() { return -1; }

int OnlineCpuCount() { return 1; }

}  // namespace tickbench::platform
