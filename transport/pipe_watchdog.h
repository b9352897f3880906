// A bound on a blocking pipe read that costs no system call per receive: a periodic
// timer per reading thread, armed once per timeout (once per run), whose signal makes a
// read that has waited too long return.
//
// Why: a pipe has no SO_RCVTIMEO. Waiting with ppoll() before (or after an empty) read
// bounds the wait but costs a system call or two per round trip that a bare blocking loop
// does not make. Here a receive is one blocking read(2), as the bare loop's, and the
// bound comes from outside it.
//
// How:
//   * Arming (the first Read() after SetTimeout(), or on another thread): timer_create
//     on CLOCK_MONOTONIC, delivering WatchdogSignal() to the reading thread alone
//     (SIGEV_THREAD_ID), periodic with period P = min(timeout / 4, 250 ms).
//   * The signal's handler is installed once per process, with SA_RESTART: a tick that
//     lands anywhere else in the thread (outside a Read()) only runs a handler that
//     returns at once, and restartable system calls carry on as if nothing happened.
//   * Inside a Read(), the handler counts the tick (with the timer's overruns) and sets
//     O_NONBLOCK on the descriptor (fcntl is async-signal-safe). The kernel restarts the
//     interrupted read, which now finds the descriptor non-blocking and, the pipe still
//     empty, fails with EAGAIN. Read() then clears O_NONBLOCK again and, unless the wait
//     is over, reads again.
//   * The wait is over after ceil(timeout / P) + 1 ticks with no byte: at least the
//     timeout, less than the timeout + P (the first tick comes anywhere within a period
//     of the read's start). As SO_RCVTIMEO's, the wait is for the next byte.
//
// Promised:
//   * A Read() whose bytes are there, or come before the timeout, makes read(2) calls
//     and nothing else: no clock read, no mask change, no wait call.
//   * A Read() on which nothing arrives ends with DeadlineExceeded after at least the
//     timeout and less than timeout + P (a stopped peer: SIGSTOP keeps the write end
//     open and silent).
//   * End of file (the writer closed, the peer died) ends a Read() at once, Unavailable.
//   * A stop request (platform/stop_signal.h) is seen within one tick (<= 250 ms) even
//     when the SIGINT/SIGTERM went to another thread; at once when it interrupts the read.
// Not promised:
//   * Ticks are not free: each runs a handler, and one inside a Read() costs about five
//     system calls (handler's fcntl, rt_sigreturn, the EAGAIN read, fcntl, read). At
//     P >= 62.5 ms that is under 100 a second, never per round trip.
//   * A non-restartable call of the arming thread (nanosleep, poll, sigtimedwait...)
//     may see EINTR from a tick, as it may from any signal; callers retry those.
//   * One reading thread per watchdog at a time; a Read() on another thread re-arms.
#ifndef TRANSPORT_PIPE_WATCHDOG_H_
#define TRANSPORT_PIPE_WATCHDOG_H_

#include <pthread.h>
#include <time.h>

#include <cstdint>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "absl/types/span.h"

namespace tickbench::transport {

// Shorter timeouts are not bounded by a watchdog (its ticks would be too frequent):
// the pipe endpoint waits for them with ppoll() after an empty read instead.
inline constexpr absl::Duration kMinWatchdogTimeout = absl::Milliseconds(20);
// The longest tick period, so that a stop request is seen within a second.
inline constexpr absl::Duration kMaxWatchdogPeriod = absl::Milliseconds(250);

// The real-time signal the watchdogs' timers deliver (SIGRTMAX - 1).
int WatchdogSignal();

// Whether this system can deliver a timer's signal to one thread (SIGEV_THREAD_ID),
// probed once per process. Linux can; an emulator may not (qemu-user answers EINVAL).
// Where it cannot, the pipe endpoint bounds every finite timeout as it bounds short ones:
// a non-blocking read, and ppoll() only when the read found nothing.
bool PipeWatchdogsAvailable();

class PipeWatchdog {
 public:
  PipeWatchdog();
  PipeWatchdog(const PipeWatchdog&) = delete;
  PipeWatchdog& operator=(const PipeWatchdog&) = delete;
  ~PipeWatchdog();

  // The bound for later Read()s (at least kMinWatchdogTimeout), or
  // absl::InfiniteDuration() to disarm (no timer ticks; Read() is then unbounded).
  // Arming happens at the next Read().
  absl::Status SetTimeout(absl::Duration timeout);

  // Reads until `buffer` is full from `fd`, a blocking descriptor, as ReadFull() in
  // full_io.h does, bounded as described above.
  absl::Status Read(int fd, absl::Span<char> buffer);

  // The tick period in force (absl::ZeroDuration() while disarmed), for tests.
  absl::Duration period() const { return period_; }

 private:
  absl::Status Arm(int fd);
  void Disarm();
  absl::Status ReadLoop(int fd, absl::Span<char> buffer);

  const int id_;  // tells this watchdog's ticks from others' in the signal handler
  absl::Duration timeout_ = absl::InfiniteDuration();
  absl::Duration period_ = absl::ZeroDuration();
  int64_t tick_limit_ = 0;  // ticks with no byte that end a Read()
  int blocking_flags_ = 0;  // the descriptor's flags, without O_NONBLOCK
  bool timer_created_ = false;
  bool armed_ = false;
  pthread_t armed_thread_{};
  timer_t timer_{};
};

}  // namespace tickbench::transport

#endif  // TRANSPORT_PIPE_WATCHDOG_H_
