#include "transport/echo/peer_process.h"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "platform/cpu/cpu_affinity.h"
#include "transport/echo/echo_peer.h"
#include "transport/io/message_pattern.h"
#include "transport/io/test_util.h"
#include "transport/pipes/pipe_transport.h"
#include "transport/sockets/unix_stream_transport.h"

namespace tickbench::transport {
namespace {

constexpr absl::Duration kTimeout = absl::Seconds(2);

EndpointPair Connect(absl::StatusOr<std::unique_ptr<Transport>> transport) {
  EXPECT_TRUE(transport.ok()) << transport.status();
  absl::StatusOr<EndpointPair> pair = (*transport)->Connect();
  EXPECT_TRUE(pair.ok()) << pair.status();
  return std::move(*pair);
}

PeerProcess Start(EndpointPair pair, EchoPeerOptions options = EchoPeerOptions(),
                  int pin_cpu = -1) {
  absl::StatusOr<PeerProcess> peer = StartEchoPeerProcess(std::move(pair), options, pin_cpu);
  EXPECT_TRUE(peer.ok()) << peer.status();
  EXPECT_TRUE(peer->client().SetReceiveTimeout(kTimeout).ok());
  return std::move(*peer);
}

bool Reaped(pid_t pid) { return waitpid(pid, nullptr, WNOHANG) < 0 && errno == ECHILD; }

TEST(PeerProcessTest, EchoesThenStopsCleanly) {
  PeerProcess peer = Start(Connect(MakeUnixStreamTransport()));
  EXPECT_TRUE(peer.alive());
  ASSERT_TRUE(SendBlockHeader(peer.client(), 1000, 5).ok());
  for (uint64_t i = 1; i <= 5; ++i) ASSERT_TRUE(CheckedRoundTrip(peer.client(), 1000, i).ok());
  EXPECT_TRUE(peer.Stop(kTimeout).ok());
  EXPECT_FALSE(peer.alive());
  EXPECT_TRUE(Reaped(peer.pid()));
  EXPECT_TRUE(peer.Stop(kTimeout).ok());  // the same answer again
}

TEST(PeerProcessTest, ChildFailureComesBackWithItsStatus) {
  PeerProcess peer = Start(Connect(MakePipeTransport()));
  ASSERT_TRUE(peer.client().Send(std::vector<char>(kControlFrameBytes, 'x')).ok());
  absl::Status status = peer.Stop(kTimeout);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_NE(status.message().find("echo peer: malformed control frame"), absl::string_view::npos)
      << status;
}

TEST(PeerProcessTest, KilledPeerIsSeenByTheClientAndByStop) {
  PeerProcess peer = Start(Connect(MakeUnixStreamTransport()));
  ASSERT_TRUE(SendBlockHeader(peer.client(), 8, 2).ok());
  ASSERT_TRUE(CheckedRoundTrip(peer.client(), 8, 1).ok());
  ASSERT_EQ(kill(peer.pid(), SIGKILL), 0);
  char buffer[8];
  EXPECT_EQ(peer.client().Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kUnavailable);
  absl::Status status = peer.Stop(kTimeout);
  EXPECT_EQ(status.code(), absl::StatusCode::kAborted) << status;
  EXPECT_NE(status.message().find("signal 9"), absl::string_view::npos) << status;
}

TEST(PeerProcessTest, GraceRunsOutOnAPeerThatDoesNotListen) {
  PeerProcess peer = Start(Connect(MakePipeTransport()));
  // The peer waits for 100 bytes of a message; the 16-byte quit frame is not enough.
  ASSERT_TRUE(SendBlockHeader(peer.client(), 100, 1).ok());
  const auto start = std::chrono::steady_clock::now();
  absl::Status status = peer.Stop(absl::Milliseconds(100));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded) << status;
  EXPECT_TRUE(Reaped(peer.pid()));
}

// The peer blocks writing an echo nobody reads, and the pipe towards it is full, so the
// quit frame cannot even be written: Stop() must still end.
TEST(PeerProcessTest, StopIsBoundedWhenTheQuitFrameCannotBeSent) {
  PeerProcess peer = Start(Connect(MakePipeTransport()));
  constexpr size_t kMessageBytes = 256 << 10;  // four times a default pipe buffer
  ASSERT_TRUE(SendBlockHeader(peer.client(), kMessageBytes, 2).ok());
  std::thread writer([&peer] {
    const std::vector<char> message(kMessageBytes, 'm');
    // The second message fills the pipe and blocks until the child is killed.
    for (int i = 0; i < 2; ++i) {
      if (!peer.client().Send(message).ok()) return;
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto start = std::chrono::steady_clock::now();
  absl::Status status = peer.Stop(absl::Milliseconds(100));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded) << status;
  writer.join();
}

TEST(PeerProcessTest, DestructorKillsAndReaps) {
  pid_t pid;
  {
    PeerProcess peer = Start(Connect(MakeUnixStreamTransport()));
    pid = peer.pid();
    EXPECT_TRUE(peer.alive());
  }
  EXPECT_TRUE(Reaped(pid));
}

TEST(PeerProcessTest, MovedFromHoldsNothing) {
  PeerProcess first = Start(Connect(MakeUnixStreamTransport()));
  const pid_t pid = first.pid();
  PeerProcess second = std::move(first);
  EXPECT_EQ(second.pid(), pid);
  EXPECT_EQ(first.Stop(kTimeout).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(second.alive());
  EXPECT_TRUE(second.Stop(kTimeout).ok());
}

TEST(PeerProcessTest, PinsTheChildOrReportsWhyNot) {
  // The CPU this test runs on is one its affinity mask allows.
  const int cpu = std::max(platform::CurrentCpu(), 0);
  PeerProcess pinned = Start(Connect(MakeUnixStreamTransport()), EchoPeerOptions(), cpu);
  ASSERT_TRUE(SendBlockHeader(pinned.client(), 8, 1).ok());
  EXPECT_TRUE(CheckedRoundTrip(pinned.client(), 8, 1).ok());
  EXPECT_TRUE(pinned.Stop(kTimeout).ok());

  PeerProcess unpinnable = Start(Connect(MakeUnixStreamTransport()), EchoPeerOptions(), 1 << 20);
  absl::Status status = unpinnable.Stop(kTimeout);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_NE(status.message().find("echo peer: CPU"), absl::string_view::npos) << status;
}

TEST(PeerProcessTest, RefusesAHalfPair) {
  EndpointPair pair = Connect(MakePipeTransport());
  pair.server.reset();
  EXPECT_EQ(StartEchoPeerProcess(std::move(pair), EchoPeerOptions(), -1).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tickbench::transport
