#include "remote/control_channel.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <string>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "platform/errno_status.h"
#include "platform/stop_signal.h"

namespace tickbench::remote {
namespace {

// poll()'s timeout in whole milliseconds, rounded up so that a wait never ends before
// the deadline, and at most kStopCheckInterval so that the stop flag is looked at again.
int PollTimeoutMs(absl::Time deadline) {
  const absl::Duration left = std::min(deadline - absl::Now(), kStopCheckInterval);
  if (left <= absl::ZeroDuration()) return 0;
  return static_cast<int>(absl::ToInt64Milliseconds(absl::Ceil(left, absl::Milliseconds(1))));
}

// Reads exactly `size` bytes into `into` before `deadline`.
absl::Status ReadBefore(int fd, char* into, size_t size, absl::Time deadline, int cancel_fd) {
  size_t done = 0;
  while (done < size) {
    if (absl::Status ready = WaitReady(fd, POLLIN, deadline, cancel_fd); !ready.ok()) {
      return absl::Status(ready.code(),
                          absl::StrFormat("%s after %u of %u bytes", ready.message(), done, size));
    }
    const ssize_t n = recv(fd, into + done, size - done, MSG_DONTWAIT);
    if (n == 0) {
      return absl::UnavailableError(
          absl::StrFormat("peer closed the control connection after %u of %u bytes", done, size));
    }
    if (n < 0) {
      if (errno == EINTR) TICKBENCH_RETURN_IF_STOPPED("reading a control message");
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      if (errno == ECONNRESET) {
        return absl::UnavailableError("peer reset the control connection");
      }
      return platform::ErrnoToStatus(errno, "recv control message");
    }
    done += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status WaitReady(int fd, short events, absl::Time deadline, int cancel_fd) {
  while (true) {
    TICKBENCH_RETURN_IF_STOPPED("waiting on the control connection");
    pollfd fds[2] = {{fd, events, 0}, {cancel_fd, POLLIN, 0}};
    const int ready = poll(fds, cancel_fd >= 0 ? 2 : 1, PollTimeoutMs(deadline));
    if (ready < 0) {
      if (errno == EINTR) continue;  // the check at the top of the loop
      return platform::ErrnoToStatus(errno, "poll");
    }
    if (cancel_fd >= 0 && fds[1].revents != 0) return absl::CancelledError("stop requested");
    if (fds[0].revents != 0) return absl::OkStatus();
    if (absl::Now() >= deadline) {
      return absl::DeadlineExceededError("timed out");
    }
  }
}

absl::Status WriteControlMessage(int fd, const ControlMessage& message, absl::Time deadline,
                                 int cancel_fd, uint16_t version) {
  const std::string bytes = EncodeControlMessage(message, version);
  size_t done = 0;
  while (done < bytes.size()) {
    if (absl::Status ready = WaitReady(fd, POLLOUT, deadline, cancel_fd); !ready.ok()) {
      return ready;
    }
    const ssize_t n =
        send(fd, bytes.data() + done, bytes.size() - done, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) TICKBENCH_RETURN_IF_STOPPED("writing a control message");
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      if (errno == EPIPE || errno == ECONNRESET) {
        return absl::UnavailableError("peer closed the control connection");
      }
      return platform::ErrnoToStatus(errno, "send control message");
    }
    done += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

absl::StatusOr<ControlMessage> ReadControlMessage(int fd, absl::Time deadline, int cancel_fd) {
  std::string bytes(kControlHeaderBytes, '\0');
  if (absl::Status s = ReadBefore(fd, bytes.data(), bytes.size(), deadline, cancel_fd); !s.ok()) {
    return s;
  }
  absl::StatusOr<ControlHeader> header = DecodeControlHeader(bytes);
  if (!header.ok()) return header.status();
  bytes.resize(kControlHeaderBytes + header->payload_length);
  if (absl::Status s = ReadBefore(fd, bytes.data() + kControlHeaderBytes, header->payload_length,
                                  deadline, cancel_fd);
      !s.ok()) {
    return s;
  }
  return DecodeControlMessage(bytes);
}

}  // namespace tickbench::remote
