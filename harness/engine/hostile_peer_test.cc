// The round-trip engine against a hostile echo peer on a real TCP connection (issue 46,
// items 4 and 5): a peer that drips its echo, each byte within the receive timeout, and a
// peer that sends one stray byte. Neither may leave a run timed as valid from what the
// peer chose to send.
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/engine/round_trip_engine.h"
#include "timing/clocks/os_clocks.h"
#include "transport/echo/echo_peer.h"
#include "transport/registry/transport_factory.h"
#include "transport/transport.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;

// What the hostile peer does to the echo of message `index` of a block (warm-up included).
struct Hostility {
  int64_t stray_byte_before = -1;  // one extra byte before this echo
  int64_t drip_from = -1;          // from this echo on, one byte every `drip_gap`
  absl::Duration drip_gap = absl::Milliseconds(200);
};

// A connected pair of `transport_name`, the server end's receives bounded by 10 s; both
// ends null on failure.
transport::EndpointPair ConnectedPair(absl::string_view transport_name) {
  auto made = transport::MakeTransport(transport_name);
  EXPECT_TRUE(made.ok()) << made.status();
  if (!made.ok()) return {};
  auto connected = (*made)->Connect();
  EXPECT_TRUE(connected.ok()) << connected.status();
  if (!connected.ok()) return {};
  EXPECT_TRUE(connected->server->SetReceiveTimeout(absl::Seconds(10)).ok());
  return std::move(*connected);
}

// One run of 16-byte messages over `client`, read by CLOCK_MONOTONIC.
RunRecord MeasureOneRun(transport::Endpoint& client, const EngineOptions& options) {
  timing::ClockGettimeClock monotonic(timing::ClockIdNames()[0]);
  RoundTripEngine engine(client, monotonic, nullptr, 16, options);
  return engine.MeasureRun(16, 1);
}

// An echo peer on the server end of a TCP pair, in a thread, hostile as told.
class HostilePeer {
 public:
  explicit HostilePeer(const Hostility& hostility)
      : hostility_(hostility), pair_(ConnectedPair("tcp")) {
    if (pair_.server != nullptr) peer_ = std::thread([this] { Serve(); });
  }
  ~HostilePeer() {
    stop_ = true;
    pair_.client.reset();  // the peer's next receive or send ends
    if (peer_.joinable()) peer_.join();
  }

  transport::Endpoint& client() { return *pair_.client; }

 private:
  void Serve() {
    transport::Endpoint& server = *pair_.server;
    char frame_bytes[transport::kControlFrameBytes];
    while (!stop_ && server.Receive(absl::MakeSpan(frame_bytes)).ok()) {
      const auto frame = transport::ParseControlFrame(frame_bytes);
      if (!frame.has_value() || frame->command != transport::PeerCommand::kEchoBlock) return;
      std::vector<char> message(frame->message_size);
      for (int64_t i = 0; i < frame->count; ++i) {
        if (!server.Receive(absl::MakeSpan(message)).ok()) return;
        // Echoes are counted over the session: the warm-up's windows and the timed trips
        // are blocks of their own.
        if (!Echo(server, message, echoed_++)) return;
      }
    }
  }

  bool Echo(transport::Endpoint& server, const std::vector<char>& message, int64_t index) {
    if (index == hostility_.stray_byte_before) {
      const char stray = 'Z';
      if (!server.Send(absl::MakeConstSpan(&stray, 1)).ok()) return false;
    }
    if (hostility_.drip_from < 0 || index < hostility_.drip_from) {
      return server.Send(absl::MakeConstSpan(message)).ok();
    }
    for (const char& byte : message) {
      absl::SleepFor(hostility_.drip_gap);
      if (stop_ || !server.Send(absl::MakeConstSpan(&byte, 1)).ok()) return false;
    }
    return true;
  }

  Hostility hostility_;
  transport::EndpointPair pair_;
  std::thread peer_;
  std::atomic<bool> stop_{false};
  int64_t echoed_ = 0;  // echoes sent so far, every block's (the peer thread's alone)
};

