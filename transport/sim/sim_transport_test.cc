#include "transport/sim/sim_transport.h"

#include <vector>

#include "gtest/gtest.h"
#include "transport/echo/echo_peer.h"
#include "transport/io/message_pattern.h"

namespace tickbench::transport {
namespace {

TEST(SimTransportTest, EchoesAndAdvancesTimeByTheModel) {
  int64_t now_ns = 0;
  SimRttModel model;
  model.fixed = absl::Microseconds(10);
  model.per_byte_ns = 1;
  SimTransport transport(model, [&](int64_t ns) { now_ns += ns; });
  auto pair = transport.Connect();
  ASSERT_TRUE(pair.ok());
  Endpoint& client = *pair->client;
  ASSERT_TRUE(SendBlockHeader(client, 100, 1).ok());
  EXPECT_EQ(now_ns, 0) << "a control frame costs nothing";
  std::vector<char> out(100), in(100);
  FillPattern(absl::MakeSpan(out));
  StampSequence(absl::MakeSpan(out), 42);
  ASSERT_TRUE(client.Send(out).ok());
  ASSERT_TRUE(client.Receive(absl::MakeSpan(in)).ok());
  EXPECT_TRUE(CheckEcho(in, 42, true).ok());
  EXPECT_EQ(now_ns, 10'100);
}

TEST(SimTransportTest, FaultsEndOrLoseRoundTrips) {
  int64_t now_ns = 0;
  SimFaults faults;
  faults.drop_every_kth = 2;
  faults.stop_after = 3;
  SimTransport transport(
      SimRttModel{}, [&](int64_t ns) { now_ns += ns; }, faults);
  auto pair = transport.Connect();
  ASSERT_TRUE(pair.ok());
  Endpoint& client = *pair->client;
  ASSERT_TRUE(client.SetReceiveTimeout(absl::Milliseconds(5)).ok());
  std::vector<char> buffer(8);
  std::vector<absl::StatusCode> codes;
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(client.Send(buffer).ok());
    codes.push_back(client.Receive(absl::MakeSpan(buffer)).code());
  }
  EXPECT_EQ(codes, (std::vector<absl::StatusCode>{
                       absl::StatusCode::kOk, absl::StatusCode::kDeadlineExceeded,
                       absl::StatusCode::kOk, absl::StatusCode::kUnavailable}));
  // Two echoes of the default model (20 us for 8 bytes) and one lost echo, which costs the
  // receive timeout; the ended transport costs nothing.
  EXPECT_EQ(now_ns, 2 * ModelRttNanos(SimRttModel{}, 8) + 5'000'000)
      << "a lost echo costs the receive timeout";
}

TEST(SimTransportTest, ReplyDelayLengthensEachEchoAndPastTheTimeoutLosesIt) {
  int64_t now_ns = 0;
  SimRttModel model;
  model.fixed = absl::Microseconds(10);
  model.per_byte_ns = 0;
  SimFaults faults;
  faults.reply_delay = absl::Milliseconds(300);
  SimTransport transport(
      model, [&](int64_t ns) { now_ns += ns; }, faults);
  auto pair = transport.Connect();
  ASSERT_TRUE(pair.ok());
  Endpoint& client = *pair->client;
  std::vector<char> buffer(8);
  ASSERT_TRUE(client.SetReceiveTimeout(absl::Seconds(1)).ok());
  ASSERT_TRUE(client.Send(buffer).ok());
  ASSERT_TRUE(client.Receive(absl::MakeSpan(buffer)).ok());
  EXPECT_EQ(now_ns, 300'010'000) << "the echo takes the delay longer";

  // Past the receive timeout the echo is lost; the wait is the timeout.
  ASSERT_TRUE(client.SetReceiveTimeout(absl::Milliseconds(250)).ok());
  now_ns = 0;
  ASSERT_TRUE(client.Send(buffer).ok());
  EXPECT_EQ(client.Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(now_ns, 250'000'000);
}

TEST(SimTransportTest, RefusesANegativeReplyDelay) {
  SimFaults faults;
  faults.reply_delay = absl::Milliseconds(-1);
  SimTransport transport(
      SimRttModel{}, [](int64_t) {}, faults);
  EXPECT_EQ(transport.Connect().status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tickbench::transport
