// A sweep's progress on standard error while it runs: at most one line a second, saying
// which size and run is being measured, the runs and round trips done, the time elapsed and
// an estimate of the time left. On a terminal the line is rewritten in place (carriage
// return) and cleared at the end; otherwise each update is a plain line of its own, so
// that a log shows a long run is alive.
//
// Promised: nothing is written during the first interval (a short sweep prints nothing);
// no two updates closer than the interval; RunDone may be called from the measuring thread
// while the meter's own thread writes. Not promised: an update exactly every interval (the
// thread may be scheduled late on a loaded machine), an accurate ETA (it assumes every run
// takes as long as the mean so far).
#ifndef HARNESS_PROGRESS_METER_H_
#define HARNESS_PROGRESS_METER_H_

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace tickbench::harness {

class ProgressMeter {
 public:
  struct Options {
    bool terminal = false;  // rewrite one line in place
    absl::Duration interval = absl::Seconds(1);
  };

  // Runs are the outer loop over `sizes` (harness/sweep_runner.h); `trips_per_run` timed
  // round trips each. Starts the meter's thread.
  ProgressMeter(std::function<void(absl::string_view)> err, Options options,
                std::vector<size_t> sizes, int runs, int64_t trips_per_run);
  // Stops the thread; on a terminal, clears the line.
  ~ProgressMeter();
  ProgressMeter(const ProgressMeter&) = delete;
  ProgressMeter& operator=(const ProgressMeter&) = delete;

  // One more (size, run) measured.
  void RunDone();

  // The line for `runs_done` runs after `elapsed`, without a line ending:
  // "progress: 512 B, run 2 of 4: 9 of 16 runs, 9000 round trips, elapsed 4.5s, ETA 3.5s".
  static std::string Line(const std::vector<size_t>& sizes, int runs, int64_t trips_per_run,
                          int runs_done, absl::Duration elapsed);

 private:
  void Loop();

  const std::function<void(absl::string_view)> err_;
  const Options options_;
  const std::vector<size_t> sizes_;
  const int runs_;
  const int64_t trips_per_run_;
  const absl::Time start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  int runs_done_ = 0;      // guarded by mutex_
  bool stop_ = false;      // guarded by mutex_
  size_t line_width_ = 0;  // the thread's: the last line written on a terminal
  std::thread thread_;
};

}  // namespace tickbench::harness

#endif  // HARNESS_PROGRESS_METER_H_
