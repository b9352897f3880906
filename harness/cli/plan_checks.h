// The checks MakePlan and ChooseMode share (cli_options.cc, make_plan.cc,
// plan_bounds.cc, plan_outputs.cc): internal to the command line, not for other callers.
#ifndef HARNESS_CLI_PLAN_CHECKS_H_
#define HARNESS_CLI_PLAN_CHECKS_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "harness/cli/cli_options.h"
#include "timing/clock_spec.h"
#include "transport/sim_rtt_model.h"

namespace tickbench::harness {

// Whether `flag` was given on the command line.
bool Given(const CommandLine& c, const std::string& flag);
// InvalidArgument "--flag: message", unless the message already names the flag first.
absl::Status BadFlag(absl::string_view flag, absl::string_view message);
// 'text', control bytes escaped.
std::string Quoted(absl::string_view user_text);
absl::Status DurationInRange(absl::string_view flag, absl::Duration value, absl::Duration min,
                             absl::Duration max, bool min_open = false);
absl::Status IntegerInRange(absl::string_view flag, int64_t value, int64_t min, int64_t max,
                            absl::string_view note = "");
// InvalidArgument naming the first flag holding no path that contains a control byte.
absl::Status CheckNoControlBytes(const CommandLine& c);
// The cycle counter where it is invariant, else CLOCK_MONOTONIC.
timing::ClockSpec DefaultReference();
// --pin's CLIENT[,PEER] CPUs into `sweep`.
absl::Status ParsePin(absl::string_view text, SweepOptions& sweep);
// Tick and virtual clocks: the ones that read simulated time.
bool ReadsSimulatedTime(const timing::ClockSpec& spec);
// The --sim_* flags checked and turned into `model`.
absl::Status MakeSimModel(const CommandLine& c, transport::SimRttModel& model);
// The most virtual time a simulated plan can take, in ns.
double WorstSimulatedNanos(const Plan& plan);
// Bounds on what `plan` would take: memory for its results, and in simulation the virtual
// time its nanosecond clock must hold (plan_outputs.cc).
absl::Status CheckPlanBounds(const Plan& plan);
// --format, --output and --plot into `plan`, the targets checked (plan_outputs.cc).
absl::Status ResolveOutputs(const CommandLine& c, Plan& plan);
// "512 MiB", "8.0 GiB", "1.5 TiB".
std::string FormatBytes(double bytes);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_PLAN_CHECKS_H_
