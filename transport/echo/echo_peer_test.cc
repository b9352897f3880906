#include "transport/echo/echo_peer.h"

#include <sys/socket.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "transport/io/message_pattern.h"
#include "transport/io/test_util.h"
#include "transport/io/unique_fd.h"
#include "transport/sockets/socket_endpoint.h"

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

// A failure inside a block names the message: the receive of the next one (the client
// went away after one round trip of three), or the echo of one that came but could not
// go back (the client closed right after sending it).
TEST(EchoPeerTest, AFailureInsideABlockNamesItsMessage) {
  {
    EndpointPair pair = SocketPair(SOCK_STREAM, 64);
    PeerThread peer(pair, EchoPeerOptions());
    ASSERT_TRUE(SendBlockHeader(*pair.client, 8, 3).ok());
    ASSERT_TRUE(CheckedRoundTrip(*pair.client, 8, 1).ok());
    pair.client.reset();
    const absl::Status status = peer.Join();
    EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
    EXPECT_NE(status.message().find("message 2 of a block of 3"), absl::string_view::npos)
        << status;
  }
  {
    EndpointPair pair = SocketPair(SOCK_STREAM, 64);
    ASSERT_TRUE(SendBlockHeader(*pair.client, 8, 3).ok());
    ASSERT_TRUE(pair.client->Send(std::vector<char>(8, 'x')).ok());
    pair.client.reset();  // the message waits in the peer's socket; its echo has nowhere to go
    const absl::Status status = RunEchoPeer(*pair.server, EchoPeerOptions());
    EXPECT_FALSE(status.ok());
    EXPECT_NE(status.message().find("echo of message 1"), absl::string_view::npos) << status;
  }
}

// An endpoint that records its calls and fails the k-th receive or send when told to.
class ScriptedEndpoint final : public Endpoint {
 public:
  int fail_receive_at = 0;  // 1-based; 0 = never
  int fail_send_at = 0;
  std::string calls;  // 'r' per receive, 's' per send

  absl::Status Send(absl::Span<const char> message) override {
    calls += 's';
    sent.assign(message.begin(), message.end());
    if (++sends_ == fail_send_at) return absl::UnavailableError("send failed");
    return absl::OkStatus();
  }
  absl::Status Receive(absl::Span<char> buffer) override {
    calls += 'r';
    if (++receives_ == fail_receive_at) return absl::UnavailableError("receive failed");
    for (char& c : buffer) c = static_cast<char>('a' + receives_);
    return absl::OkStatus();
  }
  absl::Status SetReceiveTimeout(absl::Duration) override { return absl::OkStatus(); }
  bool keeps_boundaries() const override { return false; }
  bool may_lose() const override { return false; }
  size_t max_message_size() const override { return 64; }
  absl::Status EchoMessages(absl::Span<char> buffer, uint32_t count, EchoCount& done) override {
    return EchoMessagesOf(*this, buffer, count, done);
  }

  std::vector<char> sent;

 private:
  int receives_ = 0;
  int sends_ = 0;
};

// EchoMessagesOf(): receive, then send back what came, `count` times; a failure stops it
// at once, with `done` saying how far it got.
TEST(EchoMessagesTest, EchoesEachMessageAndStopsAtTheFirstFailure) {
  std::vector<char> buffer(4);
  {
    ScriptedEndpoint endpoint;
    Endpoint::EchoCount done;
    EXPECT_TRUE(endpoint.EchoMessages(absl::MakeSpan(buffer), 3, done).ok());
    EXPECT_EQ(endpoint.calls, "rsrsrs");
    EXPECT_EQ(done.received, 3u);
    EXPECT_EQ(done.echoed, 3u);
    EXPECT_EQ(std::string(endpoint.sent.begin(), endpoint.sent.end()), "dddd");  // the third
  }
  {
    ScriptedEndpoint endpoint;
    endpoint.fail_receive_at = 2;
    Endpoint::EchoCount done;
    EXPECT_EQ(endpoint.EchoMessages(absl::MakeSpan(buffer), 3, done).code(),
              absl::StatusCode::kUnavailable);
    EXPECT_EQ(endpoint.calls, "rsr");
    EXPECT_EQ(done.received, 1u);
    EXPECT_EQ(done.echoed, 1u);
  }
  {
    ScriptedEndpoint endpoint;
    endpoint.fail_send_at = 2;
    Endpoint::EchoCount done;
    EXPECT_FALSE(endpoint.EchoMessages(absl::MakeSpan(buffer), 3, done).ok());
    EXPECT_EQ(endpoint.calls, "rsrs");
    EXPECT_EQ(done.received, 2u);
    EXPECT_EQ(done.echoed, 1u);
  }
  {
    ScriptedEndpoint endpoint;
    Endpoint::EchoCount done;
    EXPECT_TRUE(endpoint.EchoMessages(absl::MakeSpan(buffer), 0, done).ok());
    EXPECT_EQ(endpoint.calls, "");
  }
}

// EchoDatagramsOf(), through DatagramSocketEndpoint's override: each datagram goes back
// as it came, of its own length, until one of the stop length, which stays unsent.
TEST(EchoMessagesTest, EchoesDatagramsUntilOneOfTheStopLength) {
  EndpointPair pair = SocketPair(SOCK_DGRAM, 64);
  ASSERT_TRUE(pair.client->SetReceiveTimeout(absl::Seconds(2)).ok());
  ASSERT_TRUE(pair.server->SetReceiveTimeout(absl::Seconds(2)).ok());
  ASSERT_TRUE(pair.client->Send(std::string("hello")).ok());
  ASSERT_TRUE(pair.client->Send(std::string("!")).ok());
  ASSERT_TRUE(pair.client->Send(std::string(16, 'f')).ok());
  ASSERT_TRUE(pair.client->Send(std::string("after")).ok());
  std::vector<char> buffer(64);
  Endpoint::EchoCount done;
  absl::StatusOr<size_t> stopped =
      pair.server->EchoDatagrams(absl::MakeSpan(buffer), kControlFrameBytes, done);
  ASSERT_TRUE(stopped.ok()) << stopped.status();
  EXPECT_EQ(*stopped, kControlFrameBytes);
  EXPECT_EQ(std::string(buffer.data(), *stopped), std::string(16, 'f'));
  EXPECT_EQ(done.received, 3u);
  EXPECT_EQ(done.echoed, 2u);
  std::vector<char> echo(64);
  for (const std::string expected : {"hello", "!"}) {
    absl::StatusOr<size_t> length = pair.client->ReceiveDatagram(absl::MakeSpan(echo));
    ASSERT_TRUE(length.ok()) << length.status();
    EXPECT_EQ(std::string(echo.data(), *length), expected);
  }
  ASSERT_TRUE(pair.client->SetReceiveTimeout(absl::Milliseconds(50)).ok());
  EXPECT_FALSE(pair.client->ReceiveDatagram(absl::MakeSpan(echo)).ok());  // nothing more
}

}  // namespace
}  // namespace tickbench::transport