// Item 4: an echo dripped a byte every 200 ms (16 bytes: 3.2 s a round trip) under a
// 250 ms receive timeout. Each read waited less than the timeout, so the run went on and
// timed 3.2 s round trips as valid; the timeout now bounds the whole echo, and the run
// ends in an error at the first dripped echo, with nothing timed.
TEST(HostilePeerTest, AnEchoDrippedWithinTheTimeoutPerByteEndsTheRun) {
  Hostility drip;
  drip.drip_from = 2;  // the warm-up's two echoes come whole
  HostilePeer peer(drip);
  EngineOptions options;
  options.iterations = 3;
  options.warmup = 2;
  options.receive_timeout = absl::Milliseconds(250);
  const absl::Time start = absl::Now();
  const RunRecord r = MeasureOneRun(peer.client(), options);
  const absl::Duration took = absl::Now() - start;
  EXPECT_THAT(r.error, HasSubstr("DEADLINE_EXCEEDED"));
  EXPECT_THAT(r.error, HasSubstr("whole message"));
  EXPECT_FALSE(r.valid());
  EXPECT_EQ(r.timed_trips, 0);
  // Under 2 timeouts plus a tick by the promise; one dripped echo alone takes 3.2 s.
  EXPECT_LT(took, absl::Seconds(2));
}

// Item 5: one stray byte before the echo of timed trip 51 of 500. Every later echo was
// read one byte out of step: 450 counted corrupted, the 50 clean trips before it timed,
// and the run valid, without an error. The first echo out of step now ends the run with a
// DataLoss error, keeping the 50 trips measured before it; nothing after it is read as an
// echo.
TEST(HostilePeerTest, AStrayByteOnTheStreamEndsTheRunAtTheFirstEchoOutOfStep) {
  Hostility stray;
  stray.stray_byte_before = 10 + 50;  // after the warm-up's 10 and 50 timed trips
  HostilePeer peer(stray);
  EngineOptions options;
  options.iterations = 500;
  options.warmup = 10;
  options.receive_timeout = absl::Seconds(5);
  const RunRecord r = MeasureOneRun(peer.client(), options);
  EXPECT_THAT(r.error, HasSubstr("DATA_LOSS"));
  EXPECT_THAT(r.error, HasSubstr("out of step"));
  EXPECT_EQ(r.integrity.total(), 1);
  EXPECT_EQ(r.completed, 50);
  EXPECT_EQ(r.timed_trips, 50);  // the trips before the stray byte, as a peer gone keeps
}

// The same on a datagram transport, where each echo is whole or absent: a faulty echo is
// counted and the run goes on (round_trip_engine.h), so the stream's rule is the stream's.
TEST(HostilePeerTest, OnDatagramsAWrongEchoIsCountedAndTheRunGoesOn) {
  transport::EndpointPair pair = ConnectedPair("udp");
  ASSERT_NE(pair.server, nullptr);
  std::thread peer([&] {
    transport::Endpoint& server = *pair.server;
    std::vector<char> datagram(64);
    for (int64_t i = 0;; ++i) {
      absl::StatusOr<size_t> got = server.ReceiveDatagram(absl::MakeSpan(datagram));
      if (!got.ok()) return;
      if (transport::ParseControlFrame(absl::MakeSpan(datagram.data(), *got))) continue;
      if (*got == 1) return;                 // the test's own end
      if (i == 30) datagram[*got - 1] ^= 1;  // one corrupted echo
      if (!server.Send(absl::MakeConstSpan(datagram.data(), *got)).ok()) return;
    }
  });
  EngineOptions options;
  options.iterations = 100;
  options.warmup = 5;
  const RunRecord r = MeasureOneRun(*pair.client, options);
  const char end = 'E';
  EXPECT_TRUE(pair.client->Send(absl::MakeConstSpan(&end, 1)).ok());
  peer.join();
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.integrity.corrupted, 1);
  EXPECT_EQ(r.completed, 100);
  EXPECT_TRUE(r.valid());
}

}  // namespace
}  // namespace tickbench::harness
