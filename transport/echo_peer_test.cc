#include "transport/echo_peer.h"

#include <sys/socket.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "transport/message_pattern.h"
#include "transport/socket_endpoint.h"
#include "transport/test_util.h"
#include "transport/unique_fd.h"

namespace tickbench::transport {
namespace {

EndpointPair SocketPair(int type, size_t limit) {
  int fds[2];
  EXPECT_EQ(socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, fds), 0);
  EndpointPair pair;
  if (type == SOCK_STREAM) {
    pair.client = std::make_unique<StreamSocketEndpoint>(UniqueFd(fds[0]), "test", limit);
    pair.server = std::make_unique<StreamSocketEndpoint>(UniqueFd(fds[1]), "test", limit);
  } else {
    pair.client = std::make_unique<DatagramSocketEndpoint>(UniqueFd(fds[0]), "test", limit);
    pair.server = std::make_unique<DatagramSocketEndpoint>(UniqueFd(fds[1]), "test", limit);
  }
  return pair;
}

// Runs the peer on `pair.server` in a thread; Join() returns its status.
class PeerThread {
 public:
  PeerThread(EndpointPair& pair, EchoPeerOptions options)
      : options_(options),
        thread_([this, &pair] { status_ = RunEchoPeer(*pair.server, options_); }) {}
  absl::Status Join() {
    thread_.join();
    return status_;
  }

 private:
  EchoPeerOptions options_;
  absl::Status status_;
  std::thread thread_;
};

TEST(ControlFrameTest, EncodeParseRoundTrip) {
  ControlFrame frame;
  frame.message_size = 65507;
  frame.count = 1000;
  std::optional<ControlFrame> parsed = ParseControlFrame(EncodeControlFrame(frame));
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->command, PeerCommand::kEchoBlock);
  EXPECT_EQ(parsed->message_size, 65507u);
  EXPECT_EQ(parsed->count, 1000u);
  frame.command = PeerCommand::kQuit;
  frame.message_size = frame.count = 0;
  EXPECT_TRUE(ParseControlFrame(EncodeControlFrame(frame)).has_value());
}

TEST(ControlFrameTest, RejectsWhatIsNotAFrame) {
  ControlFrame frame;
  std::array<char, kControlFrameBytes> bytes = EncodeControlFrame(frame);
  EXPECT_FALSE(ParseControlFrame(absl::MakeConstSpan(bytes.data(), 15)).has_value());
  bytes[0] ^= 1;
  EXPECT_FALSE(ParseControlFrame(bytes).has_value());
  bytes = EncodeControlFrame(frame);
  bytes[4] = 3;  // unknown command
  EXPECT_FALSE(ParseControlFrame(bytes).has_value());
  frame.message_size = kMaxControlMessageBytes + 1;
  EXPECT_FALSE(ParseControlFrame(EncodeControlFrame(frame)).has_value());
  frame.command = PeerCommand::kQuit;
  frame.message_size = 0;
  frame.count = 1;
  EXPECT_FALSE(ParseControlFrame(EncodeControlFrame(frame)).has_value());
}

// The sequences most likely to fool the parser carry the magic in their low half and a
// valid command in their high half; a million random ones cover the rest.
TEST(ControlFrameTest, NoStampedMessageIsAFrame) {
  std::vector<uint64_t> sequences;
  for (uint64_t high = 0; high < 16; ++high) sequences.push_back((high << 32) | kControlMagic);
  sequences.push_back(~uint64_t{0});
  sequences.push_back(0);
  std::mt19937_64 random(20220623);
  for (int i = 0; i < 1000000; ++i) sequences.push_back(random());
  std::vector<char> message(kControlFrameBytes);
  FillPattern(absl::MakeSpan(message));
  for (uint64_t sequence : sequences) {
    StampSequence(absl::MakeSpan(message), sequence);
    ASSERT_FALSE(ParseControlFrame(message).has_value()) << sequence;
  }
}

TEST(EchoPeerTest, StreamBlocksThenQuit) {
  EndpointPair pair = SocketPair(SOCK_STREAM, 1 << 20);
  PeerThread peer(pair, EchoPeerOptions());
  uint64_t sequence = 0;
  for (uint32_t size : {100u, 1u, 16u, 1u << 20}) {
    ASSERT_TRUE(SendBlockHeader(*pair.client, size, 3).ok());
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(CheckedRoundTrip(*pair.client, size, ++sequence).ok());
  }
  ASSERT_TRUE(SendBlockHeader(*pair.client, 8, 0).ok());  // an empty block is fine
  ASSERT_TRUE(SendQuit(*pair.client).ok());
  EXPECT_TRUE(peer.Join().ok());
}

