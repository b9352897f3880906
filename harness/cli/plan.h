// From the command line to a validated plan: every flag is checked here, before anything
// runs, and a bad one is an InvalidArgument that names it and its allowed values. MakePlan
// takes one step per concern (make_plan.cc); the clocks, the bounds and the outputs have
// their own files (plan_clocks.h, plan_bounds.h, plan_outputs.h).
#ifndef HARNESS_CLI_PLAN_H_
#define HARNESS_CLI_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "harness/cli/command_line.h"
#include "harness/cli/presets.h"
#include "harness/engine/sweep_runner.h"
#include "harness/output/output_format.h"
#include "harness/study/study_runner.h"
#include "timing/clocks/clock_spec.h"
#include "transport/registry/transport_registry.h"
#include "transport/sim/sim_rtt_model.h"
#include "transport/sim/sim_transport.h"

namespace tickbench::harness {

struct Plan {
  Preset preset;
  std::string transport;
  transport::TransportOptions transport_options;  // --pipe_size
  timing::ClockSpec clock;
  bool has_reference = false;
  timing::ClockSpec reference;
  timing::ClockEnvironment environment;
  SweepOptions sweep;
  // Run until known (harness/engine/sweep_runner.h): the relative half-width a size's
  // averaged figure is to reach (0.02 = +-2%; 0: exactly sweep.runs) and the time budget.
  double precision = 0;
  absl::Duration max_time = absl::Seconds(20);
  OutputFormat format = OutputFormat::kTable;
  // Resolved, and checked with CheckOutputTarget; "" for none and for --output=-
  // (standard output, where the results go anyway).
  std::string output_path;
  std::string plot_path;  // resolved and checked, with its data file; "" for none
  std::vector<double> percentiles = {50, 90, 99};  // --percentiles, checked
  std::string raw_path;                            // --raw, resolved and checked; "" for none
  std::string report_path;                         // --report: resolved and checked; "" for none
  // --transport=sim: everything runs in virtual time with this model.
  bool simulate = false;
  transport::SimRttModel sim_model;
  transport::SimFaults sim_faults;
  // --experiment=study.
  bool study = false;
  std::vector<timing::ClockSpec> study_clocks;
  StudyOptions study_options;
};

// Limits that keep a run bounded: a typo like --iterations=1e12 is an error, not a
// week-long run.
inline constexpr int64_t kMaxIterations = 1'000'000'000;
inline constexpr int64_t kMaxRuns = 10'000;
inline constexpr int64_t kMaxRetries = 100;
inline constexpr absl::Duration kMinMaxTime = absl::Milliseconds(1);
inline constexpr absl::Duration kMaxMaxTime = absl::Hours(24);
inline constexpr double kMaxPrecisionPercent = 100;
inline constexpr absl::Duration kMinReceiveTimeout = absl::Microseconds(1);
inline constexpr absl::Duration kMaxReceiveTimeout = absl::Hours(1);
inline constexpr absl::Duration kMaxPeerReplyDelay = absl::Seconds(10);
inline constexpr absl::Duration kMaxGap = absl::Seconds(1);
// The most memory a plan's results and buffers may take (EstimatePlanBytes).
inline constexpr double kMaxPlanBytes = 8.0 * (int64_t{1} << 30);
// The most virtual time a simulation may span: int64 nanoseconds hold 292 years; a plan
// whose worst case passes 2^62 ns (146 years) is refused.
inline constexpr double kMaxSimulatedNanos = static_cast<double>(int64_t{1} << 62);

// The plan of a measurement (Mode::kMeasure; `command_line.role` says whether against a
// server). Every flag is checked: numbers against their ranges (durations finite),
// strings against their allowed values, flags that do nothing in this measurement
// refused, the output targets (--output, --plot and its data file, --report) with
// CheckOutputTarget, the memory of the results against kMaxPlanBytes and a simulation's
// virtual time against kMaxSimulatedNanos. Each error is InvalidArgument naming the flag
// once and what it allows. Makes (and drops) a transport to learn its largest message.
absl::StatusOr<Plan> MakePlan(const CommandLine& command_line);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_PLAN_H_
