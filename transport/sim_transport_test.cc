#include "transport/sim_transport.h"

#include <vector>

#include "gtest/gtest.h"
#include "transport/echo_peer.h"
#include "transport/message_pattern.h"

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
  SimTransport transport(SimRttModel{}, [&](int64_t ns) { now_ns += ns; }, faults);
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
  EXPECT_EQ(codes, (std::vector<absl::StatusCode>{absl::StatusCode::kOk,
                                                  absl::StatusCode::kDeadlineExceeded,
                                                  absl::StatusCode::kOk,
                                                  absl::StatusCode::kUnavailable}));
  EXPECT_GE(now_ns, 5'000'000) << "a lost echo costs the receive timeout";
}

}  // namespace
}  // namespace tickbench::transport
