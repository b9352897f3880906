#include "transport/sockets/socket_endpoint.h"

#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "platform/stop_signal.h"

namespace tickbench::transport {
namespace {

// Endpoints are not movable (a watchdog's timer carries its id), so the pair is of
// pointers.
template <typename EndpointType>
std::pair<std::unique_ptr<EndpointType>, std::unique_ptr<EndpointType>> MakePair(int type,
                                                                                 size_t limit) {
  int fds[2];
  EXPECT_EQ(socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, fds), 0);
  return {std::make_unique<EndpointType>(UniqueFd(fds[0]), "test", limit),
          std::make_unique<EndpointType>(UniqueFd(fds[1]), "test", limit)};
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
  EXPECT_FALSE(a->keeps_boundaries());
  EXPECT_EQ(a->max_message_size(), 8u);
  ASSERT_TRUE(a->Send(absl::MakeConstSpan("abcdefgh", 8)).ok());
  char buffer[8];
  ASSERT_TRUE(b->Receive(absl::MakeSpan(buffer)).ok());
  EXPECT_EQ(std::string(buffer, 8), "abcdefgh");
  EXPECT_EQ(a->Send(absl::MakeConstSpan("abcdefghi", 9)).code(),
            absl::StatusCode::kInvalidArgument);
  char unused[1];
  EXPECT_EQ(a->ReceiveDatagram(absl::MakeSpan(unused)).status().code(),
            absl::StatusCode::kUnimplemented);
}

TEST(StreamSocketEndpointTest, TimeoutThenPeerGone) {
  auto [a, b] = MakePair<StreamSocketEndpoint>(SOCK_STREAM, 8);
  ASSERT_TRUE(a->SetReceiveTimeout(absl::Milliseconds(20)).ok());
  char buffer[4];
  EXPECT_EQ(a->Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(a->SetReceiveTimeout(absl::ZeroDuration()).code(), absl::StatusCode::kInvalidArgument);
  b.reset();  // the peer gone
  EXPECT_EQ(a->Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(a->Send(absl::MakeConstSpan("x", 1)).code(), absl::StatusCode::kUnavailable);
}

TEST(DatagramSocketEndpointTest, OneDatagramPerMessageAndExactLength) {
  auto [a, b] = MakePair<DatagramSocketEndpoint>(SOCK_DGRAM, 16);
  EXPECT_TRUE(a->keeps_boundaries());
  char buffer[4];
  ASSERT_TRUE(a->Send(absl::MakeConstSpan("abcd", 4)).ok());
  ASSERT_TRUE(b->Receive(absl::MakeSpan(buffer)).ok());
  EXPECT_EQ(std::string(buffer, 4), "abcd");

  ASSERT_TRUE(a->Send(absl::MakeConstSpan("abc", 3)).ok());  // shorter than asked
  EXPECT_EQ(b->Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kDataLoss);

  ASSERT_TRUE(a->Send(absl::MakeConstSpan("abcdefgh", 8)).ok());  // longer: consumed whole
  absl::Status longer = b->Receive(absl::MakeSpan(buffer));
  EXPECT_EQ(longer.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(longer.message().find("8-byte datagram"), absl::string_view::npos) << longer;

  ASSERT_TRUE(a->Send(absl::MakeConstSpan("xy", 2)).ok());
  char big[16];
  absl::StatusOr<size_t> length = b->ReceiveDatagram(absl::MakeSpan(big));
  ASSERT_TRUE(length.ok()) << length.status();
  EXPECT_EQ(*length, 2u);
  EXPECT_EQ(std::string(big, 2), "xy");
}

TEST(DatagramSocketEndpointTest, RefusesOversizeAndTimesOut) {
  auto [a, b] = MakePair<DatagramSocketEndpoint>(SOCK_DGRAM, 4);
  EXPECT_EQ(a->Send(absl::MakeConstSpan("abcde", 5)).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(b->SetReceiveTimeout(absl::Milliseconds(20)).ok());
  char buffer[4];
  EXPECT_EQ(b->Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kDeadlineExceeded);
  b.reset();  // the peer gone
  EXPECT_EQ(a->Send(absl::MakeConstSpan("abcd", 4)).code(), absl::StatusCode::kUnavailable);
}

// SO_RCVTIMEO of `fd`, as the kernel holds it (zero: none).
absl::Duration KernelReceiveTimeout(int fd) {
  timeval value = {0, 0};
  socklen_t length = sizeof(value);
  EXPECT_EQ(getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, &length), 0);
  return absl::DurationFromTimeval(value);
}

// A stream socket's timeout of 20 ms or more is the watchdog's: the kernel holds none (a
// receive that waits arms no timer in it), and the wait still ends after at least the
// timeout and less than the timeout plus a tick period (a quarter of it) and slack. A
// shorter one, or a busy-polled endpoint's, is not the watchdog's: SO_RCVTIMEO holds it.
TEST(StreamSocketEndpointTest, TheWatchdogBoundsLongTimeouts) {
  if (!ReadWatchdogsAvailable()) {
    GTEST_SKIP() << "no per-thread timer signal here (an emulator): SO_RCVTIMEO bounds receives";
  }
  auto [a, b] = MakePair<StreamSocketEndpoint>(SOCK_STREAM, 8);
  constexpr absl::Duration kTimeout = absl::Milliseconds(200);
  ASSERT_TRUE(a->SetReceiveTimeout(kTimeout).ok());
  EXPECT_EQ(KernelReceiveTimeout(a->fd()), absl::ZeroDuration());
  char buffer[4];
  ASSERT_TRUE(b->Send(absl::MakeConstSpan("abcd", 4)).ok());
  ASSERT_TRUE(a->Receive(absl::MakeSpan(buffer)).ok());  // what is there comes at once
  EXPECT_EQ(std::string(buffer, 4), "abcd");
  const absl::Time start = absl::Now();
  EXPECT_EQ(a->Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kDeadlineExceeded);
  const absl::Duration waited = absl::Now() - start;
  EXPECT_GE(waited, kTimeout);
  EXPECT_LT(waited, kTimeout + kTimeout / 4 + absl::Seconds(1));  // slack for a loaded machine
  ASSERT_TRUE(b->Send(absl::MakeConstSpan("efgh", 4)).ok());      // and the next one still comes
  ASSERT_TRUE(a->Receive(absl::MakeSpan(buffer)).ok());
  EXPECT_EQ(std::string(buffer, 4), "efgh");

  ASSERT_TRUE(a->SetReceiveTimeout(absl::Milliseconds(5)).ok());
  // (The kernel keeps it in its ticks, rounded up: 8 ms at 250 Hz.)
  EXPECT_GE(KernelReceiveTimeout(a->fd()), absl::Milliseconds(5));
  EXPECT_EQ(a->Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kDeadlineExceeded);
  ASSERT_TRUE(a->SetReceiveTimeout(kTimeout).ok());
  EXPECT_EQ(KernelReceiveTimeout(a->fd()), absl::ZeroDuration());
  ASSERT_TRUE(a->SetBusyPoll(true).ok());
  EXPECT_GE(KernelReceiveTimeout(a->fd()), kTimeout);
}

// A datagram socket's timeout tells a lost datagram from a late one: the kernel keeps it
// (SO_RCVTIMEO), whatever its length, not the looser watchdog.
TEST(DatagramSocketEndpointTest, TheKernelKeepsTheTimeout) {
  auto [a, b] = MakePair<DatagramSocketEndpoint>(SOCK_DGRAM, 8);
  constexpr absl::Duration kTimeout = absl::Milliseconds(200);
  ASSERT_TRUE(a->SetReceiveTimeout(kTimeout).ok());
  EXPECT_GE(KernelReceiveTimeout(a->fd()), kTimeout);
  EXPECT_LT(KernelReceiveTimeout(a->fd()), kTimeout + absl::Milliseconds(10));  // a tick or two
  char buffer[4];
  const absl::Time start = absl::Now();
  EXPECT_EQ(a->Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_GE(absl::Now() - start, kTimeout - absl::Milliseconds(1));
}

// A stop request whose signal went to another thread ends a watched receive within a
// tick (at most 250 ms), long before its 30 s timeout (the bound, a third of it, is for a
// loaded machine).
TEST(StreamSocketEndpointTest, AStopEndsAWatchedReceive) {
  if (!ReadWatchdogsAvailable()) {
    GTEST_SKIP() << "no per-thread timer signal here (an emulator): SO_RCVTIMEO bounds receives";
  }
  auto [a, b] = MakePair<StreamSocketEndpoint>(SOCK_STREAM, 8);
  ASSERT_TRUE(a->SetReceiveTimeout(absl::Seconds(30)).ok());
  std::thread stopper([] {
    absl::SleepFor(absl::Milliseconds(100));
    platform::stop_internal::g_stop_signal.store(SIGTERM);  // as the handler would
  });
  const absl::Time start = absl::Now();
  char buffer[4];
  EXPECT_EQ(a->Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kCancelled);
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));  // not the 30 s timeout
  stopper.join();
  platform::ResetStopForTesting();
}

}  // namespace
}  // namespace tickbench::transport
