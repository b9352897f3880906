// x86-64: the TSC. Invariance and frequency come from CPUID.
#include <cpuid.h>

#include "absl/strings/str_format.h"
#include "platform/cpu/cycle_counter.h"

namespace tickbench::platform {

absl::StatusOr<CycleCounterInfo> GetCycleCounterInfo() {
  CycleCounterInfo info;
  info.name = "rdtsc";
  unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
  // CPUID.80000007H:EDX[8]: the TSC ticks at a constant rate across all ACPI P-, C- and
  // T-states (Linux's constant_tsc + nonstop_tsc).
  if (__get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx)) {
    info.invariant = (edx & (1u << 8)) != 0;
    info.detail =
        absl::StrFormat("CPUID.80000007H:EDX[8] (invariant TSC) = %d", info.invariant ? 1 : 0);
  } else {
    info.detail = "CPUID leaf 80000007H absent: TSC invariance unknown";
  }
  // CPUID.15H: TSC Hz = crystal Hz * EBX / EAX, when the crystal (ECX) is stated. Many
  // CPUs (AMD, older Intel, most VMs) leave it 0, so the frequency is calibrated anyway.
  if (__get_cpuid_max(0, nullptr) >= 0x15 && __get_cpuid(0x15, &eax, &ebx, &ecx, &edx) &&
      eax != 0 && ebx != 0 && ecx != 0) {
    info.nominal_hz = static_cast<double>(ecx) * ebx / eax;
    info.detail += absl::StrFormat("; CPUID.15H: %.0f Hz", info.nominal_hz);
  }
  return info;
}

}  // namespace tickbench::platform
