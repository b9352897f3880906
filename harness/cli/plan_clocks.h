// The clocks of a plan: the clock the flags name, the default reference, the clocks the
// study compares by default, and which clocks read simulated time.
#ifndef HARNESS_CLI_PLAN_CLOCKS_H_
#define HARNESS_CLI_PLAN_CLOCKS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "harness/cli/command_line.h"
#include "timing/clocks/clock_spec.h"

namespace tickbench::harness {

// The spec `text` of the flag `flag` (--clock, --reference_clock, an item of --clocks),
// or its refusal naming the flag, with "did you mean rdtsc?" where the clock's name (or a
// clock_gettime id) is near one this build offers (--clock=tsc, clock_gettime:monotnic).
absl::StatusOr<timing::ClockSpec> ParseClockFlag(absl::string_view flag, absl::string_view text);
// The comma-separated specs `text` of `flag` (--clocks), or the refusal of the first
// refused, with its hint.
absl::StatusOr<std::vector<timing::ClockSpec>> ParseClockListFlag(absl::string_view flag,
                                                                  absl::string_view text);
// `refused` with that hint for the spec `text`.
absl::Status WithClockHint(absl::Status refused, absl::string_view text);

// The clock spec the --clock, --clock_id, --tick_period and --uniqtime flags name.
absl::StatusOr<timing::ClockSpec> ClockFromFlags(const CommandLine& command_line);

// The cycle counter where it is invariant, else CLOCK_MONOTONIC.
timing::ClockSpec DefaultReference();

// The clocks the study compares by default: on real hardware the OS clocks, the cycle
// counter and the classic ticks; in simulation the clocks that read virtual time.
std::vector<timing::ClockSpec> DefaultStudyClocks(bool simulate);

// Tick and virtual clocks: the ones that read simulated time.
bool ReadsSimulatedTime(const timing::ClockSpec& spec);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_PLAN_CLOCKS_H_
