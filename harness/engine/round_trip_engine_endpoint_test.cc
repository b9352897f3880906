// The loop chosen for each transport's endpoint: SelectLoop specialises it for the
// `final` socket and pipe endpoint classes (direct calls) and runs any other endpoint
// through transport::Endpoint (virtual calls); and a run over each still completes and
// records every round trip. Real sockets and pipes, with the echo peer on a thread.
#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "harness/engine/loop_selection.h"
#include "harness/engine/round_trip_engine.h"
#include "timing/clocks/cycle_clock.h"
#include "timing/clocks/os_clocks.h"
#include "timing/clocks/virtual_clock.h"
#include "transport/echo/echo_peer.h"
#include "transport/io/message_pattern.h"
#include "transport/mpi/mpi_transport.h"
#include "transport/pipes/pipe_transport.h"
#include "transport/registry/transport_factory.h"
#include "transport/sim/sim_transport.h"
#include "transport/sockets/socket_endpoint.h"
#include "transport/transport.h"

namespace tickbench::harness {
namespace {

// An endpoint class the harness does not know: it echoes in memory. `final`, like the
// transports' own, yet SelectLoop cannot name it, so it gets the generic loop.
class FakeEchoEndpoint final : public transport::Endpoint {
 public:
  absl::Status Send(absl::Span<const char> message) override {
    if (transport::ParseControlFrame(message).has_value()) return absl::OkStatus();
    pending_.assign(message.begin(), message.end());
    return absl::OkStatus();
  }
  absl::Status Receive(absl::Span<char> buffer) override {
    if (buffer.size() != pending_.size()) return absl::DataLossError("echo of another size");
    std::copy(pending_.begin(), pending_.end(), buffer.begin());
    ++echoes_;
    return absl::OkStatus();
  }
  absl::Status SetReceiveTimeout(absl::Duration) override { return absl::OkStatus(); }
  bool keeps_boundaries() const override { return false; }
  bool may_lose() const override { return false; }
  size_t max_message_size() const override { return size_t{1} << 20; }

  int64_t echoes() const { return echoes_; }

 private:
  std::vector<char> pending_;
  int64_t echoes_ = 0;
};

// A connected pair of a named transport, with the echo peer running on the server end in
// a thread until the client says quit (or 10 s pass without a message).
class LocalPeer {
 public:
  explicit LocalPeer(absl::string_view transport_name) {
    auto made = transport::MakeTransport(transport_name);
    EXPECT_TRUE(made.ok()) << made.status();
    if (!made.ok()) return;
    auto connected = (*made)->Connect();
    EXPECT_TRUE(connected.ok()) << connected.status();
    if (!connected.ok()) return;
    pair_ = std::move(*connected);
    EXPECT_TRUE(pair_.client->SetReceiveTimeout(absl::Seconds(10)).ok());
    EXPECT_TRUE(pair_.server->SetReceiveTimeout(absl::Seconds(10)).ok());
    peer_ = std::thread([this] { peer_status_ = transport::RunEchoPeer(*pair_.server, {}); });
  }
  ~LocalPeer() {
    if (!peer_.joinable()) return;
    EXPECT_TRUE(transport::SendQuit(*pair_.client).ok());
    peer_.join();
    EXPECT_TRUE(peer_status_.ok()) << peer_status_;
  }

  bool ok() const { return pair_.client != nullptr; }
  transport::Endpoint& client() { return *pair_.client; }

