// A bound on a blocking read that costs no system call and no kernel timer per
// receive: a periodic timer per reading thread, armed once per timeout (once per run),
// whose signal makes a read that has waited too long return.
//
// Why: a pipe has no SO_RCVTIMEO. Waiting with ppoll() before (or after an empty) read
// bounds the wait but costs a system call or two per round trip that a bare blocking loop
// does not make. A socket has SO_RCVTIMEO, but the kernel then arms and cancels a timer
// in every receive that waits, a cost the bare loop does not pay (docs/overhead.md). Here a receive
// is one blocking read(2), as the bare loop's, and the bound comes from outside it. It is looser
// than SO_RCVTIMEO's (see below), which is why datagram sockets, whose timeout tells a lost
// datagram from a late one, keep SO_RCVTIMEO (socket_endpoint.h).
//
// How:
//   * Arming (the first Read() after SetTimeout(), or on another thread):
//     timer_create on CLOCK_MONOTONIC, delivering WatchdogSignal() to the reading thread
//     alone (SIGEV_THREAD_ID), periodic with period P = min(timeout / 4, 250 ms).
//   * The signal's handler is installed once per process, with SA_RESTART: a tick that
//     lands anywhere else in the thread (outside a Read()) only runs a handler that
//     returns at once, and restartable system calls carry on as if nothing happened.
//   * Inside a Read(), the handler counts the tick (with the timer's overruns) and sets
//     O_NONBLOCK on the descriptor (fcntl is async-signal-safe). The kernel restarts the
//     interrupted read (a socket's too, having no SO_RCVTIMEO), which now finds the
//     descriptor non-blocking and, nothing having come, fails with EAGAIN. Read() then
//     clears O_NONBLOCK again and, unless the wait is over, reads again.
//   * The wait is over after ceil(timeout / P) + 1 ticks since the Read() began, bytes
//     or none: at least the timeout, less than the timeout + P (the first tick comes
//     anywhere within a period of the read's start). Unlike SO_RCVTIMEO's, the bound is
//     the whole message's: a peer that drips it a byte at a time does not restart it.
//
// Promised:
//   * A Read() whose bytes are there, or come before the timeout, makes read(2) calls
//     and nothing else: no clock read, no mask change, no wait call.
//   * A Read() whose whole message has not arrived ends with DeadlineExceeded after at
//     least the timeout and less than timeout + P: a stopped peer (SIGSTOP keeps the
//     write end open and silent), and a peer that sends part of it, or drips it, alike.
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
//   * O_NONBLOCK, while a tick has it set, is the open file's: another thread writing
//     the same socket then may see EAGAIN. An endpoint reads and writes from one thread.
#ifndef TRANSPORT_READ_WATCHDOG_H_
#define TRANSPORT_READ_WATCHDOG_H_

#include <fcntl.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "platform/compiler.h"
#include "transport/io/full_io.h"

namespace tickbench::transport {

namespace read_watchdog_internal {
// What the tick handler needs of the Read() in progress on this thread. Written by Read()
// with compiler fences around it, read and written by the handler on the same thread.
// initial-exec: a plain %fs-relative access, safe in a signal handler.
struct WatchState {
  volatile int id;              // the watchdog reading now, 0 for none
  volatile int fd;              // its descriptor
  volatile int non_blocking;    // its flags with O_NONBLOCK
  volatile int64_t ticks;       // ticks since the Read() began
  volatile int made_non_block;  // the handler set O_NONBLOCK since Read() last cleared it
  int tid;                      // this thread's id (gettid()), cached by Arm(); 0 until then
};
extern thread_local WatchState t_watch __attribute__((tls_model("initial-exec")));
}  // namespace read_watchdog_internal

// Shorter timeouts are not bounded by a watchdog (its ticks would be too frequent): the
// pipe endpoint waits for them with ppoll() after an empty read instead, a stream socket
// with SO_RCVTIMEO.
inline constexpr absl::Duration kMinWatchdogTimeout = absl::Milliseconds(20);
// The longest tick period, so that a stop request is seen within a second.
inline constexpr absl::Duration kMaxWatchdogPeriod = absl::Milliseconds(250);

// The real-time signal the watchdogs' timers deliver (SIGRTMAX - 1).
int WatchdogSignal();

// Whether this system can deliver a timer's signal to one thread (SIGEV_THREAD_ID),
// probed once per process. Linux can; an emulator may not (qemu-user answers EINVAL).
// Where it cannot, the pipe endpoint bounds every finite timeout as it bounds short ones
// (a non-blocking read, and ppoll() only when the read found nothing), and a stream
// socket with SO_RCVTIMEO.
bool ReadWatchdogsAvailable();

// Whether a watchdog bounds `timeout`: finite, at least kMinWatchdogTimeout, and
// watchdogs available here. The endpoints bound any other finite timeout otherwise.
bool WatchdogBounds(absl::Duration timeout);

class ReadWatchdog {
 public:
  ReadWatchdog();
  ReadWatchdog(const ReadWatchdog&) = delete;
  ReadWatchdog& operator=(const ReadWatchdog&) = delete;
  ~ReadWatchdog();

