#include "transport/sockets/unix_stream_transport.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "transport/io/endpoint_checks.h"
#include "transport/io/test_util.h"

namespace tickbench::transport {
namespace {

std::unique_ptr<Transport> Make() {
  absl::StatusOr<std::unique_ptr<Transport>> transport = MakeUnixStreamTransport();
  EXPECT_TRUE(transport.ok()) << transport.status();
  return std::move(*transport);
}

TEST(UnixStreamTransportTest, Describes) {
  std::unique_ptr<Transport> transport = Make();
  EXPECT_EQ(transport->name(), "unix_stream");
  EXPECT_FALSE(transport->keeps_boundaries());
  EXPECT_FALSE(transport->may_lose());
  EXPECT_EQ(transport->max_message_size(), kMaxStreamMessageBytes);
}

TEST(UnixStreamTransportTest, ConnectedPairLeavesNoFilesBehind) {
  ScopedTmpdir tmpdir;
  std::unique_ptr<Transport> transport = Make();
  absl::StatusOr<EndpointPair> pair = transport->Connect();
  ASSERT_TRUE(pair.ok()) << pair.status();
  // Removed as soon as connected, not only when the pair goes.
  EXPECT_EQ(DirectoryEntryCount(tmpdir.path()), 0);
  ASSERT_TRUE(pair->client->Send(absl::MakeConstSpan("ping", 4)).ok());
  char buffer[4];
  ASSERT_TRUE(pair->server->Receive(absl::MakeSpan(buffer)).ok());
  EXPECT_EQ(std::string(buffer, 4), "ping");
  ASSERT_TRUE(pair->server->Send(absl::MakeConstSpan("pong", 4)).ok());
  ASSERT_TRUE(pair->client->Receive(absl::MakeSpan(buffer)).ok());
  EXPECT_EQ(std::string(buffer, 4), "pong");
}

TEST(UnixStreamTransportTest, ClosedPeerIsUnavailable) {
  ScopedTmpdir tmpdir;
  absl::StatusOr<EndpointPair> pair = Make()->Connect();
  ASSERT_TRUE(pair.ok()) << pair.status();
  pair->server.reset();
  char buffer[1];
  EXPECT_EQ(pair->client->Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kUnavailable);
}

TEST(UnixStreamTransportTest, OversizeIsRefusedBeforeSending) {
  ScopedTmpdir tmpdir;
  absl::StatusOr<EndpointPair> pair = Make()->Connect();
  ASSERT_TRUE(pair.ok()) << pair.status();
  const std::vector<char> too_big(kMaxStreamMessageBytes + 1);
  EXPECT_EQ(pair->client->Send(too_big).code(), absl::StatusCode::kInvalidArgument);
}

TEST(UnixStreamTransportTest, MissingTmpdirFailsCleanly) {
  ScopedTmpdir tmpdir;
  setenv("TMPDIR", (tmpdir.path() + "/missing").c_str(), 1);
  EXPECT_FALSE(Make()->Connect().ok());
  EXPECT_EQ(DirectoryEntryCount(tmpdir.path()), 0);
}

TEST(UnixStreamTransportTest, SocketBuffersAskedForAreSetOnBothEndsAndReadBack) {
  absl::StatusOr<std::unique_ptr<Transport>> transport = MakeUnixStreamTransport(8192, 16384);
  ASSERT_TRUE(transport.ok()) << transport.status();
  absl::StatusOr<EndpointPair> pair = (*transport)->Connect();
  ASSERT_TRUE(pair.ok()) << pair.status();
  for (Endpoint* end : {pair->client.get(), pair->server.get()}) {
    absl::StatusOr<Endpoint::BufferSizes> sizes = end->SocketBufferSizes();
    ASSERT_TRUE(sizes.ok()) << sizes.status();
    EXPECT_FALSE(sizes->pipe);
    // Linux doubles the request for its bookkeeping.
    EXPECT_EQ(sizes->send_bytes, 2 * 8192);
    EXPECT_EQ(sizes->receive_bytes, 2 * 16384);
  }
  EXPECT_FALSE(MakeUnixStreamTransport(-1, 0).ok());
}

}  // namespace
}  // namespace tickbench::transport