 private:
  transport::EndpointPair pair_;
  std::thread peer_;
  absl::Status peer_status_;
};

// Only the client end, for the choice alone: no peer needed.
std::unique_ptr<transport::Endpoint> ClientOf(absl::string_view transport_name,
                                              transport::EndpointPair& pair) {
  auto made = transport::MakeTransport(transport_name);
  EXPECT_TRUE(made.ok()) << made.status();
  if (!made.ok()) return nullptr;
  auto connected = (*made)->Connect();
  EXPECT_TRUE(connected.ok()) << connected.status();
  if (!connected.ok()) return nullptr;
  pair = std::move(*connected);
  return std::move(pair.client);
}

TEST(LoopEndpointKindTest, SocketEndpointsGetTheirOwnLoop) {
  for (const char* name : {"udp", "unix_dgram"}) {
    transport::EndpointPair pair;
    std::unique_ptr<transport::Endpoint> client = ClientOf(name, pair);
    ASSERT_NE(client, nullptr) << name;
    EXPECT_EQ(LoopEndpointKind(*client), "datagram_socket") << name;
  }
  for (const char* name : {"unix_stream", "tcp"}) {
    transport::EndpointPair pair;
    std::unique_ptr<transport::Endpoint> client = ClientOf(name, pair);
    ASSERT_NE(client, nullptr) << name;
    EXPECT_EQ(LoopEndpointKind(*client), "stream_socket") << name;
  }
}

TEST(LoopEndpointKindTest, PipeGetsItsOwnLoop) {
  transport::EndpointPair pipe_pair;
  std::unique_ptr<transport::Endpoint> pipe = ClientOf("pipe", pipe_pair);
  ASSERT_NE(pipe, nullptr);
  EXPECT_EQ(LoopEndpointKind(*pipe), "pipe");
}

// The mpi endpoint was named on the fast-path list but left out of its type list, so its
// loop made virtual calls; an endpoint needs no MPI to be made (nothing is called here).
TEST(LoopEndpointKindTest, MpiGetsItsOwnLoop) {
  transport::MpiEndpoint mpi(1);
  EXPECT_EQ(LoopEndpointKind(mpi), "mpi");
}

// The simulation's endpoint class is private to sim_transport.cc: the harness cannot
// name it, so it runs the generic loop, as remote endpoints and any other do.
TEST(LoopEndpointKindTest, OtherEndpointsGetTheGenericLoop) {
  timing::VirtualClock time;
  transport::SimTransport sim(transport::SimRttModel{}, [&](int64_t ns) { time.AdvanceNanos(ns); });
  auto sim_pair = sim.Connect();
  ASSERT_TRUE(sim_pair.ok());
  EXPECT_EQ(LoopEndpointKind(*sim_pair->client), "endpoint");

  FakeEchoEndpoint fake;
  EXPECT_EQ(LoopEndpointKind(fake), "endpoint");
}

// SelectLoop itself, not just the name: one instantiation per endpoint type, whatever
// the transport behind it.
TEST(SelectLoopTest, OneInstantiationPerEndpointType) {
  timing::ClockGettimeClock monotonic(timing::ClockIdNames()[0]);
  transport::EndpointPair udp_pair, unix_dgram_pair, unix_stream_pair, tcp_pair, pipe_pair;
  auto udp = ClientOf("udp", udp_pair);
  auto unix_dgram = ClientOf("unix_dgram", unix_dgram_pair);
  auto unix_stream = ClientOf("unix_stream", unix_stream_pair);
  auto tcp = ClientOf("tcp", tcp_pair);
  auto pipe = ClientOf("pipe", pipe_pair);
  ASSERT_TRUE(udp && unix_dgram && unix_stream && tcp && pipe);
  FakeEchoEndpoint fake;
  auto loop = [&](transport::Endpoint& endpoint) {
    return SelectLoop(endpoint, monotonic, nullptr);
  };

  EXPECT_EQ(loop(*udp), loop(*unix_dgram));
  EXPECT_EQ(loop(*unix_stream), loop(*tcp));
  EXPECT_NE(loop(*pipe), loop(fake));
  EXPECT_NE(loop(*pipe), loop(*unix_stream));
  EXPECT_EQ(loop(*pipe), SelectLoopForEndpointType<transport::PipeEndpoint>(monotonic, nullptr));
  EXPECT_NE(loop(*udp), loop(*unix_stream));
  EXPECT_NE(loop(*udp), loop(fake));
  EXPECT_NE(loop(*unix_stream), loop(fake));
  // The clocks still choose too.
  EXPECT_NE(SelectLoop(*udp, monotonic, &monotonic), loop(*udp));
  // Which loops they are: the ones for the socket endpoint classes, and for
  // transport::Endpoint.
  EXPECT_EQ(loop(*udp),
            SelectLoopForEndpointType<transport::DatagramSocketEndpoint>(monotonic, nullptr));
  EXPECT_EQ(loop(*unix_stream),
            SelectLoopForEndpointType<transport::StreamSocketEndpoint>(monotonic, nullptr));
  EXPECT_EQ(loop(fake), SelectLoopForEndpointType<transport::Endpoint>(monotonic, nullptr));
}

// A run over the loop SelectLoop chose for this transport's endpoint: every round trip
// completes, intact, and is read by both clocks.
void ExpectCompleteRun(absl::string_view transport_name, absl::string_view kind) {
  SCOPED_TRACE(std::string(transport_name));
  LocalPeer peer(transport_name);
  ASSERT_TRUE(peer.ok());
  EXPECT_EQ(LoopEndpointKind(peer.client()), kind);
  timing::ClockGettimeClock monotonic(timing::ClockIdNames()[0]);
  auto cycles = timing::CycleClock::Create(/*allow_variable=*/true);
  // The real clocks' pairings: rdtsc read against CLOCK_MONOTONIC where there is one.
  timing::Clock& clock = cycles.ok() ? static_cast<timing::Clock&>(**cycles) : monotonic;
  EngineOptions options;
  options.iterations = 300;
  options.warmup = 20;
  options.batch = 1;
  options.continue_on_loss = false;
  RoundTripEngine engine(peer.client(), clock, &monotonic, 1024, options);
  for (size_t size : {size_t{1}, size_t{16}, size_t{1000}}) {
    const RunRecord r = engine.MeasureRun(size, 1);
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(r.completed, options.iterations);
    EXPECT_EQ(r.integrity.total(), 0);
    ASSERT_EQ(r.clock_marks.size(), options.iterations + 1);
    ASSERT_EQ(r.reference_marks.size(), options.iterations + 1);
    EXPECT_TRUE(std::is_sorted(r.reference_marks.begin(), r.reference_marks.end()));
    EXPECT_EQ(r.per_iteration_ns.count, options.iterations);
    EXPECT_GT(r.averaged_rtt_ns, 0);
    EXPECT_GT(r.reference_averaged_rtt_ns, 0);
  }
  // Batches: one reading per 7 trips, the last batch partial.
  options.batch = 7;
  RoundTripEngine batched(peer.client(), monotonic, nullptr, 64, options);
  const RunRecord r = batched.MeasureRun(64, 2);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.completed, options.iterations);
  EXPECT_EQ(r.clock_marks.size(), (options.iterations + 6) / 7 + 1);
  EXPECT_TRUE(r.reference_marks.empty());
}

TEST(SpecialisedLoopTest, UdpRunsComplete) { ExpectCompleteRun("udp", "datagram_socket"); }
TEST(SpecialisedLoopTest, UnixDgramRunsComplete) {
  ExpectCompleteRun("unix_dgram", "datagram_socket");
}
TEST(SpecialisedLoopTest, UnixStreamRunsComplete) {
  ExpectCompleteRun("unix_stream", "stream_socket");
}
TEST(SpecialisedLoopTest, TcpRunsComplete) { ExpectCompleteRun("tcp", "stream_socket"); }
TEST(SpecialisedLoopTest, PipeRunsComplete) { ExpectCompleteRun("pipe", "pipe"); }

TEST(SpecialisedLoopTest, AnEndpointOfUnknownTypeRunsThroughTheGenericLoop) {
  FakeEchoEndpoint fake;
  timing::ClockGettimeClock monotonic(timing::ClockIdNames()[0]);
  EngineOptions options;
  options.iterations = 100;
  options.warmup = 5;
  RoundTripEngine engine(fake, monotonic, &monotonic, 256, options);
  const RunRecord r = engine.MeasureRun(256, 1);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.completed, 100);
  EXPECT_EQ(r.clock_marks.size(), 101);
  EXPECT_EQ(fake.echoes(), 105);
}

