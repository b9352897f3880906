// Reading a clock_gettime() clock as int64 nanoseconds: the one conversion the OS clocks, the
// cycle counter's calibration, the simulated tick's base and the busy-poll deadline share.
//
// What is promised:
//   * Header-only and forced inline: a measurement loop that reads a clock through these
//     pays for clock_gettime() (through the vDSO on Linux: no system call) and one multiply-
//     add, no function call of its own.
//   * TimespecToNanos is exact for every time a clock of this machine returns (int64
//     nanoseconds reach 292 years).
//   * MonotonicNanos() reads CLOCK_MONOTONIC: never steps back; it counts from an arbitrary
//     start (boot, on Linux), so only differences mean something.
// What is NOT promised:
//   * clock_gettime()'s return value is not checked: every id passed here is one the OS
//     offers (timing/clocks/os_clocks.h lists them); an unknown id would leave the time unset.
//   * CLOCK_MONOTONIC is slewed by NTP (by up to 500 ppm); CLOCK_MONOTONIC_RAW is not.
#ifndef PLATFORM_MONOTONIC_H_
#define PLATFORM_MONOTONIC_H_

#include <time.h>

#include <cstdint>

#include "platform/compiler.h"

namespace tickbench::platform {

inline constexpr int64_t kNanosPerSecond = 1'000'000'000;

// tv_sec · 10^9 + tv_nsec.
TICKBENCH_ALWAYS_INLINE constexpr int64_t TimespecToNanos(const timespec& time) {
  return static_cast<int64_t>(time.tv_sec) * kNanosPerSecond + time.tv_nsec;
}

// clock_gettime(id) in nanoseconds.
TICKBENCH_ALWAYS_INLINE int64_t ClockNanos(clockid_t id) {
  timespec now;
  clock_gettime(id, &now);
  return TimespecToNanos(now);
}

// clock_gettime(CLOCK_MONOTONIC) in nanoseconds.
TICKBENCH_ALWAYS_INLINE int64_t MonotonicNanos() { return ClockNanos(CLOCK_MONOTONIC); }

}  // namespace tickbench::platform

#endif  // PLATFORM_MONOTONIC_H_
