#include "transport/io/full_io.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <ctime>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "platform/errno_status.h"
#include "platform/monotonic.h"
#include "platform/stop_signal.h"
#include "transport/io/spin_deadline.h"

namespace tickbench::transport {

namespace {

// Blocks SIGPIPE in the calling thread for its lifetime; see full_io.h for why. If the
// thread already blocked SIGPIPE, the mask is left alone, and a SIGPIPE that was already
// pending is left for its owner.
class ScopedSigpipeBlock {
 public:
  ScopedSigpipeBlock() {
    sigemptyset(&sigpipe_);
    sigaddset(&sigpipe_, SIGPIPE);
    sigset_t old_mask;
    pthread_sigmask(SIG_BLOCK, &sigpipe_, &old_mask);
    was_blocked_ = sigismember(&old_mask, SIGPIPE) == 1;
    if (was_blocked_) {
      sigset_t pending;
      sigpending(&pending);
      was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    }
  }
  ScopedSigpipeBlock(const ScopedSigpipeBlock&) = delete;
  ScopedSigpipeBlock& operator=(const ScopedSigpipeBlock&) = delete;

  // Call after a write failed with EPIPE: that write raised a SIGPIPE for this thread.
  void ConsumeRaisedSigpipe() {
    if (was_pending_) return;  // signals do not queue: ours merged with the pending one
    const timespec zero = {0, 0};
    while (sigtimedwait(&sigpipe_, nullptr, &zero) < 0 && errno == EINTR) {
    }
  }

  ~ScopedSigpipeBlock() {
    if (!was_blocked_) pthread_sigmask(SIG_UNBLOCK, &sigpipe_, nullptr);
  }

