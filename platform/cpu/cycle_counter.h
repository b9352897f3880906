// The CPU's own cycle counter: x86-64 TSC (rdtsc) or the arm64 generic timer (cntvct_el0).
//
// What is promised:
//   * ReadCycleCounter() returns a raw count, ordered against the surrounding
//     instructions (earlier ones finish before the read; later ones do not start before
//     it), so that two reads bracket exactly the code between them.
//   * GetCycleCounterInfo() says whether this CPU has a usable counter, its name, whether
//     it runs at a constant rate (invariant), and its nominal frequency where the
//     hardware states it.
// What is NOT promised:
//   * The count is not a number of core cycles: an invariant TSC counts at a fixed
//     nominal rate whatever the core's frequency, and the arm64 counter runs at a few tens
//     of MHz.
//   * The offset is arbitrary (set at power on), and counters on different CPUs may be
//     skewed: compare readings taken on one CPU, or pin the thread.
//   * The nominal frequency may be absent (0) or wrong; timing/ calibrates it.
// Where there is no counter, ReadCycleCounter() returns 0 and GetCycleCounterInfo()
// returns an Unimplemented status: never a build break.
#ifndef PLATFORM_CYCLE_COUNTER_H_
#define PLATFORM_CYCLE_COUNTER_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "platform/compiler.h"

namespace tickbench::platform {

struct CycleCounterInfo {
  std::string name;        // "rdtsc" or "cntvct_el0"
  bool invariant = false;  // constant rate across P-, C- and T-states
  double nominal_hz = 0;   // as stated by the hardware; 0 when it does not say
  std::string detail;      // how invariance and frequency were found out
};

// Describes this CPU's counter, or Unimplemented where it has none usable.
absl::StatusOr<CycleCounterInfo> GetCycleCounterInfo();

#if defined(__x86_64__)
// lfence before rdtsc waits for earlier instructions to complete; lfence after keeps later
// ones from starting early (Intel SDM 3B 17.17: rdtsc alone is not ordered). One read
// serves as the end of one interval and the start of the next, so it is fenced both ways.
TICKBENCH_ALWAYS_INLINE int64_t ReadCycleCounter() {
  uint32_t low, high;
  asm volatile("lfence\n\trdtsc\n\tlfence" : "=a"(low), "=d"(high) : : "memory");
  return static_cast<int64_t>((static_cast<uint64_t>(high) << 32) | low);
}
#elif defined(__aarch64__)
// isb before and after the read orders it against surrounding instructions, as Linux's
// arch_timer_read_cntvct_el0 does.
TICKBENCH_ALWAYS_INLINE int64_t ReadCycleCounter() {
  uint64_t value;
  asm volatile("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(value) : : "memory");
  return static_cast<int64_t>(value);
}
#else
// No counter on this CPU: GetCycleCounterInfo() reports Unimplemented, so no clock is
// built on this function.
TICKBENCH_ALWAYS_INLINE int64_t ReadCycleCounter() { return 0; }
#endif

}  // namespace tickbench::platform

#endif  // PLATFORM_CYCLE_COUNTER_H_
