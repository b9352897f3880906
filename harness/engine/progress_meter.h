// A sweep's progress on standard error while it runs: at most one line a second, saying
// which size and run is being measured next, the runs and round trips done, the time
// elapsed and an estimate of the time left. On a terminal the line is rewritten in place
// (carriage return) and cleared at the end; otherwise each update is a plain line of its
// own, so that a log shows a long sweep is alive.
//
// The meter keeps no thread: it writes only from RunDone(), which the measuring thread
// calls between runs, outside every timed loop. A second thread alive in the process
// while the loop runs would make each of the loop's system calls dearer: the kernel then
// takes and drops a reference on every file descriptor a call touches (its table is
// shared), and the C library brackets each cancellable call with two atomic updates.
// //bench:thread_cost_benchmark measures it; docs/overhead.md has the figures.
// A peer forked from a threaded process inherits the library's part of that.
//
// Promised: nothing is written before one interval has passed since the meter began (a
// short sweep prints nothing); no two updates closer than the interval; the meter starts
// no thread; on a terminal, a line never wider than Options::columns - 1, and no line left
// behind by the destructor or Clear(). Not promised: an update every interval: a run longer than
// the interval shows its line when it ends. Nor an accurate ETA (it assumes every run takes as long
// as the mean so far).
#ifndef HARNESS_ENGINE_PROGRESS_METER_H_
#define HARNESS_ENGINE_PROGRESS_METER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace tickbench::harness {

class ProgressMeter {
 public:
  struct Options {
    bool terminal = false;  // rewrite one line in place
    absl::Duration interval = absl::Seconds(1);
    // The wall clock the interval is kept by; empty: absl::Now.
    std::function<absl::Time()> now;
    // On a terminal, its width: a line is cut to columns - 1 characters, so that it never
    // wraps (a wrapped line cannot be rewritten in place: each update would leave its
    // first part behind). 0: no limit.
    size_t columns = 0;
    // Run until known (SweepOptions::until_known): past the first `runs` rounds, runs are
    // added until this, said in the line instead of an ETA (e.g. "each size within
    // +-2%, at most 20s"); empty: exactly `runs`.
    std::string until;
  };

  // Runs are the outer loop over `sizes` (harness/engine/sweep_runner.h); `trips_per_run` timed
  // round trips each.
  ProgressMeter(std::function<void(absl::string_view)> err, Options options,
                std::vector<size_t> sizes, int runs, int64_t trips_per_run);
  // On a terminal, clears the line.
  ~ProgressMeter();

  // On a terminal, clears the line now (before anything else is written to the terminal,
  // such as a result row on standard output, which would otherwise be appended to it);
  // the next update writes a fresh line. Elsewhere nothing.
  void Clear();
  ProgressMeter(const ProgressMeter&) = delete;
  ProgressMeter& operator=(const ProgressMeter&) = delete;

  // One more (size, run) measured; writes the line if an interval has passed since the
  // last one (or since the meter began).
  void RunDone();

  // The line for `runs_done` runs after `elapsed`, without a line ending:
  // "progress: 512 B, run 2 of 4: 9 of 16 runs, 9000 round trips, elapsed 4.5s, ETA 3.5s".
  // Past the first `runs` rounds with `until`: "progress: 12 of at least 8 runs, 12000
  // round trips, elapsed 4s; adding runs until <until>".
  static std::string Line(const std::vector<size_t>& sizes, int runs, int64_t trips_per_run,
                          int runs_done, absl::Duration elapsed, absl::string_view until = "");

 private:
  absl::Time Now() const { return options_.now ? options_.now() : absl::Now(); }

  const std::function<void(absl::string_view)> err_;
  const Options options_;
  const std::vector<size_t> sizes_;
  const int runs_;
  const int64_t trips_per_run_;
  const absl::Time start_;
  absl::Time last_line_;  // when the last line was written, start_ before the first
  int runs_done_ = 0;
  size_t line_width_ = 0;  // the last line written on a terminal
};

}  // namespace tickbench::harness

#endif  // HARNESS_ENGINE_PROGRESS_METER_H_
