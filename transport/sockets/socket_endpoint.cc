#include "transport/sockets/socket_endpoint.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <cerrno>
#include <cstdint>
#include <utility>

#include "absl/strings/str_format.h"
#include "platform/errno_status.h"
#include "platform/stop_signal.h"
#include "transport/io/endpoint_checks.h"
#include "transport/io/full_io.h"
#include "transport/io/spin_deadline.h"

namespace tickbench::transport {

absl::Status SetSocketReceiveTimeout(int fd, absl::Duration timeout) {
  if (absl::Status valid = CheckReceiveTimeout(timeout); !valid.ok()) return valid;
  timeval value = {0, 0};
  if (timeout != absl::InfiniteDuration()) {
    const int64_t micros = absl::ToInt64Microseconds(absl::Ceil(timeout, absl::Microseconds(1)));
    value.tv_sec = static_cast<time_t>(micros / 1000000);
    value.tv_usec = static_cast<suseconds_t>(micros % 1000000);
  }
  if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, sizeof(value)) != 0) {
    return platform::ErrnoToStatus(errno, "setsockopt(SO_RCVTIMEO)");
  }
  return absl::OkStatus();
}

absl::StatusOr<SocketBufferSizes> SetSocketBufferSizes(int fd, int requested_bytes) {
  if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &requested_bytes, sizeof(requested_bytes)) != 0) {
    return platform::ErrnoToStatus(errno, "setsockopt(SO_SNDBUF)");
  }
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &requested_bytes, sizeof(requested_bytes)) != 0) {
    return platform::ErrnoToStatus(errno, "setsockopt(SO_RCVBUF)");
  }
  SocketBufferSizes sizes;
  socklen_t length = sizeof(sizes.send_bytes);
  if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sizes.send_bytes, &length) != 0) {
    return platform::ErrnoToStatus(errno, "getsockopt(SO_SNDBUF)");
  }
  length = sizeof(sizes.receive_bytes);
  if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sizes.receive_bytes, &length) != 0) {
    return platform::ErrnoToStatus(errno, "getsockopt(SO_RCVBUF)");
  }
  return sizes;
}

absl::Status RequestSocketBuffers(int fd, int send_bytes, int receive_bytes) {
  if (send_bytes > 0 &&
      setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &send_bytes, sizeof(send_bytes)) != 0) {
    return platform::ErrnoToStatus(errno, "setsockopt(SO_SNDBUF)");
  }
  if (receive_bytes > 0 &&
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_bytes, sizeof(receive_bytes)) != 0) {
    return platform::ErrnoToStatus(errno, "setsockopt(SO_RCVBUF)");
  }
  return absl::OkStatus();
}

StreamSocketEndpoint::StreamSocketEndpoint(UniqueFd fd, std::string transport_name,
                                           size_t max_message_size)
    : fd_(std::move(fd)),
      transport_name_(std::move(transport_name)),
      max_message_size_(max_message_size) {}

namespace {

// How a stream socket's receives are bounded (see socket_endpoint.h): sets SO_RCVTIMEO and
// `watchdog`'s timeout for `timeout` and `busy_poll`, and `kernel_timeout_ns`, the bound
// on the rest of a message when SO_RCVTIMEO keeps the timeout.
absl::Status ApplyStreamReceiveModes(int fd, absl::Duration timeout, bool busy_poll,
                                     ReadWatchdog& watchdog, int64_t& kernel_timeout_ns) {
  const bool watched = !busy_poll && WatchdogBounds(timeout);
  if (absl::Status set = SetSocketReceiveTimeout(fd, watched ? absl::InfiniteDuration() : timeout);
      !set.ok()) {
    return set;
  }
  if (absl::Status set = watchdog.SetTimeout(watched ? timeout : absl::InfiniteDuration());
      !set.ok()) {
    return set;
  }
  kernel_timeout_ns =
      watched || busy_poll ? SpinDeadline::kNever : SpinDeadline::TimeoutNanoseconds(timeout);
  return absl::OkStatus();
}

}  // namespace

absl::Status StreamSocketEndpoint::SetReceiveTimeout(absl::Duration timeout) {
  if (absl::Status modes =
          ApplyStreamReceiveModes(fd_.get(), timeout, busy_poll_, watchdog_, kernel_timeout_ns_);
      !modes.ok()) {
    return modes;
  }
  receive_timeout_ = timeout;
  return absl::OkStatus();
}

