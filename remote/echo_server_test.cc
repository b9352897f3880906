#include "remote/echo_server.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "remote/control_channel.h"
#include "remote/control_protocol.h"
#include "remote/remote_transport.h"
#include "remote/role_options.h"
#include "remote/test_server.h"
#include "transport/echo/echo_peer.h"
#include "transport/io/unique_fd.h"
#include "transport/registry/transport_registry.h"
#include "transport/sockets/inet_address.h"

namespace tickbench::remote {
namespace {

using TransportRow = const transport::TransportInfo*;

TransportRow Row(absl::string_view name) { return *transport::FindTransport(name); }
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

// A control connection whose raw request for `kind` (client data port `port`) the server
// accepted; the client then does nothing more.
UniqueFd AcceptedRawSession(const TestServer& server, TransportRow kind, uint16_t port) {
  SessionRequest request;
  request.transport = kind;
  request.client_data_port = port;
  UniqueFd client = RawConnect(server.address());
  const std::string bytes = EncodeControlMessage(request);
  EXPECT_EQ(send(client.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(bytes.size()));
  absl::StatusOr<ControlMessage> answer =
      ReadControlMessage(client.get(), absl::Now() + absl::Seconds(5));
  EXPECT_TRUE(answer.ok()) << answer.status();
  EXPECT_TRUE(answer.ok() && std::get_if<SessionAccept>(&*answer) != nullptr);
  return client;
}

// The server's answer on `fd`, which must be an error; its message.
std::string ErrorAnswer(int fd) {
  absl::StatusOr<ControlMessage> answer = ReadControlMessage(fd, absl::Now() + absl::Seconds(5));
  if (!answer.ok()) return "no answer: " + answer.status().ToString();
  const auto* error = std::get_if<SessionError>(&*answer);
  return error == nullptr ? "not an error" : error->message;
}

std::unique_ptr<transport::Transport> Client(const TestServer& server, TransportRow kind) {
  RemoteTransportOptions options;
  options.peer = server.address();
  options.data = kind;
  options.sizes = {64};
  absl::StatusOr<std::unique_ptr<RemoteTransport>> made = RemoteTransport::Create(options);
  EXPECT_TRUE(made.ok()) << made.status();
  return made.ok() ? std::move(*made) : nullptr;
}

// One 64-byte round trip of `fill` bytes on a session's endpoint.
void ExpectRoundTrip(transport::Endpoint& client, char fill) {
  ASSERT_TRUE(client.SetReceiveTimeout(absl::Seconds(2)).ok());
  ASSERT_TRUE(transport::SendBlockHeader(client, 64, 1).ok());
  std::string message(64, fill), echo(64, '\0');
  ASSERT_TRUE(client.Send(message).ok());
  ASSERT_TRUE(client.Receive(absl::MakeSpan(echo)).ok());
  EXPECT_EQ(echo, message);
}

// One 64-byte round trip through a new session: the server serves.
void ExpectServes(const TestServer& server) {
  std::unique_ptr<transport::Transport> client = Client(server, Row("udp"));
  ASSERT_NE(client, nullptr);
  absl::StatusOr<transport::EndpointPair> pair = client->Connect();
  ASSERT_TRUE(pair.ok()) << pair.status();
  ExpectRoundTrip(*pair->client, 'm');
}

// Entries of a /proc/self directory: open descriptors ("fd") or threads ("task").
int CountEntries(const char* directory) {
  int count = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path("/proc/self") / directory)) {
    (void)entry;
    ++count;
  }
  return count;
}

// The number of this process's threads once it has come down to `expected`, or after a second
// (then possibly more, or fewer if others' lingering tasks went meanwhile).
// A joined thread's kernel task outlives pthread_join for a moment (the kernel wakes the joiner
// before it removes the task; an emulator's threads linger longer), so the count is polled.
int ThreadsSettledAt(int expected) {
  const absl::Time deadline = absl::Now() + absl::Seconds(1);
  int count = CountEntries("task");
  while (count != expected && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(5));
    count = CountEntries("task");
  }
  return count;
}

