// What a plan is held to: the memory of its results and, in simulation, the virtual time
// its nanosecond clock must hold (kMaxPlanBytes, kMaxSimulatedNanos); the simulated
// model's flags within their ranges; --pin's CPUs among this machine's.
#ifndef HARNESS_CLI_PLAN_BOUNDS_H_
#define HARNESS_CLI_PLAN_BOUNDS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "harness/cli/command_line.h"
#include "harness/cli/plan.h"
#include "harness/engine/sweep_runner.h"
#include "transport/sim/sim_rtt_model.h"

namespace tickbench::harness {

// An upper bound on the memory, in bytes, that `plan`'s results and buffers take: the
// sweep keeps every run's record (retried attempts too) with up to
// min(intervals, EngineOptions::max_kept_intervals) + 1 readings per clock, 8 bytes each;
// the study keeps each cell's readings, 10 values per round trip per run, and its buffers.
double EstimatePlanBytes(const Plan& plan);

// --pipe_size into plan.transport_options: only for --transport=pipe, 0 (the kernel's) or
// 1..2147483647 bytes, and without privilege at most /proc/sys/fs/pipe-max-size (named);
// --so_sndbuf / --so_rcvbuf: only for --transport=unix_stream, at most net.core.wmem_max /
// rmem_max (named).
absl::Status ResolveTransportKnobs(const CommandLine& c, Plan& plan);

// --precision and --max_time into `plan`: a percentage ("2%", or 0 for exact counts), on by
// default only where neither --runs nor --iterations was given.
absl::Status ResolvePrecision(const CommandLine& c, Plan& plan);

// The study's seed and tick phases, and on real hardware without --iterations each cell's N
// chosen (StudyOptions::choose), within --max_time where given (else its own budget).
void FinishStudyOptions(const CommandLine& c, Plan& plan);

// The most virtual time a simulated plan can take, in ns.
double WorstSimulatedNanos(const Plan& plan);

// Bounds on what `plan` would take: memory for its results (kMaxPlanBytes), and in
// simulation the virtual time its nanosecond clock must hold (kMaxSimulatedNanos).
absl::Status CheckPlanBounds(const Plan& plan);

// The --sim_* flags checked and turned into `model`.
absl::Status MakeSimModel(const CommandLine& c, transport::SimRttModel& model);

// --pin's CLIENT[,PEER] CPUs into `sweep`.
absl::Status ParsePin(absl::string_view text, SweepOptions& sweep);

// "512 MiB", "8.0 GiB", "1.5 TiB".
std::string FormatBytes(double bytes);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_PLAN_BOUNDS_H_
