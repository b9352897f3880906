// SIGINT and SIGTERM as a request to stop, seen by every blocking call within a second.
//
// Promised:
//   * InstallStopHandlers() installs handlers for SIGINT and SIGTERM *without*
//     SA_RESTART: a system call blocked when the signal arrives (read, recv, ppoll, poll,
//     nanosleep) fails with EINTR, and the code around it checks StopRequested() and
//     returns absl::CancelledError (see CancelledIfStopRequested()).
//   * The first signal only records itself: StopRequested() becomes true and StopSignal()
//     names it, so that what was measured until then can still be printed and written.
//   * A second SIGINT or SIGTERM while a stop is pending ends the process at once with
//     128 + that signal's number (_exit: no flush, no destructors), for a user who does
//     not want to wait even for that.
//   * StopRequested() is one relaxed atomic load, no system call: the measurement loop
//     may read it every round trip.
// Not promised:
//   * A signal that arrives between two system calls is seen at the next check of
//     StopRequested(), not at once; loops that may run long without blocking must check.
//   * Nothing here is thread-aware: the signal goes to whichever thread the kernel picks.
#ifndef PLATFORM_STOP_SIGNAL_H_
#define PLATFORM_STOP_SIGNAL_H_

#include <atomic>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace tickbench::platform {

namespace stop_internal {
// Written only by the handler (and ResetStopForTesting); read by StopRequested().
extern std::atomic<int> g_stop_signal;
}  // namespace stop_internal

// Installs the handlers (idempotent). Returns the error of sigaction, if any.
absl::Status InstallStopHandlers();

// Whether SIGINT or SIGTERM has arrived since the handlers were installed.
inline bool StopRequested() {
  return stop_internal::g_stop_signal.load(std::memory_order_relaxed) != 0;
}

// The signal that asked to stop (SIGINT or SIGTERM), or 0.
inline int StopSignal() { return stop_internal::g_stop_signal.load(std::memory_order_relaxed); }

// absl::CancelledError("stopped by signal N (while <what>)") when a stop was requested,
// else OK. For EINTR handlers: `if (errno == EINTR) { if (auto s = Cancelled...; !s.ok())
// return s; continue; }`.
absl::Status CancelledIfStopRequested(absl::string_view what);

// Returns CancelledIfStopRequested(what) from the enclosing function when a stop was
// requested: for EINTR branches and spin loops.
#define TICKBENCH_RETURN_IF_STOPPED(what)                             \
  do {                                                                \
    if (ABSL_PREDICT_FALSE(::tickbench::platform::StopRequested())) { \
      return ::tickbench::platform::CancelledIfStopRequested(what);   \
    }                                                                 \
  } while (false)

// Clears a recorded stop, for tests that raise the signal themselves.
void ResetStopForTesting();

}  // namespace tickbench::platform

#endif  // PLATFORM_STOP_SIGNAL_H_
