#include "transport/socket_endpoint.h"

#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <string>
#include <utility>

#include "gtest/gtest.h"

namespace tickbench::transport {
namespace {

template <typename EndpointType>
std::pair<EndpointType, EndpointType> MakePair(int type, size_t limit) {
  int fds[2];
  EXPECT_EQ(socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, fds), 0);
  return {EndpointType(UniqueFd(fds[0]), "test", limit),
          EndpointType(UniqueFd(fds[1]), "test", limit)};
}

TEST(SetSocketReceiveTimeoutTest, TinyTimeoutIsNotForever) {
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  UniqueFd a(fds[0]), b(fds[1]);
  ASSERT_TRUE(SetSocketReceiveTimeout(a.get(), absl::Nanoseconds(1)).ok());
  timeval value = {0, 0};
  socklen_t length = sizeof(value);
  ASSERT_EQ(getsockopt(a.get(), SOL_SOCKET, SO_RCVTIMEO, &value, &length), 0);
  EXPECT_TRUE(value.tv_sec != 0 || value.tv_usec != 0);
  ASSERT_TRUE(SetSocketReceiveTimeout(a.get(), absl::InfiniteDuration()).ok());
  ASSERT_EQ(getsockopt(a.get(), SOL_SOCKET, SO_RCVTIMEO, &value, &length), 0);
  EXPECT_EQ(value.tv_sec, 0);
  EXPECT_EQ(value.tv_usec, 0);
}

TEST(SetSocketBufferSizesTest, ReadsBackWhatTheKernelGave) {
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, fds), 0);
  UniqueFd a(fds[0]), b(fds[1]);
  absl::StatusOr<SocketBufferSizes> sizes = SetSocketBufferSizes(a.get(), 64 << 10);
  ASSERT_TRUE(sizes.ok()) << sizes.status();
  // Linux doubles the request (socket(7)); 64 KiB is below every default cap.
  EXPECT_EQ(sizes->send_bytes, 128 << 10);
  EXPECT_EQ(sizes->receive_bytes, 128 << 10);
}

TEST(StreamSocketEndpointTest, MovesBytesAndRefusesOversize) {
  auto [a, b] = MakePair<StreamSocketEndpoint>(SOCK_STREAM, 8);
  EXPECT_FALSE(a.is_datagram());
  EXPECT_EQ(a.max_message_size(), 8u);
  ASSERT_TRUE(a.Send(absl::MakeConstSpan("abcdefgh", 8)).ok());
  char buffer[8];
  ASSERT_TRUE(b.Receive(absl::MakeSpan(buffer)).ok());
  EXPECT_EQ(std::string(buffer, 8), "abcdefgh");
  EXPECT_EQ(a.Send(absl::MakeConstSpan("abcdefghi", 9)).code(), absl::StatusCode::kInvalidArgument);
  char unused[1];
  EXPECT_EQ(a.ReceiveDatagram(absl::MakeSpan(unused)).status().code(),
            absl::StatusCode::kUnimplemented);
}

TEST(StreamSocketEndpointTest, TimeoutThenPeerGone) {
  auto [a, b] = MakePair<StreamSocketEndpoint>(SOCK_STREAM, 8);
  ASSERT_TRUE(a.SetReceiveTimeout(absl::Milliseconds(20)).ok());
  char buffer[4];
  EXPECT_EQ(a.Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(a.SetReceiveTimeout(absl::ZeroDuration()).code(), absl::StatusCode::kInvalidArgument);
  { StreamSocketEndpoint gone = std::move(b); }
  EXPECT_EQ(a.Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(a.Send(absl::MakeConstSpan("x", 1)).code(), absl::StatusCode::kUnavailable);
}

TEST(DatagramSocketEndpointTest, OneDatagramPerMessageAndExactLength) {
  auto [a, b] = MakePair<DatagramSocketEndpoint>(SOCK_DGRAM, 16);
  EXPECT_TRUE(a.is_datagram());
  char buffer[4];
  ASSERT_TRUE(a.Send(absl::MakeConstSpan("abcd", 4)).ok());
  ASSERT_TRUE(b.Receive(absl::MakeSpan(buffer)).ok());
  EXPECT_EQ(std::string(buffer, 4), "abcd");

  ASSERT_TRUE(a.Send(absl::MakeConstSpan("abc", 3)).ok());  // shorter than asked
  EXPECT_EQ(b.Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kDataLoss);

  ASSERT_TRUE(a.Send(absl::MakeConstSpan("abcdefgh", 8)).ok());  // longer: consumed whole
  absl::Status longer = b.Receive(absl::MakeSpan(buffer));
  EXPECT_EQ(longer.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(longer.message().find("8-byte datagram"), absl::string_view::npos) << longer;

  ASSERT_TRUE(a.Send(absl::MakeConstSpan("xy", 2)).ok());
  char big[16];
  absl::StatusOr<size_t> length = b.ReceiveDatagram(absl::MakeSpan(big));
  ASSERT_TRUE(length.ok()) << length.status();
  EXPECT_EQ(*length, 2u);
  EXPECT_EQ(std::string(big, 2), "xy");
}

TEST(DatagramSocketEndpointTest, RefusesOversizeAndTimesOut) {
  auto [a, b] = MakePair<DatagramSocketEndpoint>(SOCK_DGRAM, 4);
  EXPECT_EQ(a.Send(absl::MakeConstSpan("abcde", 5)).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(b.SetReceiveTimeout(absl::Milliseconds(20)).ok());
  char buffer[4];
  EXPECT_EQ(b.Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kDeadlineExceeded);
  { DatagramSocketEndpoint gone = std::move(b); }
  EXPECT_EQ(a.Send(absl::MakeConstSpan("abcd", 4)).code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace tickbench::transport
