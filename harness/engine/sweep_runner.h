// Runs a sweep: a transport, its echo peer in a process of its own (as in the classic
// experiments), and sizes x runs measured by the round-trip engine.
//
// Promised:
//   * Runs are the outer loop (run 1 over every size, then run 2, ...).
//   * Every record measured is returned, also when the sweep ends early, retried
//     attempts included (RunRecord::attempt); a run that faults left without a figure is
//     measured again up to SweepOptions::retries times. When a run has used up its
//     retries with nothing timed and no run of its size has a figure, the size's later
//     runs are not measured (they would fare no better); its last record says so in
//     invalid_reason.
//   * The status is OK only when every size has a valid run; a size without one is
//     DataLoss after every other size was measured.
//   * A stop signal ends the sweep after the current run (and the run itself within a
//     second: harness/engine/round_trip_engine.h).
//   * Run until known (SweepOptions::until_known set): after the first `runs` rounds,
//     rounds of one more run of every size still open follow, until the judge closes each
//     size (a reason: "precise", "groups", ...), it has max_runs valid runs ("run limit"),
//     or the next run of it would end past max_time from the sweep's start ("out of
//     time"); the reason is in its last record's size_stop. Without it, exactly `runs`.
//   * size_done is called for the sizes in their order in `sizes`, each once, when it and
//     every size before it are closed (a table printed as the sweep goes stays in order).
// Not promised:
//   * That retries succeed: a peer that loses every datagram loses them on every attempt.
#ifndef HARNESS_ENGINE_SWEEP_RUNNER_H_
#define HARNESS_ENGINE_SWEEP_RUNNER_H_

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "harness/engine/round_trip_engine.h"
#include "harness/engine/run_record.h"
#include "timing/clock.h"
#include "transport/echo/echo_peer.h"
#include "transport/transport.h"

namespace tickbench::harness {

struct SweepOptions {
  std::vector<size_t> sizes;
  int runs = 4;
  EngineOptions engine;
  int pin_client_cpu = -1;  // -1: not pinned
  int pin_peer_cpu = -1;
  // No echo within this long is a lost round trip (datagrams) or a dead peer (streams).
  absl::Duration receive_timeout = absl::Seconds(2);
  transport::EchoPeerOptions peer;
  // A tick clock gets a fresh random phase (from `seed`) for every run and size, as a
  // measurement started at an arbitrary moment would; false keeps the phase it has.
  bool rephase_tick_clock = true;
  uint64_t seed = 1;
  // Runs of a size that lost a round trip are measured again, up to this many times
  // more (a lost trip is never timed: such a run has no averaged figure).
  int retries = 3;
  // Run until known: whether a size's runs so far (all its records) are enough, and why
  // ("" for not yet); max_runs and max_time bound what is added. Unset: exactly `runs`.
  struct UntilKnown {
    std::function<std::string(const std::vector<const RunRecord*>& size_records)> judge;
    absl::Duration max_time = absl::Seconds(30);
    int max_runs = 64;
  };
  std::optional<UntilKnown> until_known;
};

inline constexpr const char* kStopPrecise = "precise";
inline constexpr const char* kStopGroups = "groups";
inline constexpr const char* kStopOutOfTime = "out of time";
inline constexpr const char* kStopRunLimit = "run limit";

struct SweepOutcome {
  // Everything measured, also when the sweep failed, retried attempts included
  // (RunRecord::attempt).
  std::vector<RunRecord> records;
  // Why the sweep ended early, or DataLoss when it ended but a size got no valid run.
  absl::Status status;
  // The client socket's buffers as the kernel set them (a system fact for the steps).
  std::optional<transport::Endpoint::BufferSizes> socket_buffers;
};

// Called after each run, with the runs done and the total (for a progress line).
using ProgressFunction = std::function<void(int done, int total, const RunRecord& last)>;
// Called when a size has had its last run (after the progress call), with everything
// measured so far: a report may print that size's row while the sweep goes on.
using SizeDoneFunction =
    std::function<void(size_t size_bytes, const std::vector<RunRecord>& records)>;

// OK when every size of `options` has at least one valid run (RunRecord::valid()) among
// `records`; else DataLoss naming each size without one, with its attempts and faults.
absl::Status CheckEverySizeMeasured(const std::vector<RunRecord>& records,
                                    const SweepOptions& options);

// Runs every size in every run, runs in the outer loop: run 1 over all sizes, then run 2,
// ... so that a slow drift of the machine shows as spread between runs of one size
// instead of as a trend across sizes.
SweepOutcome RunSweep(transport::Transport& transport, timing::Clock& clock,
                      timing::Clock* reference, const SweepOptions& options,
                      const ProgressFunction& progress,
                      const SizeDoneFunction& size_done = nullptr);

}  // namespace tickbench::harness

#endif  // HARNESS_ENGINE_SWEEP_RUNNER_H_