TEST(EchoPeerTest, StreamEndOfFileBetweenBlocksIsOk) {
  EndpointPair pair = SocketPair(SOCK_STREAM, 1024);
  PeerThread peer(pair, EchoPeerOptions());
  ASSERT_TRUE(SendBlockHeader(*pair.client, 10, 1).ok());
  ASSERT_TRUE(CheckedRoundTrip(*pair.client, 10, 1).ok());
  pair.client.reset();
  EXPECT_TRUE(peer.Join().ok());
}

TEST(EchoPeerTest, StreamMalformedFrameIsDataLoss) {
  EndpointPair pair = SocketPair(SOCK_STREAM, 1024);
  PeerThread peer(pair, EchoPeerOptions());
  ASSERT_TRUE(pair.client->Send(std::vector<char>(kControlFrameBytes, 'x')).ok());
  EXPECT_EQ(peer.Join().code(), absl::StatusCode::kDataLoss);
}

TEST(EchoPeerTest, StreamOversizeBlockIsRefused) {
  EndpointPair pair = SocketPair(SOCK_STREAM, 1024);
  EXPECT_EQ(SendBlockHeader(*pair.client, 1025, 1).code(), absl::StatusCode::kInvalidArgument);
  EchoPeerOptions drop;
  drop.drop_every_kth = 2;
  EXPECT_EQ(RunEchoPeer(*pair.server, drop).code(), absl::StatusCode::kInvalidArgument);
}

TEST(EchoPeerTest, DatagramEchoesEverythingButFrames) {
  EndpointPair pair = SocketPair(SOCK_DGRAM, 4096);
  PeerThread peer(pair, EchoPeerOptions());
  ASSERT_TRUE(pair.client->SetReceiveTimeout(absl::Seconds(2)).ok());
  // No block header needed; the 16-byte message carries the magic in its head.
  ASSERT_TRUE(CheckedRoundTrip(*pair.client, 16, (uint64_t{1} << 32) | kControlMagic).ok());
  ASSERT_TRUE(SendBlockHeader(*pair.client, 100, 2).ok());
  ASSERT_TRUE(CheckedRoundTrip(*pair.client, 100, 1).ok());
  ASSERT_TRUE(CheckedRoundTrip(*pair.client, 4096, 2).ok());
  ASSERT_TRUE(CheckedRoundTrip(*pair.client, 1, 3).ok());
  ASSERT_TRUE(SendQuit(*pair.client).ok());
  EXPECT_TRUE(peer.Join().ok());
}

TEST(EchoPeerTest, DatagramDropEveryKth) {
  EndpointPair pair = SocketPair(SOCK_DGRAM, 64);
  EchoPeerOptions options;
  options.drop_every_kth = 3;
  PeerThread peer(pair, options);
  ASSERT_TRUE(pair.client->SetReceiveTimeout(absl::Milliseconds(200)).ok());
  ASSERT_TRUE(SendBlockHeader(*pair.client, 32, 6).ok());
  for (uint64_t sequence = 1; sequence <= 6; ++sequence) {
    absl::Status status = CheckedRoundTrip(*pair.client, 32, sequence);
    if (sequence % 3 == 0) {
      EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded) << sequence;
    } else {
      EXPECT_TRUE(status.ok()) << sequence << ": " << status;
    }
  }
  ASSERT_TRUE(SendQuit(*pair.client).ok());
  EXPECT_TRUE(peer.Join().ok());
}

TEST(EchoPeerTest, StopAfterEndsTheLoop) {
  for (int type : {SOCK_STREAM, SOCK_DGRAM}) {
    EndpointPair pair = SocketPair(type, 64);
    EchoPeerOptions options;
    options.stop_after = 2;
    PeerThread peer(pair, options);
    ASSERT_TRUE(pair.client->SetReceiveTimeout(absl::Milliseconds(200)).ok());
    ASSERT_TRUE(SendBlockHeader(*pair.client, 8, 3).ok());
    EXPECT_TRUE(CheckedRoundTrip(*pair.client, 8, 1).ok());
    EXPECT_TRUE(CheckedRoundTrip(*pair.client, 8, 2).ok());
    EXPECT_TRUE(peer.Join().ok());
    EXPECT_FALSE(CheckedRoundTrip(*pair.client, 8, 3).ok());
  }
}

TEST(EchoPeerTest, ReplyDelayDelaysEachEcho) {
  EndpointPair pair = SocketPair(SOCK_STREAM, 64);
  EchoPeerOptions options;
  options.reply_delay = absl::Milliseconds(30);
  PeerThread peer(pair, options);
  ASSERT_TRUE(SendBlockHeader(*pair.client, 8, 1).ok());
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(CheckedRoundTrip(*pair.client, 8, 1).ok());
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(30));
  ASSERT_TRUE(SendQuit(*pair.client).ok());
  EXPECT_TRUE(peer.Join().ok());
}

}  // namespace
}  // namespace tickbench::transport