// Whether the peer has answered or closed `fd` (it is readable).
bool Readable(int fd) {
  pollfd ready = {fd, POLLIN, 0};
  return poll(&ready, 1, 0) == 1;
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
  for (TransportRow kind : {Row("udp"), Row("tcp")}) {
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

// Refused from the header: a server that waited for the announced payload would answer
// only at its 60 s request deadline, long after ErrorAnswer() gives up (5 s).
TEST(EchoServerTest, OversizeLengthIsRefusedAtOnce) {
  ServerOptions options;
  options.request_timeout = absl::Seconds(60);
  TestServer server("127.0.0.1:0", options);
  ASSERT_TRUE(server.ok()) << server.status();
  {
    std::string header = EncodeControlMessage(SessionAccept{1}).substr(0, kControlHeaderBytes);
    header[6] = static_cast<char>(ControlType::kRequest);
    header[10] = 0x10;  // 1 MiB of payload announced
    UniqueFd client = RawConnect(server.address());
    SendRaw(client.get(), header);
    EXPECT_TRUE(absl::StrContains(ErrorAnswer(client.get()), "at most 4096 allowed"));
  }
  ExpectServes(server);
}

// An idle connection is answered and closed at its request deadline, not before.
TEST(EchoServerTest, SilentClientIsClosedAtTheRequestDeadline) {
  ServerOptions options;
  options.request_timeout = absl::Milliseconds(300);
  TestServer server("127.0.0.1:0", options);
  ASSERT_TRUE(server.ok()) << server.status();
  {
    const absl::Time start = absl::Now();
    UniqueFd silent = RawConnect(server.address());
    EXPECT_EQ(ErrorAnswer(silent.get()), "no whole request within 300ms");
    // Then end of file: the server closed its end.
    ASSERT_TRUE(WaitReady(silent.get(), POLLIN, absl::Now() + absl::Seconds(5)).ok());
    char byte;
    EXPECT_EQ(recv(silent.get(), &byte, 1, 0), 0);
    const absl::Duration took = absl::Now() - start;
    EXPECT_GE(took, absl::Milliseconds(300));
    EXPECT_LT(took, absl::Seconds(2));
  }
  ExpectServes(server);
}

// 100 connections that never send hold up no one: a real client is served at once, and
// the idle ones are still open (their deadline is far off).
TEST(EchoServerTest, IdleConnectionsDoNotDelayAClient) {
  ServerOptions options;
  options.request_timeout = absl::Seconds(60);
  TestServer server("127.0.0.1:0", options);
  ASSERT_TRUE(server.ok()) << server.status();
  std::vector<UniqueFd> idle;
  for (int i = 0; i < 100; ++i) idle.push_back(RawConnect(server.address()));
  absl::SleepFor(absl::Milliseconds(100));  // let the server accept them
  const absl::Time start = absl::Now();
  ExpectServes(server);
  const absl::Duration took = absl::Now() - start;
  EXPECT_LT(took, absl::Seconds(2));
  std::cout << "served with 100 idle connections open in " << absl::FormatDuration(took) << "\n";
  int answered = 0;
  for (const UniqueFd& fd : idle) answered += Readable(fd.get()) ? 1 : 0;
  EXPECT_EQ(answered, 0);
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
  request.transport = Row("udp6");
  request.client_data_port = 9;
  UniqueFd client = RawConnect(server.address());
  SendRaw(client.get(), EncodeControlMessage(request));
  EXPECT_TRUE(absl::StrContains(ErrorAnswer(client.get()), "same IP version"));
}

// Sessions run side by side up to max_sessions; one more is told "busy" (Unavailable on
// the client), and served once a session has ended.
TEST(EchoServerTest, ConcurrentSessionsUpToTheLimitThenBusy) {
  ServerOptions options;
  options.max_sessions = 2;
  TestServer server("127.0.0.1:0", options);
  ASSERT_TRUE(server.ok()) << server.status();
  absl::StatusOr<transport::EndpointPair> tcp = Client(server, Row("tcp"))->Connect();
  ASSERT_TRUE(tcp.ok()) << tcp.status();
  absl::StatusOr<transport::EndpointPair> udp = Client(server, Row("udp"))->Connect();
  ASSERT_TRUE(udp.ok()) << udp.status();
  ExpectRoundTrip(*tcp->client, 't');
  ExpectRoundTrip(*udp->client, 'u');

  absl::StatusOr<transport::EndpointPair> refused = Client(server, Row("udp"))->Connect();
  EXPECT_TRUE(absl::IsUnavailable(refused.status())) << refused.status();
  EXPECT_TRUE(absl::StrContains(refused.status().message(),
                                "server busy: 2 sessions active, try again later"))
      << refused.status();
  EXPECT_TRUE(server.WaitForLog("refused: server busy: 2 sessions active", absl::Seconds(10)));
  // The busy server still serves the sessions it has.
  ExpectRoundTrip(*tcp->client, 'T');

  tcp->client.reset();  // closes both connections: the session is over
  ASSERT_TRUE(server.WaitForLog("session over", absl::Seconds(10)));
  ExpectServes(server);
  ExpectRoundTrip(*udp->client, 'U');
}

// A version-1 client cannot read the busy message: it is told the same as an error.
TEST(EchoServerTest, Version1ClientIsToldBusyAsAnError) {
  ServerOptions options;
  options.max_sessions = 1;
  TestServer server("127.0.0.1:0", options);
  ASSERT_TRUE(server.ok()) << server.status();
  absl::StatusOr<transport::EndpointPair> session = Client(server, Row("tcp"))->Connect();
  ASSERT_TRUE(session.ok()) << session.status();
  SessionRequest request;
  request.transport = Row("tcp");
  UniqueFd old_client = RawConnect(server.address());
  SendRaw(old_client.get(), EncodeControlMessage(request, 1));
  EXPECT_EQ(ErrorAnswer(old_client.get()), "server busy: 1 sessions active, try again later");
}

// With a fixed data port, concurrent sessions share it: UDP sockets bound together and
// connected each to its client, TCP listeners one after the other.
TEST(EchoServerTest, ConcurrentSessionsShareAFixedDataPort) {
  transport::InetAddress free;
  {
    absl::StatusOr<UniqueFd> probe =
        transport::BoundSocket(SOCK_STREAM, *ParseHostPort("127.0.0.1:0"), &free);
    ASSERT_TRUE(probe.ok()) << probe.status();
  }
  ServerOptions options;
  options.data_port = free.port();
  TestServer server("127.0.0.1:0", options);
  ASSERT_TRUE(server.ok()) << server.status();
  std::vector<transport::EndpointPair> sessions;
  for (TransportRow kind : {Row("tcp"), Row("udp"), Row("tcp"), Row("udp")}) {
    absl::StatusOr<transport::EndpointPair> pair = Client(server, kind)->Connect();
    ASSERT_TRUE(pair.ok()) << pair.status();
    sessions.push_back(std::move(*pair));
  }
  EXPECT_TRUE(server.WaitForLog(absl::StrCat("data port ", free.port()), absl::Seconds(10), 4));
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < sessions.size(); ++i) {
      ExpectRoundTrip(*sessions[i].client, static_cast<char>('a' + i + 4 * round));
    }
  }
}

