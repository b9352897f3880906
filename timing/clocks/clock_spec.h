// Naming a clock: the spec strings of --clock, --clocks and --reference_clock, and the
// factory that builds a clock from one. The kinds a spec may name, and their syntax, are
// the rows of timing/clocks/clock_registry.cc (ClockKindsForHelp() lists them); the ids of
// clock_gettime[:ID] are the rows of ClockIdNames() (timing/clocks/os_clocks.cc). The cycle
// counter is named as this CPU's (rdtsc, cntvct); "cycles" is accepted on any CPU.
//
// Promised: a spec that parses prints back as itself (ClockSpecToString), and every spec the
// registry offers on this machine parses and builds (clock_registry_test); a bad spec is an
// InvalidArgument that lists the allowed kinds and ids, user bytes escaped.
// Not promised: that a spec which parses can be built here (a cycle counter that is not
// invariant, a clock id this kernel lacks, or virtual time outside a simulation is refused
// by MakeClock, not by the parser).
#ifndef TIMING_CLOCK_SPEC_H_
#define TIMING_CLOCK_SPEC_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "timing/clock.h"

namespace tickbench::timing {

enum class ClockKind { kGettimeofday, kClockGettime, kCycleCounter, kTick, kVirtual, kMpiWtime };

struct ClockSpec {
  ClockKind kind = ClockKind::kClockGettime;
  std::string clock_id = "monotonic";                   // kClockGettime only
  absl::Duration tick_period = absl::Milliseconds(10);  // kTick only
  bool uniqtime = false;                                // kTick only
};

// The tick periods a tick clock takes: at least 2 us (a finer "tick" is no coarse tick,
// and timing/clocks/tick_clock.h refuses it), at most 1 h, and a whole number of nanoseconds, so
// that floor((t + phase) / T) * T stays exact in int64 nanoseconds.
inline constexpr absl::Duration kMinTickPeriod = absl::Microseconds(2);
inline constexpr absl::Duration kMaxTickPeriod = absl::Hours(1);

// OK when `period` is a whole number of nanoseconds in [kMinTickPeriod, kMaxTickPeriod];
// otherwise InvalidArgument "tick period must be ...; got <period>" (no flag named: the
// caller names the flag or spec).
absl::Status ValidateTickPeriod(absl::Duration period);

// Parses one spec. InvalidArgument names the allowed values (and a tick period outside
// ValidateTickPeriod's range); a cycle counter this CPU lacks is FailedPrecondition. The
// text is quoted in messages with its control bytes escaped.
absl::StatusOr<ClockSpec> ParseClockSpec(absl::string_view text);

// Parses a comma-separated list of specs.
absl::StatusOr<std::vector<ClockSpec>> ParseClockSpecList(absl::string_view text);

// The canonical text of a spec: ParseClockSpec(ClockSpecToString(s)) gives s back.
std::string ClockSpecToString(const ClockSpec& spec);

// Every clock this machine offers, as canonical specs (for --list_clocks and the clock
// conformance suite): each registered kind's offered specs, in the registry's order.
std::vector<ClockSpec> AvailableClockSpecs();

// What a clock is built with, beyond its spec.
struct ClockEnvironment {
  bool allow_variable_cycle_counter = false;
  // Tick clocks: a random phase from `seed` unless `fixed_phase` is set.
  uint64_t seed = 1;
  bool fixed_phase = false;
  absl::Duration tick_phase;
  // In a simulation, the virtual time every simulated clock reads; not owned. When null,
  // tick clocks read CLOCK_MONOTONIC and "virtual" is a lone virtual clock.
  Clock* simulated_time = nullptr;
};

absl::StatusOr<std::unique_ptr<Clock>> MakeClock(const ClockSpec& spec,
                                                 const ClockEnvironment& environment);

}  // namespace tickbench::timing

#endif  // TIMING_CLOCK_SPEC_H_
