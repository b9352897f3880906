// "pipe": two pipes, one each way, as the classic pipe latency test uses.
//
// Receiving. A pipe has no receive-timeout option (no SO_RCVTIMEO), and a blocking read
// cannot be bounded without a signal, so:
//   * no timeout set (the echo peer): the read end blocks, and a receive is read(2) alone;
//   * a timeout of kMinWatchdogTimeout (20 ms) or more (every timeout the harness sets:
//     1 s in the warm-up, then at least 250 ms): the read end blocks too, and a receive
//     is read(2) alone, as the bare loop's. The bound comes from a ReadWatchdog
//     (read_watchdog.h): a periodic timer per reading thread, armed once per timeout
//     (once per run), whose tick ends a read that has waited past the timeout (at least
//     the timeout, less than the timeout plus a tick period of min(timeout / 4, 250 ms)).
//     So a stopped peer (SIGSTOP) or a silent one ends the receive in DeadlineExceeded,
//     a peer gone ends it at once (end of file), and a stop request is seen within a
//     tick even when the signal went to another thread. No clock is read;
//   * a shorter timeout (a user's --receive_timeout under 20 ms): ticks that often would
//     cost more than they save, so the read end is O_NONBLOCK; a receive reads first
//     and, only when nothing is there (EAGAIN), waits with ppoll() for at most the
//     timeout and reads again (ReadFullWaitingOnEagain in full_io.h): one still on its
//     way costs read, ppoll, read. Every finite timeout is bounded so where the system
//     cannot send a timer's signal to one thread (ReadWatchdogsAvailable(): qemu-user);
//     the wait then looks for a stop request at least every 250 ms;
//   * busy polling: the read end is O_NONBLOCK, and read(2) is repeated until bytes come.
//
// SIGPIPE: a write to a pipe whose reader has gone raises SIGPIPE. Connect() looks at
// SIGPIPE's disposition once: if the process ignores it, writes are bare write(2)
// calls that fail with EPIPE; otherwise each Send() blocks SIGPIPE in the calling thread
// around its writes and discards a SIGPIPE they raised (see full_io.h). Either way a
// closed reader is Unavailable, never a dead process. The mask costs two rt_sigprocmask
// calls per Send(), of the order of the write itself, so not negligible in a pipe round
// trip. A program that ignores
// SIGPIPE in main() before Connect() measures pipes without that cost (a forked peer
// inherits the disposition, and with it the endpoint's bare write path), and must keep
// ignoring it while the pair lives. The harness does.
//
// Pipe buffers are left at the kernel default (64 KiB on Linux): a larger message moves
// in several reads and writes, as it would between two ordinary processes.
#ifndef TRANSPORT_PIPE_TRANSPORT_H_
#define TRANSPORT_PIPE_TRANSPORT_H_

#include <cstddef>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "platform/compiler.h"
#include "transport/io/endpoint_checks.h"
#include "transport/io/full_io.h"
#include "transport/io/read_watchdog.h"
#include "transport/io/unique_fd.h"
#include "transport/transport.h"

namespace tickbench::transport {

inline constexpr char kPipeName[] = "pipe";

// One end: reads one pipe, writes the other. Declared here (not hidden in the .cc) so
// that the measurement loop can be specialised on it: calls through a PipeEndpoint& are
// direct.
class PipeEndpoint final : public Endpoint {
 public:
  PipeEndpoint(UniqueFd read_fd, UniqueFd write_fd, WriteMode write_mode);

