#include "transport/pipes/pipe_transport.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "platform/errno_status.h"
#include "platform/facts/system_info.h"
#include "transport/io/endpoint_checks.h"
#include "transport/io/full_io.h"
#include "transport/io/unique_fd.h"

namespace tickbench::transport {

PipeEndpoint::PipeEndpoint(UniqueFd read_fd, UniqueFd write_fd, WriteMode write_mode)
    : read_fd_(std::move(read_fd)), write_fd_(std::move(write_fd)), write_mode_(write_mode) {}

bool PipeEndpoint::ShortTimeout(absl::Duration timeout) {
  return timeout != absl::InfiniteDuration() && !WatchdogBounds(timeout);
}

absl::Status PipeEndpoint::ApplyModes(absl::Duration timeout, bool busy_poll) {
  if (absl::Status mode = SetReadNonBlocking(busy_poll || ShortTimeout(timeout)); !mode.ok()) {
    return mode;
  }
  const bool watched = !busy_poll && WatchdogBounds(timeout);
  if (absl::Status set = watchdog_.SetTimeout(watched ? timeout : absl::InfiniteDuration());
      !set.ok()) {
    return set;
  }
  receive_mode_ = busy_poll                             ? ReceiveMode::kSpin
                  : watched                             ? ReceiveMode::kWatched
                  : timeout == absl::InfiniteDuration() ? ReceiveMode::kBlocking
                                                        : ReceiveMode::kWaitOnEagain;
  return absl::OkStatus();
}

absl::Status PipeEndpoint::SetReceiveTimeout(absl::Duration timeout) {
  if (absl::Status valid = CheckReceiveTimeout(timeout); !valid.ok()) return valid;
  if (absl::Status modes = ApplyModes(timeout, busy_poll_); !modes.ok()) return modes;
  timeout_ = timeout;
  return absl::OkStatus();
}

absl::Status PipeEndpoint::SetBusyPoll(bool on) {
  if (absl::Status modes = ApplyModes(timeout_, on); !modes.ok()) return modes;
  busy_poll_ = on;
  return absl::OkStatus();
}

absl::Status PipeEndpoint::SetReadNonBlocking(bool on) {
  if (on == read_non_blocking_) return absl::OkStatus();
  const int flags = fcntl(read_fd_.get(), F_GETFL);
  if (flags < 0) return platform::ErrnoToStatus(errno, "fcntl(F_GETFL)");
  if (fcntl(read_fd_.get(), F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) != 0) {
    return platform::ErrnoToStatus(errno, "fcntl(F_SETFL, O_NONBLOCK)");
  }
  read_non_blocking_ = on;
  return absl::OkStatus();
}

size_t PipeEndpoint::max_message_size() const { return kMaxStreamMessageBytes; }

absl::StatusOr<Endpoint::BufferSizes> PipeEndpoint::SocketBufferSizes() const {
  const int send = fcntl(write_fd_.get(), F_GETPIPE_SZ);
  const int receive = fcntl(read_fd_.get(), F_GETPIPE_SZ);
  if (send < 0 || receive < 0) return platform::ErrnoToStatus(errno, "fcntl(F_GETPIPE_SZ)");
  BufferSizes sizes;
  sizes.send_bytes = send;
  sizes.receive_bytes = receive;
  sizes.pipe = true;
  return sizes;
}

absl::StatusOr<int64_t> PipeMaxSize() { return platform::ReadSysctlInt("fs.pipe-max-size"); }

namespace {

// Sets the capacity of the pipe behind `fd` to `bytes`; the kernel's refusal named.
absl::Status SetPipeSize(int fd, int64_t bytes) {
  if (bytes > INT32_MAX || fcntl(fd, F_SETPIPE_SZ, static_cast<int>(bytes)) < 0) {
    const int error = bytes > INT32_MAX ? EINVAL : errno;
    const absl::StatusOr<int64_t> most = PipeMaxSize();
    return absl::FailedPreconditionError(absl::StrFormat(
        "the kernel refused a pipe of %d bytes (%s); /proc/sys/fs/pipe-max-size is %s", bytes,
        platform::ErrnoToStatus(error, "F_SETPIPE_SZ").message(),
        most.ok() ? absl::StrCat(*most, " bytes") : std::string("unreadable")));
  }
  return absl::OkStatus();
}

class PipeTransport final : public Transport {
 public:
  explicit PipeTransport(int64_t pipe_size_bytes) : pipe_size_bytes_(pipe_size_bytes) {}
  absl::string_view name() const override { return kPipeName; }
  size_t max_message_size() const override { return kMaxStreamMessageBytes; }
  bool keeps_boundaries() const override { return false; }
  bool may_lose() const override { return false; }

  absl::StatusOr<EndpointPair> Connect() override {
    int to_server[2], to_client[2];
    if (pipe2(to_server, O_CLOEXEC) != 0) return platform::ErrnoToStatus(errno, "pipe2");
    UniqueFd to_server_read(to_server[0]), to_server_write(to_server[1]);
    if (pipe2(to_client, O_CLOEXEC) != 0) return platform::ErrnoToStatus(errno, "pipe2");
    UniqueFd to_client_read(to_client[0]), to_client_write(to_client[1]);
    if (pipe_size_bytes_ > 0) {
      for (int fd : {to_server_write.get(), to_client_write.get()}) {
        if (absl::Status s = SetPipeSize(fd, pipe_size_bytes_); !s.ok()) return s;
      }
    }
    const WriteMode mode =
        ProcessIgnoresSigpipe() ? WriteMode::kPipeSigpipeIgnored : WriteMode::kPipe;
    EndpointPair pair;
    pair.client =
        std::make_unique<PipeEndpoint>(std::move(to_client_read), std::move(to_server_write), mode);
    pair.server =
        std::make_unique<PipeEndpoint>(std::move(to_server_read), std::move(to_client_write), mode);
    return pair;
  }

 private:
  int64_t pipe_size_bytes_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Transport>> MakePipeTransport(int64_t pipe_size_bytes) {
  if (pipe_size_bytes < 0) return absl::InvalidArgumentError("a pipe size must be positive");
  return std::make_unique<PipeTransport>(pipe_size_bytes);
}

}  // namespace tickbench::transport
