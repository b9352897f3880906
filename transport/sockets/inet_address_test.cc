#include "transport/sockets/inet_address.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include "gtest/gtest.h"

namespace tickbench::transport {
namespace {

TEST(ParseBindAddressTest, EmptyMeansLoopback) {
  absl::StatusOr<InetAddress> v4 = ParseBindAddress(IpFamily::kIpv4, "");
  ASSERT_TRUE(v4.ok());
  EXPECT_EQ(v4->ToString(), "127.0.0.1:0");
  absl::StatusOr<InetAddress> v6 = ParseBindAddress(IpFamily::kIpv6, "");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->ToString(), "[::1]:0");
  EXPECT_EQ(v6->Host(), "::1");
}

TEST(ParseBindAddressTest, AcceptsNumericAndRejectsTheRest) {
  absl::StatusOr<InetAddress> v4 = ParseBindAddress(IpFamily::kIpv4, "127.0.0.2");
  ASSERT_TRUE(v4.ok());
  EXPECT_EQ(v4->ToString(), "127.0.0.2:0");
  EXPECT_EQ(v4->Host(), "127.0.0.2");
  EXPECT_EQ(ParseBindAddress(IpFamily::kIpv4, "localhost").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseBindAddress(IpFamily::kIpv4, "::1").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseBindAddress(IpFamily::kIpv6, "127.0.0.1").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(ConnectTargetTest, WildcardBecomesLoopback) {
  absl::StatusOr<InetAddress> any4 = ParseBindAddress(IpFamily::kIpv4, "0.0.0.0");
  ASSERT_TRUE(any4.ok());
  EXPECT_EQ(ConnectTarget(*any4).ToString(), "127.0.0.1:0");
  absl::StatusOr<InetAddress> any6 = ParseBindAddress(IpFamily::kIpv6, "::");
  ASSERT_TRUE(any6.ok());
  EXPECT_EQ(ConnectTarget(*any6).ToString(), "[::1]:0");
}

TEST(BoundSocketTest, KernelPicksAPort) {
  absl::StatusOr<InetAddress> address = ParseBindAddress(IpFamily::kIpv4, "");
  ASSERT_TRUE(address.ok());
  InetAddress bound;
  absl::StatusOr<UniqueFd> fd = BoundSocket(SOCK_DGRAM, *address, &bound);
  ASSERT_TRUE(fd.ok()) << fd.status();
  EXPECT_NE(bound.port(), 0);
}

TEST(BoundSocketTest, AddressNotOnThisHostIsFailedPrecondition) {
  // 192.0.2.1 is TEST-NET-1 (RFC 5737): never assigned to a host's interface.
  absl::StatusOr<InetAddress> address = ParseBindAddress(IpFamily::kIpv4, "192.0.2.1");
  ASSERT_TRUE(address.ok());
  InetAddress bound;
  EXPECT_EQ(BoundSocket(SOCK_DGRAM, *address, &bound).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace tickbench::transport