 private:
  sigset_t sigpipe_;
  bool was_blocked_ = false;
  bool was_pending_ = false;
};

// Writes data[written..]: the loop of WriteFull().
absl::Status WriteLoop(int fd, absl::Span<const char> data, WriteMode mode,
                       ScopedSigpipeBlock* block, size_t written = 0) {
  while (written < data.size()) {
    const char* from = data.data() + written;
    const size_t left = data.size() - written;
    const ssize_t n =
        mode == WriteMode::kSocket ? send(fd, from, left, MSG_NOSIGNAL) : write(fd, from, left);
    if (n < 0) {
      const int error_number = errno;
      if (error_number == EINTR) {
        TICKBENCH_RETURN_IF_STOPPED("writing");
        continue;
      }
      if (error_number == EPIPE && block != nullptr) block->ConsumeRaisedSigpipe();
      return IoErrnoToStatus(error_number,
                             absl::StrFormat("write %u of %u bytes", written, data.size()));
    }
    written += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

// Waits until `fd` is readable, has hung up, or has an error (the read that follows
// reports which), for at most `timeout` (absl::InfiniteDuration(): no bound).
//
// The clock is read only here, when a wait really happens (never on the common path,
// where the data is already there): once for the deadline, and again after each EINTR
// or slice for what is left. Linux writes the time left back into ppoll's timeout, but an emulator
// (qemu-user) may not, and a wait interrupted every few milliseconds must not restart
// from the whole timeout each time.
constexpr int64_t kStopCheckSliceNs = 250'000'000;

// A message's deadline: kNoDeadline until its bound starts (the first wait, or the first
// part of the message), then CLOCK_MONOTONIC's nanoseconds when the whole message is due.
constexpr int64_t kNoDeadline = 0;

int64_t DeadlineIn(int64_t timeout_ns) { return platform::MonotonicNanos() + timeout_ns; }

// Waits until `fd` is readable, has hung up, or has an error, for at most until
// `deadline_ns` (SpinDeadline::kNever: no bound); `timeout_ns` is the whole message's
// timeout, for the message.
absl::Status WaitReadableUntil(int fd, int64_t deadline_ns, int64_t timeout_ns) {
  const bool bounded = deadline_ns != SpinDeadline::kNever;
  int64_t left_ns = bounded ? deadline_ns - platform::MonotonicNanos() : kStopCheckSliceNs;
  while (left_ns > 0) {
    // In slices of at most kStopCheckSliceNs: a stop signal that went to another thread
    // does not interrupt this ppoll, and must still be seen within a second.
    const int64_t slice_ns = std::min(left_ns, kStopCheckSliceNs);
    const timespec slice = {static_cast<time_t>(slice_ns / 1000000000),
                            static_cast<long>(slice_ns % 1000000000)};
    pollfd poll_fd = {fd, POLLIN, 0};
    const int ready = ppoll(&poll_fd, 1, &slice, nullptr);
    if (ready > 0) return absl::OkStatus();
    if (ready < 0 && errno != EINTR) return platform::ErrnoToStatus(errno, "ppoll");
    TICKBENCH_RETURN_IF_STOPPED("waiting for data");
    if (bounded) left_ns = deadline_ns - platform::MonotonicNanos();
  }
  return absl::DeadlineExceededError(
      absl::StrCat("the whole message did not come within ",
                   absl::FormatDuration(absl::Nanoseconds(timeout_ns))));
}

absl::Status AnnotateWait(const absl::Status& waited, size_t done, size_t size) {
  return absl::Status(waited.code(),
                      absl::StrFormat("read %u of %u bytes: %s", done, size, waited.message()));
}

}  // namespace

absl::Status PeerClosedError(absl::string_view what) {
  return absl::UnavailableError(absl::StrCat(what, ": peer closed the connection"));
}

absl::Status IoErrnoToStatus(int error_number, absl::string_view what) {
  switch (error_number) {
    case ECONNRESET:
    case EPIPE:
    case ECONNREFUSED:
      return PeerClosedError(what);
    case EAGAIN:
#if EWOULDBLOCK != EAGAIN
    case EWOULDBLOCK:
#endif
      return absl::DeadlineExceededError(absl::StrCat(what, ": receive timeout expired"));
    default:
      return platform::ErrnoToStatus(error_number, what);
  }
}

namespace full_io_internal {

absl::Status WriteFullSlow(int fd, absl::Span<const char> data, WriteMode mode) {
  if (mode == WriteMode::kPipe) {
    ScopedSigpipeBlock block;
    return WriteLoop(fd, data, mode, &block);
  }
  return WriteLoop(fd, data, mode, nullptr);
}

// The inline part never takes WriteMode::kPipe: no SIGPIPE to consume here.
absl::Status FinishWrite(int fd, absl::Span<const char> data, WriteMode mode, ssize_t first,
                         int error_number) {
  if (first >= 0) return WriteLoop(fd, data, mode, nullptr, static_cast<size_t>(first));
  if (error_number != EINTR) {
    return IoErrnoToStatus(error_number, absl::StrFormat("write 0 of %u bytes", data.size()));
  }
  TICKBENCH_RETURN_IF_STOPPED("writing");
  return WriteLoop(fd, data, mode, nullptr);
}

}  // namespace full_io_internal

namespace {

// Reads buffer[done..]: the loop of ReadFull(). `wait_ns` (not kNever): ppoll() before each
// read, the whole message due `wait_ns` after the first. `rest_ns` (not kNever): the rest
// of the message due `rest_ns` after its first part came, each read after that part
// waiting with ppoll() for what is left (the descriptor's SO_RCVTIMEO bounds the reads
// before it).
absl::Status ReadLoop(int fd, absl::Span<char> buffer, ReadMode mode, int64_t wait_ns, size_t done,
                      int64_t rest_ns = SpinDeadline::kNever) {
  int64_t deadline_ns = kNoDeadline;
  if (wait_ns != SpinDeadline::kNever) {
    deadline_ns = DeadlineIn(wait_ns);
  } else if (rest_ns != SpinDeadline::kNever && done > 0) {
    deadline_ns = DeadlineIn(rest_ns);
  }
  while (done < buffer.size()) {
    if (deadline_ns != kNoDeadline) {
      const int64_t timeout_ns = wait_ns != SpinDeadline::kNever ? wait_ns : rest_ns;
      if (absl::Status waited = WaitReadableUntil(fd, deadline_ns, timeout_ns); !waited.ok()) {
        return AnnotateWait(waited, done, buffer.size());
      }
    }
    const ssize_t n = ReadOnce(fd, buffer.data() + done, buffer.size() - done, mode);
    if (n < 0) {
      const int error_number = errno;
      if (error_number == EINTR) {
        TICKBENCH_RETURN_IF_STOPPED("reading");
        continue;
      }
      return IoErrnoToStatus(error_number,
                             absl::StrFormat("read %u of %u bytes", done, buffer.size()));
    }
    if (n == 0) {
      return PeerClosedError(absl::StrFormat("read %u of %u bytes", done, buffer.size()));
    }
    done += static_cast<size_t>(n);
    if (deadline_ns == kNoDeadline && rest_ns != SpinDeadline::kNever) {
      deadline_ns = DeadlineIn(rest_ns);
    }
  }
  return absl::OkStatus();
}

}  // namespace

namespace full_io_internal {

absl::Status ReadFullSlow(int fd, absl::Span<char> buffer, ReadMode mode,
                          absl::Duration wait_timeout) {
  return ReadLoop(fd, buffer, mode, SpinDeadline::TimeoutNanoseconds(wait_timeout), 0);
}

absl::Status FinishRead(int fd, absl::Span<char> buffer, ReadMode mode, ssize_t first,
                        int error_number, int64_t rest_ns) {
  if (first > 0) {
    return ReadLoop(fd, buffer, mode, SpinDeadline::kNever, static_cast<size_t>(first), rest_ns);
  }
  if (first == 0) return PeerClosedError(absl::StrFormat("read 0 of %u bytes", buffer.size()));
  if (error_number != EINTR) {
    return IoErrnoToStatus(error_number, absl::StrFormat("read 0 of %u bytes", buffer.size()));
  }
  TICKBENCH_RETURN_IF_STOPPED("reading");
  return ReadLoop(fd, buffer, mode, SpinDeadline::kNever, 0, rest_ns);
}

}  // namespace full_io_internal

absl::Status ReadFullWaitingOnEagain(int fd, absl::Span<char> buffer, absl::Duration timeout) {
  const int64_t timeout_ns = SpinDeadline::TimeoutNanoseconds(timeout);
  int64_t deadline_ns = kNoDeadline;  // from the first wait: the whole message due then
  size_t done = 0;
  while (done < buffer.size()) {
    const ssize_t n = read(fd, buffer.data() + done, buffer.size() - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n == 0) {
      return PeerClosedError(absl::StrFormat("read %u of %u bytes", done, buffer.size()));
    }
    const int error_number = errno;
    if (error_number == EINTR) {
      TICKBENCH_RETURN_IF_STOPPED("reading");
      continue;
    }
    if (error_number != EAGAIN && error_number != EWOULDBLOCK) {
      return IoErrnoToStatus(error_number,
                             absl::StrFormat("read %u of %u bytes", done, buffer.size()));
    }
    if (deadline_ns == kNoDeadline) {
      deadline_ns = timeout_ns == SpinDeadline::kNever ? timeout_ns : DeadlineIn(timeout_ns);
    }
    if (absl::Status waited = WaitReadableUntil(fd, deadline_ns, timeout_ns); !waited.ok()) {
      return AnnotateWait(waited, done, buffer.size());
    }
  }
  return absl::OkStatus();
}

namespace full_io_internal {

absl::Status FinishSpinRead(int fd, absl::Span<char> buffer, absl::Duration timeout, SpinRead how,
                            ssize_t got, int error_number, int empty_attempts) {
  SpinDeadline deadline(timeout, empty_attempts);
  size_t done = 0;
  while (true) {
    if (got > 0) {
      done += static_cast<size_t>(got);
      if (done == buffer.size()) return absl::OkStatus();  // the deadline runs on: whole message
    } else if (got == 0) {
      return PeerClosedError(absl::StrFormat("read %u of %u bytes", done, buffer.size()));
    } else if (error_number == EINTR || error_number == EAGAIN || error_number == EWOULDBLOCK) {
      // A signal that lands while spinning interrupts no system call: look for it here.
      TICKBENCH_RETURN_IF_STOPPED("busy polling");
      if (error_number != EINTR && deadline.Expired()) {
        return absl::DeadlineExceededError(absl::StrFormat(
            "read %u of %u bytes: the whole message did not come within %s (busy polling)", done,
            buffer.size(), absl::FormatDuration(timeout)));
      }
    } else {
      return IoErrnoToStatus(error_number,
                             absl::StrFormat("read %u of %u bytes", done, buffer.size()));
    }
    got = SpinReadOnce(fd, buffer.data() + done, buffer.size() - done, how);
    error_number = got < 0 ? errno : 0;
  }
}

}  // namespace full_io_internal

bool ProcessIgnoresSigpipe() {
  struct sigaction current;
  if (sigaction(SIGPIPE, nullptr, &current) != 0) return false;
  return (current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_IGN;
}

}  // namespace tickbench::transport