// SelectLoopForEndpointType: a loop specialised for an endpoint class the caller names
// (as bench/loop_overhead_benchmark does) runs and records like the others.
TEST(SpecialisedLoopTest, ALoopForACallersEndpointTypeRuns) {
  FakeEchoEndpoint fake;
  timing::ClockGettimeClock monotonic(timing::ClockIdNames()[0]);
  const int64_t iterations = 50;
  std::vector<char> send(32), receive(32);
  std::vector<int64_t> marks(iterations + 2);
  transport::FillPattern(absl::MakeSpan(send));
  const LoopBuffers buffers{absl::MakeSpan(send), absl::MakeSpan(receive), absl::MakeSpan(marks),
                            absl::Span<int64_t>()};
  const LoopFunction loop = SelectLoopForEndpointType<FakeEchoEndpoint>(monotonic, nullptr);
  EXPECT_NE(loop, SelectLoop(fake, monotonic, nullptr));  // not the generic one
  IntegrityCounts integrity;
  const LoopOutcome outcome =
      loop(fake, monotonic, nullptr, buffers, iterations, 1, 1, false, integrity);
  EXPECT_TRUE(outcome.status.ok()) << outcome.status;
  EXPECT_EQ(outcome.completed, iterations);
  EXPECT_EQ(outcome.marks, iterations + 1);
  EXPECT_EQ(integrity.total(), 0);
  EXPECT_EQ(fake.echoes(), iterations);
}

}  // namespace
}  // namespace tickbench::harness