// A stop ends every session and waiting connection within a second, and leaves no
// thread and no descriptor of the server behind.
TEST(EchoServerTest, StopJoinsEveryThreadAndClosesEveryDescriptor) {
  // An earlier test's joined threads may still be there as tasks (under an emulator for
  // a while): start from the main thread alone where they go within a second, and accept
  // fewer threads at the end (one of theirs gone), never more.
  const int threads_before = ThreadsSettledAt(1);
  const int fds_before = CountEntries("fd");
  {
    ServerOptions options;
    options.request_timeout = absl::Seconds(60);
    TestServer server("127.0.0.1:0", options);
    ASSERT_TRUE(server.ok()) << server.status();
    std::vector<transport::EndpointPair> sessions;
    for (TransportRow kind : {Row("tcp"), Row("udp")}) {
      absl::StatusOr<transport::EndpointPair> pair = Client(server, kind)->Connect();
      ASSERT_TRUE(pair.ok()) << pair.status();
      sessions.push_back(std::move(*pair));
    }
    std::vector<UniqueFd> idle;
    for (int i = 0; i < 5; ++i) idle.push_back(RawConnect(server.address()));
    UniqueFd refused = RawConnect(server.address());  // lingering when the stop comes
    SendRaw(refused.get(), "GET / HTTP/1.0\r\n\r\n");
    ASSERT_TRUE(server.WaitForLog("session:", absl::Seconds(10), 2));
    ASSERT_TRUE(server.WaitForLog("refused: malformed", absl::Seconds(10)));

    const absl::Duration stop = server.Stop();
    EXPECT_LT(stop, kStopBound);
    std::cout << "stopped with 2 sessions and 6 connections in " << absl::FormatDuration(stop)
              << "\n";
    EXPECT_TRUE(server.serve_status().ok()) << server.serve_status();
    EXPECT_TRUE(server.WaitForLog("session over: the server is stopping", absl::Seconds(1), 2));
    // Left: this test's ends (2 per session, 1 per raw connection) and the server's
    // listener and stop pipe.
    EXPECT_EQ(CountEntries("fd"), fds_before + 2 * 2 + 6 + 3);
    EXPECT_LE(ThreadsSettledAt(threads_before), threads_before);
    // The server closed its ends of the waiting connections.
    for (const UniqueFd& fd : idle) EXPECT_TRUE(Readable(fd.get()));
  }
  EXPECT_EQ(CountEntries("fd"), fds_before);
}

