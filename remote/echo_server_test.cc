#include "remote/echo_server.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "remote/control_channel.h"
#include "remote/control_protocol.h"
#include "remote/remote_transport.h"
#include "remote/role_options.h"
#include "remote/test_server.h"
#include "transport/echo_peer.h"
#include "transport/transport_kind.h"
#include "transport/unique_fd.h"

namespace tickbench::remote {
namespace {

using transport::TransportKind;
using transport::UniqueFd;

// A stop must be seen within milliseconds; 1 s leaves room for a loaded test machine.
constexpr absl::Duration kStopBound = absl::Seconds(1);

// A plain TCP connection to the server's control port, for requests no client would send.
UniqueFd RawConnect(const transport::InetAddress& address) {
  UniqueFd fd(socket(address.storage.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
  EXPECT_EQ(connect(fd.get(), address.get(), address.length), 0);
  return fd;
}

void SendRaw(int fd, const std::string& bytes) {
  ASSERT_EQ(send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL), static_cast<ssize_t>(bytes.size()));
}

// The server's answer on `fd`, which must be an error; its message.
std::string ErrorAnswer(int fd) {
  absl::StatusOr<ControlMessage> answer = ReadControlMessage(fd, absl::Now() + absl::Seconds(5));
  if (!answer.ok()) return "no answer: " + answer.status().ToString();
  const auto* error = std::get_if<SessionError>(&*answer);
  return error == nullptr ? "not an error" : error->message;
}

std::unique_ptr<transport::Transport> Client(const TestServer& server, TransportKind kind) {
  RemoteTransportOptions options;
  options.peer = server.address();
  options.data = kind;
  options.sizes = {64};
  absl::StatusOr<std::unique_ptr<RemoteTransport>> made = RemoteTransport::Create(options);
  EXPECT_TRUE(made.ok()) << made.status();
  return made.ok() ? std::move(*made) : nullptr;
}

// One 64-byte round trip through a new session: the server serves.
void ExpectServes(const TestServer& server) {
  std::unique_ptr<transport::Transport> client = Client(server, TransportKind::kUdp);
  ASSERT_NE(client, nullptr);
  absl::StatusOr<transport::EndpointPair> pair = client->Connect();
  ASSERT_TRUE(pair.ok()) << pair.status();
  ASSERT_TRUE(pair->client->SetReceiveTimeout(absl::Seconds(2)).ok());
  ASSERT_TRUE(transport::SendBlockHeader(*pair->client, 64, 1).ok());
  std::string message(64, 'm'), echo(64, '\0');
  ASSERT_TRUE(pair->client->Send(message).ok());
  ASSERT_TRUE(pair->client->Receive(absl::MakeSpan(echo)).ok());
  EXPECT_EQ(echo, message);
}

TEST(EchoServerTest, StopsWhenIdle) {
  TestServer server;
  ASSERT_TRUE(server.ok()) << server.status();
  EXPECT_LT(server.Stop(), kStopBound);
  EXPECT_TRUE(server.serve_status().ok()) << server.serve_status();
}

TEST(EchoServerTest, StopsWhileWaitingForARequest) {
  TestServer server;
  ASSERT_TRUE(server.ok()) << server.status();
  UniqueFd silent = RawConnect(server.address());
  absl::SleepFor(absl::Milliseconds(50));  // let it be accepted; either state must stop
  EXPECT_LT(server.Stop(), kStopBound);
  EXPECT_TRUE(server.serve_status().ok()) << server.serve_status();
}

TEST(EchoServerTest, StopsDuringASession) {
  for (TransportKind kind : {TransportKind::kUdp, TransportKind::kTcp}) {
    TestServer server;
    ASSERT_TRUE(server.ok()) << server.status();
    std::unique_ptr<transport::Transport> client = Client(server, kind);
    ASSERT_NE(client, nullptr);
    absl::StatusOr<transport::EndpointPair> pair = client->Connect();
    ASSERT_TRUE(pair.ok()) << pair.status();
    ASSERT_TRUE(server.WaitForLog("session:", absl::Seconds(10)));
    // The echo thread is blocked in recv(); the stop must still end it.
    EXPECT_LT(server.Stop(), kStopBound);
    EXPECT_TRUE(server.WaitForLog("session over: the server is stopping", absl::Seconds(10)));
  }
}

TEST(EchoServerTest, MalformedRequestIsAnsweredAndTheNextClientServed) {
  TestServer server;
  ASSERT_TRUE(server.ok()) << server.status();
  {
    UniqueFd stranger = RawConnect(server.address());
    SendRaw(stranger.get(), "GET / HTTP/1.0\r\n\r\n");
    EXPECT_TRUE(absl::StrContains(ErrorAnswer(stranger.get()), "bad magic"));
  }
  ExpectServes(server);
}

TEST(EchoServerTest, OversizeLengthIsRefusedAtOnce) {
  TestServer server;
  ASSERT_TRUE(server.ok()) << server.status();
  {
    std::string header = EncodeControlMessage(SessionAccept{1}).substr(0, kControlHeaderBytes);
    header[6] = static_cast<char>(ControlType::kRequest);
    header[10] = 0x10;  // 1 MiB of payload announced
    UniqueFd client = RawConnect(server.address());
    const absl::Time start = absl::Now();
    SendRaw(client.get(), header);
    EXPECT_TRUE(absl::StrContains(ErrorAnswer(client.get()), "at most 4096 allowed"));
    EXPECT_LT(absl::Now() - start, absl::Seconds(1));
  }
  ExpectServes(server);
}

TEST(EchoServerTest, SilentClientTimesOut) {
  ServerOptions options;
  options.request_timeout = absl::Milliseconds(300);
  TestServer server("127.0.0.1:0", options);
  ASSERT_TRUE(server.ok()) << server.status();
  {
    UniqueFd silent = RawConnect(server.address());
    EXPECT_EQ(ErrorAnswer(silent.get()), "no whole request within 300ms");
  }
  ExpectServes(server);
}

TEST(EchoServerTest, RefusesWhatIsNotARequest) {
  TestServer server;
  ASSERT_TRUE(server.ok()) << server.status();
  UniqueFd client = RawConnect(server.address());
  SendRaw(client.get(), EncodeControlMessage(SessionAccept{9}));
  EXPECT_EQ(ErrorAnswer(client.get()), "expected a session request");
}

TEST(EchoServerTest, RefusesAnIpv6TransportOverAnIpv4Connection) {
  TestServer server;
  ASSERT_TRUE(server.ok()) << server.status();
  SessionRequest request;
  request.transport = TransportKind::kUdp6;
  request.client_data_port = 9;
  UniqueFd client = RawConnect(server.address());
  SendRaw(client.get(), EncodeControlMessage(request));
  EXPECT_TRUE(absl::StrContains(ErrorAnswer(client.get()), "same IP version"));
}

TEST(EchoServerTest, OneClientAtATime) {
  TestServer server;
  ASSERT_TRUE(server.ok()) << server.status();
  std::unique_ptr<transport::Transport> first = Client(server, TransportKind::kTcp);
  ASSERT_NE(first, nullptr);
  absl::StatusOr<transport::EndpointPair> session = first->Connect();
  ASSERT_TRUE(session.ok()) << session.status();
  absl::StatusOr<transport::EndpointPair> refused = Client(server, TransportKind::kUdp)->Connect();
  EXPECT_TRUE(absl::IsFailedPrecondition(refused.status())) << refused.status();
  EXPECT_TRUE(absl::StrContains(refused.status().message(), "busy")) << refused.status();
  session->client.reset();  // closes both connections: the session is over
  ASSERT_TRUE(server.WaitForLog("session over", absl::Seconds(10)));
  ExpectServes(server);
}

TEST(EchoServerTest, TcpDataConnectionThatNeverComesEndsTheSession) {
  ServerOptions options;
  options.data_accept_timeout = absl::Milliseconds(200);
  TestServer server("127.0.0.1:0", options);
  ASSERT_TRUE(server.ok()) << server.status();
  SessionRequest request;
  request.transport = TransportKind::kTcp;
  UniqueFd client = RawConnect(server.address());
  SendRaw(client.get(), EncodeControlMessage(request));
  absl::StatusOr<ControlMessage> answer =
      ReadControlMessage(client.get(), absl::Now() + absl::Seconds(5));
  ASSERT_TRUE(answer.ok()) << answer.status();
  EXPECT_NE(std::get_if<SessionAccept>(&*answer), nullptr);
  EXPECT_TRUE(server.WaitForLog("no data connection", absl::Seconds(10)));
  ExpectServes(server);
}

TEST(EchoServerTest, ListenFailsOnAnAddressThisHostLacks) {
  ServerOptions options;
  options.listen = *ParseHostPort("192.0.2.1:0");  // TEST-NET-1: never configured here
  absl::StatusOr<std::unique_ptr<EchoServer>> server = EchoServer::Listen(options);
  EXPECT_TRUE(absl::IsFailedPrecondition(server.status())) << server.status();
}

}  // namespace
}  // namespace tickbench::remote
