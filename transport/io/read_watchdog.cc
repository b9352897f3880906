#include "transport/io/read_watchdog.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "platform/errno_status.h"
#include "platform/stop_signal.h"
#include "transport/io/full_io.h"

namespace tickbench::transport {

namespace read_watchdog_internal {
thread_local WatchState t_watch __attribute__((tls_model("initial-exec"))) = {};
}  // namespace read_watchdog_internal

namespace {

using read_watchdog_internal::t_watch;

std::atomic<int> g_next_id{1};

void OnTick(int, siginfo_t* info, void*) {
  if (info->si_code != SI_TIMER || t_watch.id == 0 || info->si_value.sival_int != t_watch.id) {
    return;  // between reads, or another watchdog's late tick: nothing to do
  }
  const int saved_errno = errno;
  t_watch.ticks = t_watch.ticks + 1 + std::max(0, info->si_overrun);
  if (fcntl(t_watch.fd, F_SETFL, t_watch.non_blocking) == 0) t_watch.made_non_block = 1;
  errno = saved_errno;
}

absl::Status InstallTickHandler() {
  static std::once_flag once;
  static int error_number = 0;
  std::call_once(once, [] {
    struct sigaction action = {};
    action.sa_sigaction = OnTick;
    sigemptyset(&action.sa_mask);
    // SA_RESTART: a tick outside a Read() must not fail anyone's read or write.
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    if (sigaction(WatchdogSignal(), &action, nullptr) != 0) error_number = errno;
  });
  if (error_number != 0) return platform::ErrnoToStatus(error_number, "sigaction(watchdog)");
  return absl::OkStatus();
}

// Clears O_NONBLOCK: always (`always`, after an EAGAIN) or if a tick set it.
absl::Status RestoreBlocking(int fd, int blocking_flags, bool always) {
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (!always && t_watch.made_non_block == 0) return absl::OkStatus();
  t_watch.made_non_block = 0;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (fcntl(fd, F_SETFL, blocking_flags) != 0) {
    return platform::ErrnoToStatus(errno, "fcntl(F_SETFL) after a watchdog tick");
  }
  return absl::OkStatus();
}

}  // namespace

int WatchdogSignal() { return SIGRTMAX - 1; }

namespace {

sigevent ThreadTickEvent(int id) {
  sigevent event = {};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = WatchdogSignal();
  event.sigev_value.sival_int = id;
#ifdef sigev_notify_thread_id
  event.sigev_notify_thread_id = gettid();
#else
  event._sigev_un._tid = gettid();
#endif
  return event;
}

}  // namespace

bool ReadWatchdogsAvailable() {
  static const bool available = [] {
    sigevent event = ThreadTickEvent(0);  // id 0: never a Read()'s, ignored if it ticked
    timer_t timer;
    if (timer_create(CLOCK_MONOTONIC, &event, &timer) != 0) return false;
    timer_delete(timer);
    return true;
  }();
  return available;
}

bool WatchdogBounds(absl::Duration timeout) {
  return timeout != absl::InfiniteDuration() && timeout >= kMinWatchdogTimeout &&
         ReadWatchdogsAvailable();
}

ReadWatchdog::ReadWatchdog() : id_(g_next_id.fetch_add(1)) {}

ReadWatchdog::~ReadWatchdog() {
  // A tick already queued carries this id, which no Read() will hold again.
  if (timer_created_) timer_delete(timer_);
}

absl::Status ReadWatchdog::SetTimeout(absl::Duration timeout) {
  if (timeout != absl::InfiniteDuration() && timeout < kMinWatchdogTimeout) {
    return absl::InvalidArgumentError(absl::StrCat("a read watchdog bounds waits of at least ",
                                                   absl::FormatDuration(kMinWatchdogTimeout),
                                                   ", not ", absl::FormatDuration(timeout)));
  }
  if (timeout == absl::InfiniteDuration()) Disarm();
  timeout_ = timeout;
  armed_ = false;  // armed again, with this timeout, by the next Read()
  return absl::OkStatus();
}

void ReadWatchdog::Disarm() {
  if (timer_created_) {
    const itimerspec stop = {};
    timer_settime(timer_, 0, &stop, nullptr);
  }
  armed_ = false;
  period_ = absl::ZeroDuration();
}

absl::Status ReadWatchdog::Arm(int fd) {
  if (absl::Status installed = InstallTickHandler(); !installed.ok()) return installed;
  const int flags = fcntl(fd, F_GETFL);
  if (flags < 0) return platform::ErrnoToStatus(errno, "fcntl(F_GETFL)");
  blocking_flags_ = flags & ~O_NONBLOCK;
  // A new thread's TLS starts zeroed, so a thread that reuses an exited one's stack (and
  // pthread_t) still has its own id to learn here.
  if (t_watch.tid == 0) t_watch.tid = static_cast<int>(gettid());
  const int self = t_watch.tid;
  if (timer_created_ && self != armed_tid_) {
    timer_delete(timer_);  // its ticks go to the other thread
    timer_created_ = false;
  }
  if (!timer_created_) {
    sigevent event = ThreadTickEvent(id_);
    if (timer_create(CLOCK_MONOTONIC, &event, &timer_) != 0) {
      return platform::ErrnoToStatus(errno, "timer_create(watchdog)");
    }
    timer_created_ = true;
    armed_tid_ = self;
  }
  period_ = std::min(timeout_ / 4, kMaxWatchdogPeriod);
  tick_limit_ = static_cast<int64_t>(absl::Ceil(timeout_, period_) / period_) + 1;
  const int64_t period_ns = absl::ToInt64Nanoseconds(period_);
  const timespec period = {static_cast<time_t>(period_ns / 1000000000),
                           static_cast<long>(period_ns % 1000000000)};
  const itimerspec every = {period, period};
  if (timer_settime(timer_, 0, &every, nullptr) != 0) {
    return platform::ErrnoToStatus(errno, "timer_settime(watchdog)");
  }
  armed_ = true;
  return absl::OkStatus();
}

absl::Status ReadWatchdog::EndRead(int fd, absl::Status status) {
  EndWatch();
  if (absl::Status restored = RestoreBlocking(fd, blocking_flags_, false); status.ok())
    status = restored;
  return status;
}

absl::Status ReadWatchdog::FinishRead(int fd, absl::Span<char> buffer, ReadMode mode, ssize_t first,
                                      int error_number) {
  return EndRead(fd, ReadLoop(fd, buffer, mode, first, error_number));
}

// `n` and `error_number`: what the last read returned, and errno then.
absl::Status ReadWatchdog::ReadLoop(int fd, absl::Span<char> buffer, ReadMode mode, ssize_t n,
                                    int error_number) {
  size_t done = 0;
  while (true) {
    if (n > 0) {
      done += static_cast<size_t>(n);  // the ticks run on: the bound is the whole message's
      if (done >= buffer.size()) return absl::OkStatus();
    } else if (n == 0) {  // (an empty buffer never gets here: Read() returns at once)
      return PeerClosedError(absl::StrFormat("read %u of %u bytes", done, buffer.size()));
    } else if (error_number == EINTR) {  // a stop signal (installed without SA_RESTART)
      TICKBENCH_RETURN_IF_STOPPED("reading");
    } else if (error_number != EAGAIN && error_number != EWOULDBLOCK) {
      return IoErrnoToStatus(error_number,
                             absl::StrFormat("read %u of %u bytes", done, buffer.size()));
    } else {
      // A tick ended the read: block again, unless the wait is over or a stop was asked.
      if (absl::Status restored = RestoreBlocking(fd, blocking_flags_, true); !restored.ok()) {
        return restored;
      }
      TICKBENCH_RETURN_IF_STOPPED("waiting for data");
      std::atomic_signal_fence(std::memory_order_seq_cst);
      if (t_watch.ticks >= tick_limit_) {
        return absl::DeadlineExceededError(
            absl::StrFormat("read %u of %u bytes: the whole message did not come within %s", done,
                            buffer.size(), absl::FormatDuration(timeout_)));
      }
    }
    n = ReadOnce(fd, buffer.data() + done, buffer.size() - done, mode);
    error_number = n < 0 ? errno : 0;
  }
}

}  // namespace tickbench::transport
