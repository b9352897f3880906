#include "transport/sockets/udp_transport.h"

#include <sys/socket.h>

#include <cerrno>
#include <memory>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "transport/sockets/socket_endpoint.h"

namespace tickbench::transport {
namespace {

class UdpTransportTest : public ::testing::TestWithParam<IpFamily> {
 protected:
  // The transport and a connected pair, or a skip when this host has no such loopback.
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<Transport>> transport = MakeUdpTransport(GetParam(), "");
    ASSERT_TRUE(transport.ok()) << transport.status();
    transport_ = std::move(*transport);
    absl::StatusOr<EndpointPair> pair = transport_->Connect();
    if (absl::IsFailedPrecondition(pair.status())) GTEST_SKIP() << pair.status();
    ASSERT_TRUE(pair.ok()) << pair.status();
    pair_ = std::move(*pair);
    ASSERT_TRUE(pair_.client->SetReceiveTimeout(absl::Seconds(2)).ok());
    ASSERT_TRUE(pair_.server->SetReceiveTimeout(absl::Seconds(2)).ok());
  }

  int ClientFd() { return dynamic_cast<DatagramSocketEndpoint&>(*pair_.client).fd(); }

  std::unique_ptr<Transport> transport_;
  EndpointPair pair_;
};

TEST_P(UdpTransportTest, Describes) {
  const bool v4 = GetParam() == IpFamily::kIpv4;
  EXPECT_EQ(transport_->name(), v4 ? "udp" : "udp6");
  EXPECT_TRUE(transport_->keeps_boundaries());
  EXPECT_TRUE(transport_->may_lose());
  EXPECT_EQ(transport_->max_message_size(), v4 ? 65507u : 65527u);
}

// One byte past the limit is the kernel's EMSGSIZE too: the limit is not ours alone.
TEST_P(UdpTransportTest, KernelAgreesWithTheLimit) {
  const size_t limit = transport_->max_message_size();
  std::vector<char> message(limit + 1, 'u');
  EXPECT_EQ(send(ClientFd(), message.data(), limit + 1, 0), -1);
  EXPECT_EQ(errno, EMSGSIZE);
  EXPECT_EQ(pair_.client->Send(message).code(), absl::StatusCode::kInvalidArgument);
}

TEST_P(UdpTransportTest, MaxSizeBothWays) {
  std::vector<char> message(transport_->max_message_size());
  for (size_t i = 0; i < message.size(); ++i) message[i] = static_cast<char>(i % 251);
  std::vector<char> received(message.size());
  ASSERT_TRUE(pair_.client->Send(message).ok());
  ASSERT_TRUE(pair_.server->Receive(absl::MakeSpan(received)).ok());
  ASSERT_TRUE(pair_.server->Send(received).ok());
  std::vector<char> echoed(message.size());
  ASSERT_TRUE(pair_.client->Receive(absl::MakeSpan(echoed)).ok());
  EXPECT_EQ(message, echoed);
}

TEST_P(UdpTransportTest, WrongLengthIsDataLoss) {
  ASSERT_TRUE(pair_.client->Send(absl::MakeConstSpan("12345", 5)).ok());
  char buffer[4];
  EXPECT_EQ(pair_.server->Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kDataLoss);
}

// ICMP port unreachable from the closed peer port comes back as ECONNREFUSED.
TEST_P(UdpTransportTest, ClosedPeerPortIsUnavailableOrTimeout) {
  pair_.server.reset();
  ASSERT_TRUE(pair_.client->SetReceiveTimeout(absl::Milliseconds(500)).ok());
  absl::Status sent = pair_.client->Send(absl::MakeConstSpan("x", 1));
  char buffer[1];
  absl::Status status = sent.ok() ? pair_.client->Receive(absl::MakeSpan(buffer)) : sent;
  EXPECT_TRUE(absl::IsUnavailable(status) || absl::IsDeadlineExceeded(status)) << status;
}

INSTANTIATE_TEST_SUITE_P(Families, UdpTransportTest,
                         ::testing::Values(IpFamily::kIpv4, IpFamily::kIpv6),
                         [](const ::testing::TestParamInfo<IpFamily>& info) {
                           return info.param == IpFamily::kIpv4 ? "udp" : "udp6";
                         });

TEST(UdpTransportBindTest, BindsTheAddressGiven) {
  absl::StatusOr<std::unique_ptr<Transport>> transport =
      MakeUdpTransport(IpFamily::kIpv4, "0.0.0.0");
  ASSERT_TRUE(transport.ok()) << transport.status();
  absl::StatusOr<EndpointPair> pair = (*transport)->Connect();
  ASSERT_TRUE(pair.ok()) << pair.status();
  ASSERT_TRUE(pair->client->Send(absl::MakeConstSpan("abc", 3)).ok());
  ASSERT_TRUE(pair->server->SetReceiveTimeout(absl::Seconds(2)).ok());
  char buffer[3];
  EXPECT_TRUE(pair->server->Receive(absl::MakeSpan(buffer)).ok());
  EXPECT_EQ(MakeUdpTransport(IpFamily::kIpv4, "nowhere").status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tickbench::transport
