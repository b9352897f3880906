// The clocks this build offers: one row per clock kind in clock_registry.cc (the names a
// spec starts with, its syntax, what it is, how its arguments parse, its canonical text,
// which specs this machine offers, and the factory), and for clock_gettime one row per
// clock id in os_clocks.cc (ClockIdNames()).
//
// ParseClockSpec(), ClockSpecToString(), AvailableClockSpecs() and MakeClock()
// (timing/clocks/clock_spec.h) dispatch through these rows; --help, the allowed-value messages,
// --list_clocks, the README check (tests/registry_docs_test) and the clock conformance
// suite (tests/conformance/clock_conformance_test) read them. Adding a clock id is one row in
// os_clocks.cc; adding a clock kind is a ClockKind value, one row here and its target in
// the clock_spec library's deps.
//
// What is promised: spec names are unique across rows; RegisteredClockKinds() has one row
// per ClockKind, in the order of --help and --list_clocks.
// What is not: that a row's clocks exist on this machine: `offered` says which do (the
// cycle counter only on a CPU with an invariant one, a clock id only where the kernel
// answers clock_getres() for it).
#ifndef TIMING_CLOCK_REGISTRY_H_
#define TIMING_CLOCK_REGISTRY_H_

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "timing/clock.h"
#include "timing/clocks/clock_spec.h"
#include "timing/clocks/os_clocks.h"

namespace tickbench::timing {

struct ClockKindInfo {
  ClockKind kind;
  // The names a spec of this kind starts with, as the help lists them; unused ones null.
  std::array<const char*, 2> names;
  // Also accepted, not listed: "cycles" for the cycle counter on any CPU. May be null.
  const char* alias;
  // As --help and the allowed-value messages show it: "clock_gettime[:ID]".
  const char* syntax;
  const char* description;  // one line
  // Fills `spec` (kind already set) from the parts after the name; `name` is the part
  // before them, `text` the whole spec (quoted in messages, escaped). InvalidArgument
  // for bad arguments; FailedPrecondition for a clock this machine lacks.
  absl::Status (*parse)(absl::string_view name, absl::Span<const absl::string_view> args,
                        absl::string_view text, ClockSpec& spec);
  std::string (*to_string)(const ClockSpec& spec);
  // The specs of this kind this machine offers, for --list_clocks and the conformance
  // suite; empty when it has none.
  std::vector<ClockSpec> (*offered)();
  absl::StatusOr<std::unique_ptr<Clock>> (*make)(const ClockSpec& spec,
                                                 const ClockEnvironment& environment);
};

// Every kind, in the order of --help and --list_clocks.
absl::Span<const ClockKindInfo> RegisteredClockKinds();

// The row whose names or alias include `name`; null when none does.
const ClockKindInfo* FindClockKind(absl::string_view name);

// The row of `kind` (every ClockKind has one).
const ClockKindInfo& ClockKindRow(ClockKind kind);

// "gettimeofday, clock_gettime[:ID], rdtsc (x86-64) or cntvct (arm64),
// tick[:PERIOD][:uniqtime], virtual": every row's syntax, for allowed-value messages.
std::string ClockKindsForHelp();

// Every name a spec may start with that the help lists (the rows' `names`, not aliases).
std::vector<std::string> ClockKindNames();

// One line per row, "  SYNTAX  DESCRIPTION", for the usage text of --help.
std::string ClockKindTableForHelp();

// "monotonic, monotonic_raw, realtime, boottime, monotonic_coarse, realtime_coarse, tai":
// every row of ClockIdNames(), in order.
std::string ClockIdNamesForHelp();

// True when this kernel has the clock id (clock_getres() answers for it).
bool ClockIdAvailable(const ClockIdName& id);

}  // namespace tickbench::timing

#endif  // TIMING_CLOCK_REGISTRY_H_
