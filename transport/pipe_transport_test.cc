#include "transport/pipe_transport.h"

#include <signal.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "transport/endpoint_checks.h"

namespace tickbench::transport {
namespace {

EndpointPair Connect() {
  absl::StatusOr<std::unique_ptr<Transport>> transport = MakePipeTransport();
  EXPECT_TRUE(transport.ok()) << transport.status();
  EXPECT_EQ((*transport)->name(), "pipe");
  EXPECT_FALSE((*transport)->is_datagram());
  absl::StatusOr<EndpointPair> pair = (*transport)->Connect();
  EXPECT_TRUE(pair.ok()) << pair.status();
  return std::move(*pair);
}

TEST(PipeTransportTest, BytesBothWays) {
  EndpointPair pair = Connect();
  ASSERT_TRUE(pair.client->Send(absl::MakeConstSpan("ping", 4)).ok());
  char buffer[4];
  ASSERT_TRUE(pair.server->Receive(absl::MakeSpan(buffer)).ok());
  ASSERT_TRUE(pair.server->Send(absl::MakeConstSpan("pong", 4)).ok());
  ASSERT_TRUE(pair.client->Receive(absl::MakeSpan(buffer)).ok());
  EXPECT_EQ(std::string(buffer, 4), "pong");
}

// 1 MiB is 16 default pipe buffers: the writer must wait for the reader many times.
TEST(PipeTransportTest, LargeMessageWithAReaderThread) {
  EndpointPair pair = Connect();
  std::vector<char> message(1 << 20);
  for (size_t i = 0; i < message.size(); ++i) message[i] = static_cast<char>(i % 253);
  std::vector<char> received(message.size());
  absl::Status read_status;
  std::thread reader([&] { read_status = pair.server->Receive(absl::MakeSpan(received)); });
  EXPECT_TRUE(pair.client->Send(message).ok());
  reader.join();
  EXPECT_TRUE(read_status.ok()) << read_status;
  EXPECT_EQ(message, received);
}

TEST(PipeTransportTest, TimeoutUsesPollAndIsBounded) {
  EndpointPair pair = Connect();
  EXPECT_EQ(pair.client->SetReceiveTimeout(absl::ZeroDuration()).code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(pair.client->SetReceiveTimeout(absl::Milliseconds(50)).ok());
  char buffer[4];
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(pair.client->Receive(absl::MakeSpan(buffer)).code(),
            absl::StatusCode::kDeadlineExceeded);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

// With a timeout the read end is O_NONBLOCK, and a receive waits only when nothing is
// there; without one (set, then cleared) it blocks again: either way an echo that comes
// later is received, never taken for a timeout.
TEST(PipeTransportTest, ReceivesWhatComesLaterWithAndWithoutATimeout) {
  EndpointPair pair = Connect();
  for (const absl::Duration timeout : {absl::Seconds(20), absl::InfiniteDuration()}) {
    ASSERT_TRUE(pair.client->SetReceiveTimeout(timeout).ok());
    std::thread sender([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      EXPECT_TRUE(pair.server->Send(absl::MakeConstSpan("late", 4)).ok());
    });
    char buffer[4];
    const absl::Status received = pair.client->Receive(absl::MakeSpan(buffer));
    sender.join();
    EXPECT_TRUE(received.ok()) << received << " (timeout " << timeout << ")";
    EXPECT_EQ(std::string(buffer, 4), "late");
  }
}

// Busy polling switched off again leaves the timeout in force: the wait stays bounded.
TEST(PipeTransportTest, TimeoutStaysBoundedAfterBusyPolling) {
  EndpointPair pair = Connect();
  ASSERT_TRUE(pair.client->SetReceiveTimeout(absl::Milliseconds(50)).ok());
  ASSERT_TRUE(pair.client->SetBusyPoll(true).ok());
  ASSERT_TRUE(pair.client->SetBusyPoll(false).ok());
  // Should the receive block for good, this ends it after 10 s (and the test fails).
  std::atomic<bool> done{false};
  std::thread rescue([&] {
    for (int i = 0; i < 1000 && !done; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!done) pair.server->Send(absl::MakeConstSpan("late", 4)).IgnoreError();
  });
  char buffer[4];
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(pair.client->Receive(absl::MakeSpan(buffer)).code(),
            absl::StatusCode::kDeadlineExceeded);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  done = true;
  rescue.join();
}

TEST(PipeTransportTest, GonePeerIsUnavailableAndRaisesNoSignal) {
  EndpointPair pair = Connect();
  pair.server.reset();
  // With SIGPIPE at its default action this process would die here.
  EXPECT_EQ(pair.client->Send(absl::MakeConstSpan("x", 1)).code(), absl::StatusCode::kUnavailable);
  char buffer[1];
  EXPECT_EQ(pair.client->Receive(absl::MakeSpan(buffer)).code(), absl::StatusCode::kUnavailable);
}

TEST(PipeTransportTest, IgnoredSigpipeTakesTheBarePath) {
  struct sigaction ignore = {}, old_action;
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ASSERT_EQ(sigaction(SIGPIPE, &ignore, &old_action), 0);
  EndpointPair pair = Connect();
  pair.server.reset();
  EXPECT_EQ(pair.client->Send(absl::MakeConstSpan("x", 1)).code(), absl::StatusCode::kUnavailable);
  ASSERT_EQ(sigaction(SIGPIPE, &old_action, nullptr), 0);
}

TEST(PipeTransportTest, OversizeIsRefused) {
  EndpointPair pair = Connect();
  const std::vector<char> too_big(kMaxStreamMessageBytes + 1);
  EXPECT_EQ(pair.client->Send(too_big).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tickbench::transport
