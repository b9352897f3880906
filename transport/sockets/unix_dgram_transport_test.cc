#include "transport/sockets/unix_dgram_transport.h"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <memory>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "transport/io/test_util.h"
#include "transport/sockets/socket_endpoint.h"

namespace tickbench::transport {
namespace {

std::unique_ptr<Transport> Make() {
  absl::StatusOr<std::unique_ptr<Transport>> transport = MakeUnixDgramTransport();
  EXPECT_TRUE(transport.ok()) << transport.status();
  return std::move(*transport);
}

int FdOf(Endpoint& endpoint) {
  auto* socket_endpoint = dynamic_cast<DatagramSocketEndpoint*>(&endpoint);
  return socket_endpoint != nullptr ? socket_endpoint->fd() : -1;
}

TEST(UnixDgramTransportTest, LimitFollowsTheSendBuffer) {
  std::unique_ptr<Transport> transport = Make();
  EXPECT_EQ(transport->name(), "unix_dgram");
  EXPECT_TRUE(transport->keeps_boundaries());
  EXPECT_TRUE(transport->may_lose());
  // socket(7): the kernel doubles the request, capped at net.core.wmem_max.
  std::ifstream sysctl("/proc/sys/net/core/wmem_max");
  int wmem_max = 0;
  ASSERT_TRUE(sysctl >> wmem_max);
  EXPECT_EQ(transport->max_message_size(),
            UnixDgramLimitForSendBuffer(2 * std::min(kUnixDgramBufferRequestBytes, wmem_max)));
  ::testing::Test::RecordProperty("unix_dgram_max_message_size",
                                  static_cast<int>(transport->max_message_size()));
}

// The kernel, not only our check, draws the line where max_message_size() says.
TEST(UnixDgramTransportTest, KernelAgreesWithTheLimit) {
  ScopedTmpdir tmpdir;
  std::unique_ptr<Transport> transport = Make();
  absl::StatusOr<EndpointPair> pair = transport->Connect();
  ASSERT_TRUE(pair.ok()) << pair.status();
  const size_t limit = transport->max_message_size();
  std::vector<char> message(limit + 1, 'u');
  const int fd = FdOf(*pair->client);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(send(fd, message.data(), limit + 1, MSG_DONTWAIT), -1);
  EXPECT_EQ(errno, EMSGSIZE);
  ASSERT_EQ(send(fd, message.data(), limit, MSG_DONTWAIT), static_cast<ssize_t>(limit));
  std::vector<char> received(limit);
  EXPECT_TRUE(pair->server->Receive(absl::MakeSpan(received)).ok());
  EXPECT_EQ(pair->client->Send(message).code(), absl::StatusCode::kInvalidArgument);
}

TEST(UnixDgramTransportTest, MaxSizeBothWaysAndNoFilesLeft) {
  ScopedTmpdir tmpdir;
  std::unique_ptr<Transport> transport = Make();
  absl::StatusOr<EndpointPair> pair = transport->Connect();
  ASSERT_TRUE(pair.ok()) << pair.status();
  EXPECT_EQ(DirectoryEntryCount(tmpdir.path()), 0);
  std::vector<char> message(transport->max_message_size(), 'd');
  std::vector<char> received(message.size());
  ASSERT_TRUE(pair->client->Send(message).ok());
  ASSERT_TRUE(pair->server->Receive(absl::MakeSpan(received)).ok());
  ASSERT_TRUE(pair->server->Send(received).ok());
  ASSERT_TRUE(pair->client->Receive(absl::MakeSpan(received)).ok());
  EXPECT_EQ(message, received);
}

TEST(UnixDgramTransportTest, GonePeerIsUnavailableOnSend) {
  ScopedTmpdir tmpdir;
  absl::StatusOr<EndpointPair> pair = Make()->Connect();
  ASSERT_TRUE(pair.ok()) << pair.status();
  pair->server.reset();
  EXPECT_EQ(pair->client->Send(absl::MakeConstSpan("x", 1)).code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace tickbench::transport
