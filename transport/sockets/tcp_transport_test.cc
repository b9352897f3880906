#include "transport/sockets/tcp_transport.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <memory>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "transport/io/endpoint_checks.h"
#include "transport/sockets/socket_endpoint.h"

namespace tickbench::transport {
namespace {

class TcpTransportTest : public ::testing::TestWithParam<IpFamily> {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<Transport>> transport = MakeTcpTransport(GetParam(), "");
    ASSERT_TRUE(transport.ok()) << transport.status();
    transport_ = std::move(*transport);
    absl::StatusOr<EndpointPair> pair = transport_->Connect();
    if (absl::IsFailedPrecondition(pair.status())) GTEST_SKIP() << pair.status();
    ASSERT_TRUE(pair.ok()) << pair.status();
    pair_ = std::move(*pair);
    ASSERT_TRUE(pair_.client->SetReceiveTimeout(absl::Seconds(2)).ok());
    ASSERT_TRUE(pair_.server->SetReceiveTimeout(absl::Seconds(2)).ok());
  }

  std::unique_ptr<Transport> transport_;
  EndpointPair pair_;
};

int NoDelay(Endpoint& endpoint) {
  const int fd = dynamic_cast<StreamSocketEndpoint&>(endpoint).fd();
  int value = -1;
  socklen_t length = sizeof(value);
  getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &value, &length);
  return value;
}

TEST_P(TcpTransportTest, DescribesAndSetsNoDelay) {
  EXPECT_EQ(transport_->name(), GetParam() == IpFamily::kIpv4 ? "tcp" : "tcp6");
  EXPECT_FALSE(transport_->keeps_boundaries());
  EXPECT_FALSE(transport_->may_lose());
  EXPECT_EQ(transport_->max_message_size(), kMaxStreamMessageBytes);
  EXPECT_NE(NoDelay(*pair_.client), 0);
  EXPECT_NE(NoDelay(*pair_.server), 0);
}

TEST_P(TcpTransportTest, BytesBothWays) {
  ASSERT_TRUE(pair_.client->Send(absl::MakeConstSpan("ping", 4)).ok());
  char buffer[4];
  ASSERT_TRUE(pair_.server->Receive(absl::MakeSpan(buffer)).ok());
  ASSERT_TRUE(pair_.server->Send(buffer).ok());
  ASSERT_TRUE(pair_.client->Receive(absl::MakeSpan(buffer)).ok());
  EXPECT_EQ(std::string(buffer, 4), "ping");
}

TEST_P(TcpTransportTest, ClosedPeerIsUnavailableAndOversizeRefused) {
  const std::vector<char> too_big(kMaxStreamMessageBytes + 1);
  EXPECT_EQ(pair_.client->Send(too_big).code(), absl::StatusCode::kInvalidArgument);
  pair_.server.reset();
  char buffer[1];
  EXPECT_EQ(pair_.client->Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kUnavailable);
}

INSTANTIATE_TEST_SUITE_P(Families, TcpTransportTest,
                         ::testing::Values(IpFamily::kIpv4, IpFamily::kIpv6),
                         [](const ::testing::TestParamInfo<IpFamily>& info) {
                           return info.param == IpFamily::kIpv4 ? "tcp" : "tcp6";
                         });

TEST(TcpTransportBindTest, WildcardListenerIsReachedOverLoopback) {
  absl::StatusOr<std::unique_ptr<Transport>> transport =
      MakeTcpTransport(IpFamily::kIpv4, "0.0.0.0");
  ASSERT_TRUE(transport.ok()) << transport.status();
  absl::StatusOr<EndpointPair> pair = (*transport)->Connect();
  EXPECT_TRUE(pair.ok()) << pair.status();
}

}  // namespace
}  // namespace tickbench::transport
