// arm64: the generic timer's virtual count, cntvct_el0, at the rate in cntfrq_el0.
#include "absl/strings/str_format.h"
#include "platform/cpu/cycle_counter.h"

namespace tickbench::platform {

absl::StatusOr<CycleCounterInfo> GetCycleCounterInfo() {
  uint64_t frequency_hz = 0;
  asm volatile("mrs %0, cntfrq_el0" : "=r"(frequency_hz));
  CycleCounterInfo info;
  info.name = "cntvct_el0";
  // The architecture requires the system counter to run at a fixed frequency; cntfrq_el0
  // is what firmware programmed, not measured by hardware (Arm ARM), so it is checked by
  // calibration like the TSC.
  info.invariant = true;
  info.nominal_hz = static_cast<double>(frequency_hz);
  info.detail = absl::StrFormat("cntfrq_el0 = %d Hz", frequency_hz);
  if (frequency_hz == 0) {
    return absl::UnimplementedError(
        "cntfrq_el0 reads 0: the firmware did not set the counter frequency");
  }
  return info;
}

}  // namespace tickbench::platform
