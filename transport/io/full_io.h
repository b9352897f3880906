// Whole-buffer reads and writes on blocking descriptors (and reads on O_NONBLOCK ones, where
// a function says so), with the errors the transports report.
//
// Error mapping (the same for every transport, so callers can act on the code alone):
//   * end of file, ECONNRESET, EPIPE, ECONNREFUSED -> Unavailable, with the text "peer
//     closed the connection" (ECONNREFUSED is how a connected UDP or UNIX datagram socket
//     learns that the peer's socket is gone);
//   * EAGAIN/EWOULDBLOCK -> DeadlineExceeded: on a blocking descriptor they can only come
//     from SO_RCVTIMEO (ReadFull()'s own ppoll() wait ends the same way). The reads for
//     O_NONBLOCK descriptors (ReadFullWaitingOnEagain, SpinReadFull) wait or spin on
//     them instead, and end with DeadlineExceeded when their own timeout runs out;
//   * EINTR is retried; anything else goes through platform::ErrnoToStatus().
//
// SIGPIPE: writing to a socket or pipe whose reader has gone raises SIGPIPE, which kills
// the process by default. Library code does not install a SIGPIPE handler, so:
//   * sockets are written with send(MSG_NOSIGNAL): no signal, just EPIPE;
//   * pipes have no such flag on Linux. WriteMode::kPipe blocks SIGPIPE in the calling
//     thread for the duration of the write, and takes a SIGPIPE the write raised off the
//     thread's pending set (sigtimedwait with a zero timeout) before restoring the mask:
//     the write returns EPIPE and no one else sees a signal. That costs two
//     rt_sigprocmask calls per WriteFull(). When the process already ignores SIGPIPE
//     (a program's main() may choose that), WriteMode::kPipeSigpipeIgnored is a bare
//     write(2); ProcessIgnoresSigpipe() tells which applies.
#ifndef TRANSPORT_FULL_IO_H_
#define TRANSPORT_FULL_IO_H_

#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "platform/compiler.h"
#include "transport/io/spin_deadline.h"

