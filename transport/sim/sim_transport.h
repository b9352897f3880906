// The simulated transport: round trips that take the time a model says, in virtual time.
//
// The client endpoint echoes in-process: Send() keeps the message, Receive() returns it
// and advances simulated time by one round trip drawn from the model. The transport
// does not know which clock reads that time; it only calls `advance_time` (the harness
// passes a virtual clock's Advance). Control frames of the echo protocol are accepted
// and cost nothing. There is no peer process: needs_local_peer() is false. A lost echo
// (SimFaults) advances time by the receive timeout set on the endpoint (none set: 0).
#ifndef TRANSPORT_SIM_TRANSPORT_H_
#define TRANSPORT_SIM_TRANSPORT_H_

#include <cstdint>
#include <functional>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "transport/sim/sim_rtt_model.h"
#include "transport/transport.h"

namespace tickbench::transport {

// The echo peer's test hooks (transport/echo/echo_peer.h), in virtual time.
struct SimFaults {
  int64_t drop_every_kth = 0;  // the k-th, 2k-th, ... echo is lost: a receive timeout
  int64_t stop_after = 0;      // after this many echoes the peer is gone
  // The peer waits this long before each echo: the round trip takes that much longer. An
  // echo that would come back after the receive timeout is lost, as on a datagram
  // transport: the receive fails with DeadlineExceeded after the timeout, and the late
  // echo is never seen. Not negative.
  absl::Duration reply_delay;
};

class SimTransport final : public Transport {
 public:
  // The largest simulated message: 1 MiB, past every real transport's.
  static constexpr size_t kMaxMessageBytes = size_t{1} << 20;

  SimTransport(const SimRttModel& model, std::function<void(int64_t nanos)> advance_time,
               const SimFaults& faults = SimFaults());

  absl::string_view name() const override { return "sim"; }
  size_t max_message_size() const override { return kMaxMessageBytes; }
  // Whole messages that may be lost (SimFaults), as datagrams are.
  bool keeps_boundaries() const override { return true; }
  bool may_lose() const override { return true; }
  bool needs_local_peer() const override { return false; }
  absl::StatusOr<EndpointPair> Connect() override;

 private:
  SimRttModel model_;
  std::function<void(int64_t)> advance_time_;
  SimFaults faults_;
};

}  // namespace tickbench::transport

#endif  // TRANSPORT_SIM_TRANSPORT_H_