absl::Status StreamSocketEndpoint::SetBusyPoll(bool on) {
  if (absl::Status modes =
          ApplyStreamReceiveModes(fd_.get(), receive_timeout_, on, watchdog_, kernel_timeout_ns_);
      !modes.ok()) {
    return modes;
  }
  busy_poll_ = on;
  return absl::OkStatus();
}

DatagramSocketEndpoint::DatagramSocketEndpoint(UniqueFd fd, std::string transport_name,
                                               size_t max_message_size)
    : fd_(std::move(fd)),
      transport_name_(std::move(transport_name)),
      max_message_size_(max_message_size) {}

absl::Status DatagramSocketEndpoint::FinishSend(absl::Span<const char> message, ssize_t sent,
                                                int error_number) {
  while (true) {
    if (sent >= 0) {
      if (static_cast<size_t>(sent) == message.size()) return absl::OkStatus();
      // A short count would be a kernel bug.
      return absl::InternalError(
          absl::StrFormat("send of a %u-byte datagram sent %d bytes", message.size(), sent));
    }
    if (error_number != EINTR) {
      return IoErrnoToStatus(error_number,
                             absl::StrFormat("send %u-byte datagram", message.size()));
    }
    TICKBENCH_RETURN_IF_STOPPED("sending");
    sent = send(fd_.get(), message.data(), message.size(), MSG_NOSIGNAL);
    error_number = errno;
  }
}

absl::StatusOr<size_t> DatagramSocketEndpoint::FinishReceiveDatagram(absl::Span<char> buffer,
                                                                     ssize_t got,
                                                                     int error_number) {
  SpinDeadline deadline(receive_timeout_);
  while (true) {
    if (got >= 0) {
      if (static_cast<size_t>(got) > buffer.size()) {
        return absl::DataLossError(absl::StrFormat(
            "a %d-byte datagram does not fit the %u-byte buffer", got, buffer.size()));
      }
      return static_cast<size_t>(got);
    }
    if (error_number == EINTR) {
      TICKBENCH_RETURN_IF_STOPPED("receiving");
    } else if (busy_poll_ && (error_number == EAGAIN || error_number == EWOULDBLOCK)) {
      TICKBENCH_RETURN_IF_STOPPED("busy polling");
      if (deadline.Expired()) {
        return IoErrnoToStatus(error_number,
                               absl::StrFormat("recv %u-byte datagram", buffer.size()));
      }
    } else {
      return IoErrnoToStatus(error_number, absl::StrFormat("recv %u-byte datagram", buffer.size()));
    }
    got = recv(fd_.get(), buffer.data(), buffer.size(), receive_flags());
    error_number = errno;
  }
}

absl::Status WrongDatagramLengthError(size_t expected, size_t got) {
  return absl::DataLossError(
      absl::StrFormat("expected a %u-byte datagram, got %u bytes", expected, got));
}

absl::Status DatagramSocketEndpoint::SetReceiveTimeout(absl::Duration timeout) {
  if (absl::Status set = SetSocketReceiveTimeout(fd_.get(), timeout); !set.ok()) return set;
  receive_timeout_ = timeout;
  return absl::OkStatus();
}

absl::StatusOr<Endpoint::BufferSizes> ReadSocketBufferSizes(int fd) {
  Endpoint::BufferSizes sizes;
  socklen_t length = sizeof(int);
  if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sizes.send_bytes, &length) != 0) {
    return platform::ErrnoToStatus(errno, "getsockopt(SO_SNDBUF)");
  }
  length = sizeof(int);
  if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sizes.receive_bytes, &length) != 0) {
    return platform::ErrnoToStatus(errno, "getsockopt(SO_RCVBUF)");
  }
  return sizes;
}

absl::StatusOr<Endpoint::BufferSizes> StreamSocketEndpoint::SocketBufferSizes() const {
  return ReadSocketBufferSizes(fd_.get());
}

absl::StatusOr<Endpoint::BufferSizes> DatagramSocketEndpoint::SocketBufferSizes() const {
  return ReadSocketBufferSizes(fd_.get());
}

}  // namespace tickbench::transport
