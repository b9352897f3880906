// CPUs without a supported cycle counter: a clear status, never a build break.
#include "platform/cpu/cycle_counter.h"

namespace tickbench::platform {

absl::StatusOr<CycleCounterInfo> GetCycleCounterInfo() {
  return absl::UnimplementedError(
      "no cycle counter on this CPU: tickbench reads one on x86-64 (rdtsc) and arm64 "
      "(cntvct_el0) only");
}

}  // namespace tickbench::platform