namespace tickbench::transport {

// How a blocking read asks for bytes.
enum class ReadMode {
  kSocket,      // recv(2) with no flags: the socket layer's own call. read(2) on a socket
                // goes through the file layer first (its permission and access hooks),
                // which costs more per call (docs/overhead.md)
  kDescriptor,  // read(2): a pipe
};

enum class WriteMode {
  kSocket,              // send(2) with MSG_NOSIGNAL
  kPipe,                // write(2) with SIGPIPE blocked in this thread around it
  kPipeSigpipeIgnored,  // write(2) alone: the process ignores SIGPIPE
};

// The status for a failed read, write, send or recv, mapped as described above. `what`
// names the operation ("read 12 of 100 bytes").
absl::Status IoErrnoToStatus(int error_number, absl::string_view what);

// The status for end of file where more bytes were expected.
absl::Status PeerClosedError(absl::string_view what);

namespace full_io_internal {
// What follows a first call that did not do the whole job (`first`: what it returned,
// `error_number`: errno then): the rest of WriteFull() and ReadFull(), out of line.
absl::Status FinishWrite(int fd, absl::Span<const char> data, WriteMode mode, ssize_t first,
                         int error_number);
absl::Status FinishRead(int fd, absl::Span<char> buffer, ReadMode mode, ssize_t first,
                        int error_number, int64_t rest_ns = SpinDeadline::kNever);
// The whole of each, for what the inline part does not take (a pipe whose writes mask
// SIGPIPE; a read that waits first; an empty buffer).
absl::Status WriteFullSlow(int fd, absl::Span<const char> data, WriteMode mode);
absl::Status ReadFullSlow(int fd, absl::Span<char> buffer, ReadMode mode,
                          absl::Duration wait_timeout);
}  // namespace full_io_internal

// One read of at most `n` bytes into `to`, as `mode` says: recv(2) or read(2).
TICKBENCH_ALWAYS_INLINE ssize_t ReadOnce(int fd, char* to, size_t n, ReadMode mode) {
  return mode == ReadMode::kSocket ? recv(fd, to, n, 0) : read(fd, to, n);
}

// Writes all of `data`, retrying short writes and EINTR. Inline up to its first call,
// which in a round trip writes the whole message: the common case runs no code beyond
// the call and the comparison after it.
inline absl::Status WriteFull(int fd, absl::Span<const char> data, WriteMode mode) {
  if (ABSL_PREDICT_FALSE(mode == WriteMode::kPipe || data.empty())) {
    return full_io_internal::WriteFullSlow(fd, data, mode);
  }
  const ssize_t n = mode == WriteMode::kSocket ? send(fd, data.data(), data.size(), MSG_NOSIGNAL)
                                               : write(fd, data.data(), data.size());
  if (ABSL_PREDICT_TRUE(n == static_cast<ssize_t>(data.size()))) return absl::OkStatus();
  return full_io_internal::FinishWrite(fd, data, mode, n, errno);
}

// Reads until `buffer` is full (recv(2) or read(2), as `mode` says), retrying short reads
// and EINTR. With a finite `wait_timeout`, waits for data with ppoll() before each read
// and returns DeadlineExceeded when the whole message has not come within `wait_timeout`
// of the first wait (one deadline for the message, not one per read): for blocking
// descriptors that have no SO_RCVTIMEO. With absl::InfiniteDuration() it only reads, so
// sockets with SO_RCVTIMEO set pay for no extra system call (ReadFullWithin() bounds the
// whole message on those). The clock is read only when a wait happens: once for its
// deadline, and after a signal interrupted it, for what is left.
//
// A timeout or error part-way through a message leaves the stream out of step with the
// peer: the bytes already read are lost to the caller. The message says how many.
//
// Inline up to its first read when it does not wait first: a message already whole in
// the kernel costs the call and a comparison.
inline absl::Status ReadFull(int fd, absl::Span<char> buffer, ReadMode mode,
                             absl::Duration wait_timeout = absl::InfiniteDuration()) {
  if (ABSL_PREDICT_FALSE(wait_timeout != absl::InfiniteDuration() || buffer.empty())) {
    return full_io_internal::ReadFullSlow(fd, buffer, mode, wait_timeout);
  }
  const ssize_t n = ReadOnce(fd, buffer.data(), buffer.size(), mode);
  if (ABSL_PREDICT_TRUE(n == static_cast<ssize_t>(buffer.size()))) return absl::OkStatus();
  return full_io_internal::FinishRead(fd, buffer, mode, n, errno);
}

// ReadFull() for a socket whose SO_RCVTIMEO is the receive timeout, with the whole message
// bounded too, not only each read: SO_RCVTIMEO bounds the wait for the first bytes (and
// ends it with DeadlineExceeded); once a read has returned part of the message, the clock
// is read once and the rest is due `rest_timeout_ns` later (SpinDeadline::kNever: no
// bound), each further read waiting with ppoll() for at most what is left. So a peer that
// drips its message a byte at a time, each byte within SO_RCVTIMEO, still ends in
// DeadlineExceeded, less than twice the timeout after the receive began. A message whole
// at the first read costs that read and a comparison, as ReadFull()'s: no clock, no ppoll.
inline absl::Status ReadFullWithin(int fd, absl::Span<char> buffer, ReadMode mode,
                                   int64_t rest_timeout_ns) {
  if (ABSL_PREDICT_FALSE(buffer.empty())) return absl::OkStatus();
  const ssize_t n = ReadOnce(fd, buffer.data(), buffer.size(), mode);
  if (ABSL_PREDICT_TRUE(n == static_cast<ssize_t>(buffer.size()))) return absl::OkStatus();
  return full_io_internal::FinishRead(fd, buffer, mode, n, errno, rest_timeout_ns);
}

// ReadFull() for a descriptor with O_NONBLOCK set (a pipe's read end) that is to be
// waited on: reads first, and only when the read finds nothing (EAGAIN) waits with
// ppoll() for at most `timeout` (absl::InfiniteDuration(): no bound), then reads again.
// Bytes already there cost one read(2) and nothing else; an empty descriptor costs a
// read, a ppoll and a read. DeadlineExceeded when the whole message has not arrived
// within `timeout` of the first wait's start (one deadline for the message: a peer
// dripping bytes cannot stretch it). The clock is read only when a wait happens (for its
// deadline), never when the bytes are there.
// On a blocking descriptor it is a plain blocking read: `timeout` does not apply.
absl::Status ReadFullWaitingOnEagain(int fd, absl::Span<char> buffer, absl::Duration timeout);

// How a busy-poll read asks for bytes without waiting.
enum class SpinRead {
  kRecvDontWait,     // recv(MSG_DONTWAIT): a socket, which stays blocking for writes
  kNonBlockingRead,  // read(2) on a descriptor with O_NONBLOCK set (a pipe's read end)
};

namespace full_io_internal {
// One attempt of a busy-poll read: recv(MSG_DONTWAIT) or read(2).
inline ssize_t SpinReadOnce(int fd, char* to, size_t n, SpinRead how) {
  return how == SpinRead::kRecvDontWait ? recv(fd, to, n, MSG_DONTWAIT) : read(fd, to, n);
}
// The rest of a SpinReadFull() whose last attempt returned `got` (errno `error_number`)
// after `empty_attempts` attempts that found nothing before it: partial reads, EINTR,
// the stop request, the deadline, errors. Out of line.
absl::Status FinishSpinRead(int fd, absl::Span<char> buffer, absl::Duration timeout, SpinRead how,
                            ssize_t got, int error_number, int empty_attempts);
}  // namespace full_io_internal

// ReadFull() for busy polling: never sleeps in the kernel, but asks for bytes again and
// again until `buffer` is full. DeadlineExceeded when the whole message has not arrived
// within `timeout` of the first clock read (absl::InfiniteDuration(): spins for ever); see
// SpinDeadline for when the clock is read. Bytes that come do not restart it: one deadline
// for the message. The errors are mapped as for ReadFull().
// A stop request (platform/stop_signal.h) ends it with Cancelled, seen within
// SpinDeadline::kAttemptsPerCheck attempts (tens of microseconds).
// Inline, the common case: up to kAttemptsPerCheck attempts that find nothing, then one
// that returns the whole buffer, with nothing between them but the test of what came
// back; everything else (a part, EINTR, the deadline and the stop request, which are
// looked at from the kAttemptsPerCheck-th empty attempt on) continues out of line.
TICKBENCH_ALWAYS_INLINE absl::Status SpinReadFull(int fd, absl::Span<char> buffer,
                                                  absl::Duration timeout, SpinRead how) {
  if (ABSL_PREDICT_FALSE(buffer.empty())) return absl::OkStatus();
  ssize_t got = 0;
  int error_number = 0;
  int empty_attempts = 0;
  while (true) {
    got = full_io_internal::SpinReadOnce(fd, buffer.data(), buffer.size(), how);
    if (ABSL_PREDICT_TRUE(got == static_cast<ssize_t>(buffer.size()))) return absl::OkStatus();
    error_number = got < 0 ? errno : 0;
    if (got >= 0 || (error_number != EAGAIN && error_number != EWOULDBLOCK) ||
        empty_attempts == SpinDeadline::kAttemptsPerCheck - 1) {
      break;
    }
    ++empty_attempts;
  }
  return full_io_internal::FinishSpinRead(fd, buffer, timeout, how, got, error_number,
                                          empty_attempts);
}

// True when SIGPIPE's disposition is SIG_IGN in this process at the time of the call.
bool ProcessIgnoresSigpipe();

}  // namespace tickbench::transport

#endif  // TRANSPORT_FULL_IO_H_
