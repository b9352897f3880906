// Endpoints over one connected socket, shared by the socket transports (UNIX stream and
// datagram, TCP, UDP), plus the socket options they all set.
//
// Each endpoint checks a message against its limit before any system call, so an
// oversize message is InvalidArgument, never a partial send. A receive is one read() or
// recv() and nothing else. How its timeout is kept:
//   * a stream socket, for a timeout of kMinWatchdogTimeout (20 ms) or more (every one
//     the harness sets): by a ReadWatchdog (read_watchdog.h: a periodic timer per reading
//     thread, armed once per run), so that a receive that waits arms no kernel timer, as
//     the bare loop's does not. On a stream the timeout only bounds a silent or stopped
//     peer (nothing is lost), and the watchdog's bound, [timeout, timeout * 1.25), does;
//   * a datagram socket: SO_RCVTIMEO. There the timeout is what tells a lost datagram
//     from a late one, so it is kept as exactly as the kernel keeps it, at the price of a
//     kernel timer armed in each receive that waits (its measured cost:
//     docs/overhead.md, "What the loop does beyond send and receive");
//   * a shorter timeout, or any where watchdogs are not available
//     (ReadWatchdogsAvailable()): SO_RCVTIMEO too;
//   * busy polling never waits in the kernel: its receives spin on MSG_DONTWAIT up to the
//     timeout.
// On a stream the timeout bounds the whole message, not each read (transport.h): the
// watchdog's ticks and the busy poll's deadline run from the receive's start whatever
// bytes come; under SO_RCVTIMEO, which bounds each read, the rest of a message is due a
// timeout after its first part (ReadFullWithin, full_io.h): a clock read and a ppoll()
// per further read, only when a read returned part of a message.
#ifndef TRANSPORT_SOCKET_ENDPOINT_H_
#define TRANSPORT_SOCKET_ENDPOINT_H_

#include <sys/socket.h>
#include <sys/types.h>

#include <cerrno>
#include <cstddef>
#include <string>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "platform/compiler.h"
#include "transport/io/endpoint_checks.h"
#include "transport/io/full_io.h"
#include "transport/io/read_watchdog.h"
#include "transport/io/spin_deadline.h"
#include "transport/io/unique_fd.h"
#include "transport/transport.h"

namespace tickbench::transport {

// Sets SO_RCVTIMEO; absl::InfiniteDuration() clears it. A finite timeout is rounded up to
// whole microseconds (timeval's unit), so it is never shortened to 0 ("for ever").
absl::Status SetSocketReceiveTimeout(int fd, absl::Duration timeout);

// The buffer sizes the kernel granted, as getsockopt reads them back. Linux doubles what
// was asked (for its bookkeeping) and caps the request at net.core.wmem_max/rmem_max.
struct SocketBufferSizes {
  int send_bytes = 0;
  int receive_bytes = 0;
};

// Asks for `requested_bytes` of send and of receive buffer and reads back what was given.
absl::StatusOr<SocketBufferSizes> SetSocketBufferSizes(int fd, int requested_bytes);

// Asks for `send_bytes` of SO_SNDBUF and `receive_bytes` of SO_RCVBUF, each only where > 0
// (--so_sndbuf, --so_rcvbuf); what the kernel granted is read back by ReadSocketBufferSizes.
absl::Status RequestSocketBuffers(int fd, int send_bytes, int receive_bytes);

// SO_SNDBUF and SO_RCVBUF of `fd` as the kernel reports them.
absl::StatusOr<Endpoint::BufferSizes> ReadSocketBufferSizes(int fd);

// A connected SOCK_STREAM socket (UNIX or TCP): messages are byte runs of a known size.
class StreamSocketEndpoint final : public Endpoint {
 public:
  StreamSocketEndpoint(UniqueFd fd, std::string transport_name, size_t max_message_size);

  absl::Status Send(absl::Span<const char> message) override;
  absl::Status Receive(absl::Span<char> buffer) override;
  absl::Status EchoMessages(absl::Span<char> buffer, uint32_t count, EchoCount& done) override {
    return EchoMessagesOf(*this, buffer, count, done);
  }
  absl::Status SetReceiveTimeout(absl::Duration timeout) override;
  // recv(MSG_DONTWAIT) in a loop; sends still block (a full socket buffer waits).
  absl::Status SetBusyPoll(bool on) override;
  bool keeps_boundaries() const override { return false; }
  bool may_lose() const override { return false; }
  size_t max_message_size() const override { return max_message_size_; }
  absl::StatusOr<BufferSizes> SocketBufferSizes() const override;

  int fd() const { return fd_.get(); }

