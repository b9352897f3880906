#include "transport/sim/sim_transport.h"

#include <cstring>
#include <vector>

#include "absl/strings/str_format.h"
#include "transport/echo/echo_peer.h"

namespace tickbench::transport {
namespace {

class SimClientEndpoint final : public Endpoint {
 public:
  SimClientEndpoint(const SimRttModel& model, std::function<void(int64_t)> advance_time,
                    const SimFaults& faults)
      : sampler_(model),
        advance_time_(std::move(advance_time)),
        faults_(faults),
        reply_delay_ns_(absl::ToInt64Nanoseconds(faults.reply_delay)),
        pending_(SimTransport::kMaxMessageBytes) {}

  absl::Status Send(absl::Span<const char> message) override {
    if (message.size() > pending_.size()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("a %d-byte message exceeds the simulated transport's largest, %d bytes",
                          message.size(), pending_.size()));
    }
    if (ParseControlFrame(message).has_value()) return absl::OkStatus();
    if (!message.empty()) std::memcpy(pending_.data(), message.data(), message.size());
    pending_size_ = message.size();
    has_pending_ = true;
    return absl::OkStatus();
  }

  absl::Status Receive(absl::Span<char> buffer) override {
    if (!has_pending_) return absl::FailedPreconditionError("receive without a message sent");
    has_pending_ = false;
    ++echoes_;
    if (faults_.stop_after > 0 && echoes_ > faults_.stop_after) {
      return absl::UnavailableError("peer closed the connection (simulated)");
    }
    if (faults_.drop_every_kth > 0 && echoes_ % faults_.drop_every_kth == 0) {
      advance_time_(timeout_ns_);
      return absl::DeadlineExceededError("no echo within the receive timeout (simulated loss)");
    }
    if (buffer.size() != pending_size_) {
      return absl::DataLossError(
          absl::StrFormat("echo of %d bytes, %d expected", pending_size_, buffer.size()));
    }
    const int64_t rtt_ns =
        sampler_.NextRttNanos(static_cast<int64_t>(pending_size_)) + reply_delay_ns_;
    if (timeout_ns_ > 0 && rtt_ns > timeout_ns_) {
      advance_time_(timeout_ns_);
      return absl::DeadlineExceededError(
          "no echo within the receive timeout (simulated: the peer's reply delay)");
    }
    advance_time_(rtt_ns);
    if (!buffer.empty()) std::memcpy(buffer.data(), pending_.data(), pending_size_);
    return absl::OkStatus();
  }

  absl::Status SetReceiveTimeout(absl::Duration timeout) override {
    if (timeout <= absl::ZeroDuration()) {
      return absl::InvalidArgumentError("a receive timeout must be positive");
    }
    timeout_ns_ = timeout == absl::InfiniteDuration() ? 0 : absl::ToInt64Nanoseconds(timeout);
    return absl::OkStatus();
  }
  // Whole messages that may be lost (SimFaults), as datagrams are.
  bool keeps_boundaries() const override { return true; }
  bool may_lose() const override { return true; }
  size_t max_message_size() const override { return pending_.size(); }

 private:
  SimRttSampler sampler_;
  std::function<void(int64_t)> advance_time_;
  SimFaults faults_;
  int64_t reply_delay_ns_;
  std::vector<char> pending_;  // allocated once: the measurement loop allocates nothing
  size_t pending_size_ = 0;
  bool has_pending_ = false;
  int64_t echoes_ = 0;
  int64_t timeout_ns_ = 0;
};

}  // namespace

SimTransport::SimTransport(const SimRttModel& model, std::function<void(int64_t)> advance_time,
                           const SimFaults& faults)
    : model_(model), advance_time_(std::move(advance_time)), faults_(faults) {}

absl::StatusOr<EndpointPair> SimTransport::Connect() {
  if (absl::Status s = ValidateSimRttModel(model_); !s.ok()) return s;
  if (faults_.reply_delay < absl::ZeroDuration() || faults_.reply_delay > absl::Hours(1)) {
    return absl::InvalidArgumentError(absl::StrFormat("the reply delay must be in [0, 1h]; got %s",
                                                      absl::FormatDuration(faults_.reply_delay)));
  }
  EndpointPair pair;
  pair.client = std::make_unique<SimClientEndpoint>(model_, advance_time_, faults_);
  return pair;
}

}  // namespace tickbench::transport