  absl::Status Send(absl::Span<const char> message) override;
  absl::Status Receive(absl::Span<char> buffer) override;
  absl::Status EchoMessages(absl::Span<char> buffer, uint32_t count, EchoCount& done) override {
    return EchoMessagesOf(*this, buffer, count, done);
  }
  absl::Status SetReceiveTimeout(absl::Duration timeout) override;
  // O_NONBLOCK on the read end only (this process's copy; the peer has its own ends):
  // writes still block on a full pipe. A finite receive timeout sets it too (see above).
  absl::Status SetBusyPoll(bool on) override;
  bool keeps_boundaries() const override { return false; }
  bool may_lose() const override { return false; }
  size_t max_message_size() const override;
  // Each pipe's capacity (F_GETPIPE_SZ): send_bytes the one written, receive_bytes the one
  // read, `pipe` set.
  absl::StatusOr<BufferSizes> SocketBufferSizes() const override;

 private:
  // Sets or clears O_NONBLOCK on the read end (a no-op when it is already so).
  absl::Status SetReadNonBlocking(bool on);
  // The read end's mode and the watchdog for this timeout and busy polling.
  absl::Status ApplyModes(absl::Duration timeout, bool busy_poll);
  // A finite timeout below kMinWatchdogTimeout, or any finite one where watchdogs are not
  // available (ReadWatchdogsAvailable()): waited for with ppoll(), not the watchdog.
  static bool ShortTimeout(absl::Duration timeout);

  UniqueFd read_fd_;
  UniqueFd write_fd_;
  WriteMode write_mode_;
  // How Receive() reads, chosen by SetReceiveTimeout() and SetBusyPoll() (see the top of
  // this file): no timeout; a watched timeout; a short one (or any, where watchdogs are
  // not available), waited for with ppoll() after an empty read; busy polling.
  enum class ReceiveMode { kBlocking, kWatched, kWaitOnEagain, kSpin };

  absl::Duration timeout_ = absl::InfiniteDuration();
  bool busy_poll_ = false;
  ReceiveMode receive_mode_ = ReceiveMode::kBlocking;
  bool read_non_blocking_ = false;
  ReadWatchdog watchdog_;
};

// Send() and Receive() are inline, so that the loop specialised on PipeEndpoint runs
// them, up to their system call, in its own body.
TICKBENCH_ALWAYS_INLINE absl::Status PipeEndpoint::Send(absl::Span<const char> message) {
  if (absl::Status size = CheckMessageSize(message.size(), kMaxStreamMessageBytes, kPipeName);
      !size.ok()) {
    return size;
  }
  return WriteFull(write_fd_.get(), message, write_mode_);
}

TICKBENCH_ALWAYS_INLINE absl::Status PipeEndpoint::Receive(absl::Span<char> buffer) {
  if (absl::Status size = CheckMessageSize(buffer.size(), kMaxStreamMessageBytes, kPipeName);
      !size.ok()) {
    return size;
  }
  switch (receive_mode_) {
    case ReceiveMode::kBlocking:  // no timeout: one blocking read(2)
      return ReadFull(read_fd_.get(), buffer, ReadMode::kDescriptor);
    case ReceiveMode::kWatched:  // one blocking read(2), bounded by the watchdog's ticks
      return watchdog_.Read(read_fd_.get(), buffer, ReadMode::kDescriptor);
    case ReceiveMode::kWaitOnEagain:  // O_NONBLOCK; ppoll() only when the read found nothing
      return ReadFullWaitingOnEagain(read_fd_.get(), buffer, timeout_);
    case ReceiveMode::kSpin:
      break;
  }
  return SpinReadFull(read_fd_.get(), buffer, timeout_, SpinRead::kNonBlockingRead);
}

// Pipes of the kernel's capacity, or with `pipe_size_bytes` > 0 that capacity set on both
// (F_SETPIPE_SZ) when connected: FailedPrecondition naming /proc/sys/fs/pipe-max-size
// where the kernel refuses it.
absl::StatusOr<std::unique_ptr<Transport>> MakePipeTransport(int64_t pipe_size_bytes = 0);

// The largest pipe an unprivileged process may ask for (/proc/sys/fs/pipe-max-size).
absl::StatusOr<int64_t> PipeMaxSize();

}  // namespace tickbench::transport

#endif  // TRANSPORT_PIPE_TRANSPORT_H_
