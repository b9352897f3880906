// The operating system's clocks: gettimeofday() and clock_gettime() with its clock ids.
// Both are read through the vDSO on Linux where the clocksource allows (no system call).
//
// Promised:
//   * A read is one inline clock_gettime()/gettimeofday() call converted to int64
//     nanoseconds (platform/monotonic.h); nothing else runs in NowTicks().
//   * The claimed resolution is what clock_getres() reports (1 us for gettimeofday);
//     the observed one is measured by timing/clocks/clock_probe.h, never assumed.
//   * CLOCK_MONOTONIC, _RAW, _COARSE and BOOTTIME never go back (clock_conformance_test).
// Not promised:
//   * Wall clocks (gettimeofday, realtime, realtime_coarse, tai) may step, backwards too,
//     when the system time is set or NTP steps it.
//   * The coarse ids advance only at the kernel's tick (1/HZ), and a tickless kernel may
//     skip ticks on an idle CPU: their observed step can be a multiple of the claim.
//   * The rate of CLOCK_MONOTONIC follows NTP's slewing; CLOCK_MONOTONIC_RAW does not.
#ifndef TIMING_OS_CLOCKS_H_
#define TIMING_OS_CLOCKS_H_

#include <sys/time.h>
#include <time.h>

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "platform/compiler.h"
#include "platform/monotonic.h"
#include "timing/clock.h"

namespace tickbench::timing {

// gettimeofday(): wall time in microseconds. Settable and NTP-stepped, so it may go
// backwards; its resolution is 1 us at best.
class GettimeofdayClock final : public Clock {
 public:
  GettimeofdayClock();
  TICKBENCH_ALWAYS_INLINE int64_t NowTicks() override {
    timeval now;
    gettimeofday(&now, nullptr);
    return static_cast<int64_t>(now.tv_sec) * 1'000'000 + now.tv_usec;
  }
};

// One of clock_gettime()'s clock ids, named as on the command line.
struct ClockIdName {
  const char* flag_name;  // "monotonic"
  clockid_t id;           // CLOCK_MONOTONIC
  const char* id_name;    // "CLOCK_MONOTONIC"
  bool monotonic;
  const char* description;  // one line, for --help
};

// The one table of clock ids (a row each in os_clocks.cc), in the order --list_clocks
// shows them. --clock_id, the clock_gettime[:ID] specs, --help, the allowed-value
// messages, --list_clocks and the clock conformance suite all read it: adding an id is
// one row. A row may name an id this kernel lacks; timing/clocks/clock_registry.h says which
// ones this machine offers.
const std::vector<ClockIdName>& ClockIdNames();

// Looks a clock id up by its flag name; InvalidArgument lists the allowed names (the
// given name quoted with its control bytes escaped).
absl::StatusOr<ClockIdName> ParseClockId(absl::string_view flag_name);

// clock_gettime(id): nanosecond ticks. The coarse ids return the time of the last
// kernel tick (1/HZ resolution): real coarse clocks on today's hardware.
class ClockGettimeClock final : public Clock {
 public:
  explicit ClockGettimeClock(const ClockIdName& id);
  TICKBENCH_ALWAYS_INLINE int64_t NowTicks() override { return platform::ClockNanos(id_); }
  clockid_t id() const { return id_; }

 private:
  clockid_t id_;
};

// The monotonic nanosecond time that the simulated tick clock and the probes use as
// their fine base, without a Clock object: platform::MonotonicNanos (inline).
using platform::MonotonicNanos;

}  // namespace tickbench::timing

#endif  // TIMING_OS_CLOCKS_H_
