#include "transport/pipes/pipe_transport.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "platform/errno_status.h"
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

namespace {

class PipeTransport final : public Transport {
 public:
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
    const WriteMode mode =
        ProcessIgnoresSigpipe() ? WriteMode::kPipeSigpipeIgnored : WriteMode::kPipe;
    EndpointPair pair;
    pair.client =
        std::make_unique<PipeEndpoint>(std::move(to_client_read), std::move(to_server_write), mode);
    pair.server =
        std::make_unique<PipeEndpoint>(std::move(to_server_read), std::move(to_client_write), mode);
    return pair;
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<Transport>> MakePipeTransport() {
  return std::make_unique<PipeTransport>();
}

}  // namespace tickbench::transport