TEST(EchoServerTest, TcpDataConnectionThatNeverComesEndsTheSession) {
  ServerOptions options;
  options.data_accept_timeout = absl::Milliseconds(200);
  TestServer server("127.0.0.1:0", options);
  ASSERT_TRUE(server.ok()) << server.status();
  const UniqueFd client = AcceptedRawSession(server, Row("tcp"), 0);
  EXPECT_TRUE(server.WaitForLog("no data connection", absl::Seconds(10)));
  ExpectServes(server);
}

// Every place of a server held by sessions that stay silent: a UDP one that never sends a
// datagram, one that sent one round trip and then nothing, a TCP one whose data connection
// stays silent. Each ends within its bound, whatever its transport, and the next client
// is served.
TEST(EchoServerTest, SilentSessionsEndWhateverTheirTransportAndLetTheNextClientIn) {
  ServerOptions options;
  options.max_sessions = 3;
  options.data_accept_timeout = absl::Milliseconds(300);
  options.data_idle_timeout = absl::Milliseconds(600);
  TestServer server("127.0.0.1:0", options);
  ASSERT_TRUE(server.ok()) << server.status();
  // UDP, never a datagram: the request names a port nobody sends from.
  const UniqueFd never = AcceptedRawSession(server, Row("udp"), 9);
  absl::StatusOr<transport::EndpointPair> once = Client(server, Row("udp"))->Connect();
  ASSERT_TRUE(once.ok()) << once.status();
  ExpectRoundTrip(*once->client, 'o');
  absl::StatusOr<transport::EndpointPair> tcp = Client(server, Row("tcp"))->Connect();
  ASSERT_TRUE(tcp.ok()) << tcp.status();
  const absl::Time full = absl::Now();
  EXPECT_TRUE(absl::IsUnavailable(Client(server, Row("udp"))->Connect().status()));

  EXPECT_TRUE(server.WaitForLog("no datagram within 300ms", absl::Seconds(10)));
  EXPECT_TRUE(
      server.WaitForLog("session over: the client sent nothing for 600ms", absl::Seconds(10), 2));
  const absl::Duration freed = absl::Now() - full;
  std::cout << "three silent sessions ended within " << absl::FormatDuration(freed) << "\n";
  EXPECT_LT(freed, absl::Seconds(5));
  ExpectServes(server);
}

TEST(EchoServerTest, ListenRefusesNoSessions) {
  ServerOptions options;
  options.listen = *ParseHostPort("127.0.0.1:0");
  options.max_sessions = 0;
  EXPECT_TRUE(absl::IsInvalidArgument(EchoServer::Listen(options).status()));
}

TEST(EchoServerTest, ListenFailsOnAnAddressThisHostLacks) {
  ServerOptions options;
  options.listen = *ParseHostPort("192.0.2.1:0");  // TEST-NET-1: never configured here
  absl::StatusOr<std::unique_ptr<EchoServer>> server = EchoServer::Listen(options);
  EXPECT_TRUE(absl::IsFailedPrecondition(server.status())) << server.status();
}

}  // namespace
}  // namespace tickbench::remote