 private:
  UniqueFd fd_;
  std::string transport_name_;
  size_t max_message_size_;
  bool busy_poll_ = false;
  // Kept for busy polling, which cannot use SO_RCVTIMEO: it never waits in the kernel.
  absl::Duration receive_timeout_ = absl::InfiniteDuration();
  ReadWatchdog watchdog_;  // the bound on a blocking receive, unless SO_RCVTIMEO keeps it
  // While SO_RCVTIMEO keeps the timeout: the timeout in nanoseconds, the bound on the rest
  // of a message after its first part; SpinDeadline::kNever otherwise.
  int64_t kernel_timeout_ns_ = SpinDeadline::kNever;
};

// Send() and Receive() are inline, so that the loop specialised on StreamSocketEndpoint
// runs them, up to their system call, in its own body.
TICKBENCH_ALWAYS_INLINE absl::Status StreamSocketEndpoint::Send(absl::Span<const char> message) {
  if (absl::Status size = CheckMessageSize(message.size(), max_message_size_, transport_name_);
      !size.ok()) {
    return size;
  }
  return WriteFull(fd_.get(), message, WriteMode::kSocket);
}

TICKBENCH_ALWAYS_INLINE absl::Status StreamSocketEndpoint::Receive(absl::Span<char> buffer) {
  if (absl::Status size = CheckMessageSize(buffer.size(), max_message_size_, transport_name_);
      !size.ok()) {
    return size;
  }
  if (busy_poll_) return SpinReadFull(fd_.get(), buffer, receive_timeout_, SpinRead::kRecvDontWait);
  if (ABSL_PREDICT_FALSE(kernel_timeout_ns_ != SpinDeadline::kNever)) {
    return ReadFullWithin(fd_.get(), buffer, ReadMode::kSocket, kernel_timeout_ns_);
  }
  // ReadFull() when the watchdog is off; recv(2): a socket's own call, not read(2)'s file layer
  return watchdog_.Read(fd_.get(), buffer, ReadMode::kSocket);
}

// A connected SOCK_DGRAM socket (UNIX or UDP): one message is one datagram.
class DatagramSocketEndpoint final : public Endpoint {
 public:
  DatagramSocketEndpoint(UniqueFd fd, std::string transport_name, size_t max_message_size);

  absl::Status Send(absl::Span<const char> message) override;
  // One datagram of exactly buffer.size() bytes; MSG_TRUNC reports the real length of a
  // longer one, which is then DataLoss like a shorter one.
  absl::Status Receive(absl::Span<char> buffer) override;
  absl::StatusOr<size_t> ReceiveDatagram(absl::Span<char> buffer) override;
  absl::Status SetReceiveTimeout(absl::Duration timeout) override;
  // recv(MSG_DONTWAIT) in a loop; sends still block (a full socket buffer waits).
  absl::Status SetBusyPoll(bool on) override {
    busy_poll_ = on;
    return absl::OkStatus();
  }
  bool keeps_boundaries() const override { return true; }
  bool may_lose() const override { return true; }
  size_t max_message_size() const override { return max_message_size_; }
  absl::StatusOr<BufferSizes> SocketBufferSizes() const override;

  absl::StatusOr<size_t> EchoDatagrams(absl::Span<char> buffer, size_t stop_length,
                                       EchoCount& done) override {
    return EchoDatagramsOf(*this, buffer, stop_length, done);
  }

  int fd() const { return fd_.get(); }

 private:
  // The rest of a Send() whose send(2) returned `sent` (errno `error_number`): EINTR
  // retried, anything else an error.
  absl::Status FinishSend(absl::Span<const char> message, ssize_t sent, int error_number);
  // The rest of a ReceiveDatagram() whose first recv(2) returned `got` (errno
  // `error_number`): a datagram too long for the buffer, EINTR, busy polling's EAGAIN
  // until the deadline, errors.
  absl::StatusOr<size_t> FinishReceiveDatagram(absl::Span<char> buffer, ssize_t got,
                                               int error_number);
  // MSG_TRUNC makes recv() return the datagram's real length even when it is longer than
  // the buffer (the rest is discarded), so truncation is seen, not silent.
  int receive_flags() const { return MSG_TRUNC | (busy_poll_ ? MSG_DONTWAIT : 0); }

  UniqueFd fd_;
  std::string transport_name_;
  size_t max_message_size_;
  bool busy_poll_ = false;
  // Kept for busy polling, which cannot use SO_RCVTIMEO: it never waits in the kernel.
  absl::Duration receive_timeout_ = absl::InfiniteDuration();
};

// A received datagram of `got` bytes where `expected` were asked for (DataLoss).
absl::Status WrongDatagramLengthError(size_t expected, size_t got);

// Send(), ReceiveDatagram() and Receive() are inline up to their system call, as the
// stream socket's are; what is not a whole datagram moved at once is out of line.
TICKBENCH_ALWAYS_INLINE absl::Status DatagramSocketEndpoint::Send(absl::Span<const char> message) {
  if (absl::Status size = CheckMessageSize(message.size(), max_message_size_, transport_name_);
      !size.ok()) {
    return size;
  }
  const ssize_t sent = send(fd_.get(), message.data(), message.size(), MSG_NOSIGNAL);
  // A datagram socket sends all of it or nothing.
  if (ABSL_PREDICT_TRUE(sent >= 0 && static_cast<size_t>(sent) == message.size())) {
    return absl::OkStatus();
  }
  return FinishSend(message, sent, errno);
}

TICKBENCH_ALWAYS_INLINE absl::StatusOr<size_t> DatagramSocketEndpoint::ReceiveDatagram(
    absl::Span<char> buffer) {
  const ssize_t got = recv(fd_.get(), buffer.data(), buffer.size(), receive_flags());
  if (ABSL_PREDICT_TRUE(got >= 0 && static_cast<size_t>(got) <= buffer.size())) {
    return static_cast<size_t>(got);
  }
  return FinishReceiveDatagram(buffer, got, errno);
}

TICKBENCH_ALWAYS_INLINE absl::Status DatagramSocketEndpoint::Receive(absl::Span<char> buffer) {
  if (absl::Status size = CheckMessageSize(buffer.size(), max_message_size_, transport_name_);
      !size.ok()) {
    return size;
  }
  absl::StatusOr<size_t> received = ReceiveDatagram(buffer);
  if (ABSL_PREDICT_FALSE(!received.ok())) return received.status();
  if (ABSL_PREDICT_FALSE(*received != buffer.size())) {
    return WrongDatagramLengthError(buffer.size(), *received);
  }
  return absl::OkStatus();
}

}  // namespace tickbench::transport

#endif  // TRANSPORT_SOCKET_ENDPOINT_H_