  // The bound for later Read()s (at least kMinWatchdogTimeout), or
  // absl::InfiniteDuration() to disarm (no timer ticks; Read() is then unbounded).
  // Arming happens at the next Read().
  absl::Status SetTimeout(absl::Duration timeout);

  // Reads until `buffer` is full from `fd`, a blocking descriptor (a pipe, or a stream
  // socket without SO_RCVTIMEO), as ReadFull() in full_io.h does (recv(2) or read(2), as
  // `mode` says), bounded as described above. Inline up to its first read, which in
  // a round trip gets the whole message: then it costs that call, a few stores to this
  // thread's WatchState and the comparisons after it (no call: which thread reads is
  // told by the thread id cached in its WatchState, not by pthread_self()).
  absl::Status Read(int fd, absl::Span<char> buffer, ReadMode mode);

  // The tick period in force (absl::ZeroDuration() while disarmed), for tests.
  absl::Duration period() const { return period_; }

 private:
  // Whether the timer ticks for this thread with this timeout.
  bool armed_here() const { return armed_ && read_watchdog_internal::t_watch.tid == armed_tid_; }
  absl::Status Arm(int fd);
  void Disarm();
  // Before a read(2) on `fd`: the handler acts on it from here on.
  void BeginWatch(int fd);
  // After it: the handler no longer acts on it. False when a tick set O_NONBLOCK (then
  // EndRead() clears it).
  static bool EndWatch();
  // The rest of a Read() whose first read(2) returned `first` (errno `error_number`):
  // reads until the buffer is full, the wait is over or an error; then ends the Read().
  absl::Status FinishRead(int fd, absl::Span<char> buffer, ReadMode mode, ssize_t first,
                          int error_number);
  absl::Status ReadLoop(int fd, absl::Span<char> buffer, ReadMode mode, ssize_t n,
                        int error_number);
  // Ends a Read(): the handler no longer acts on this thread's reads, and O_NONBLOCK, if
  // a tick set it, is cleared.
  absl::Status EndRead(int fd, absl::Status status);

  const int id_;  // tells this watchdog's ticks from others' in the signal handler
  absl::Duration timeout_ = absl::InfiniteDuration();
  absl::Duration period_ = absl::ZeroDuration();
  int64_t tick_limit_ = 0;  // ticks with no byte that end a Read()
  int blocking_flags_ = 0;  // the descriptor's flags, without O_NONBLOCK
  bool timer_created_ = false;
  bool armed_ = false;
  int armed_tid_ = 0;  // the thread the timer ticks for
  timer_t timer_{};
};

TICKBENCH_ALWAYS_INLINE void ReadWatchdog::BeginWatch(int fd) {
  read_watchdog_internal::WatchState& watch = read_watchdog_internal::t_watch;
  watch.fd = fd;
  watch.non_blocking = blocking_flags_ | O_NONBLOCK;
  watch.ticks = 0;
  watch.made_non_block = 0;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  watch.id = id_;
  std::atomic_signal_fence(std::memory_order_seq_cst);
}

TICKBENCH_ALWAYS_INLINE bool ReadWatchdog::EndWatch() {
  read_watchdog_internal::WatchState& watch = read_watchdog_internal::t_watch;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  watch.id = 0;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  // A tick between the call and the line above left O_NONBLOCK set.
  return watch.made_non_block == 0;
}

TICKBENCH_ALWAYS_INLINE absl::Status ReadWatchdog::Read(int fd, absl::Span<char> buffer,
                                                        ReadMode mode) {
  if (timeout_ == absl::InfiniteDuration()) return ReadFull(fd, buffer, mode);
  if (ABSL_PREDICT_FALSE(!armed_here())) {
    if (absl::Status armed = Arm(fd); !armed.ok()) return armed;
  }
  BeginWatch(fd);
  const ssize_t n = ReadOnce(fd, buffer.data(), buffer.size(), mode);
  if (ABSL_PREDICT_TRUE(n == static_cast<ssize_t>(buffer.size()))) {
    if (ABSL_PREDICT_TRUE(EndWatch())) return absl::OkStatus();
    return EndRead(fd, absl::OkStatus());
  }
  return FinishRead(fd, buffer, mode, n, errno);
}

}  // namespace tickbench::transport

#endif  // TRANSPORT_READ_WATCHDOG_H_
