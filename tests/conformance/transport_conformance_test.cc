// Every registered transport (transport/registry/transport_registry.h) against the promises of
// transport/transport.h, through the echo peer in a child process as the harness uses them,
// or, for a transport that needs no local peer (the simulated one, whose client endpoint
// echoes by itself), through its own endpoint with the same fault hooks:
//   * stamped messages of every size from 1 byte to max_message_size() come back intact
//     (full pattern check on every echo);
//   * a message over max_message_size() is InvalidArgument;
//   * a peer killed mid-run gives the client an error, within the receive timeout (skipped,
//     saying why, where there is no peer process to kill);
//   * a peer that stops after one echo gives the client an error for the next one;
//   * nothing is left behind: no socket files or directories in TMPDIR, no descriptors;
//   * on every datagram transport, a datagram the peer drops is a DeadlineExceeded for
//     exactly that message.
// The rows come from the registry: a transport added there is tested here with no edit.
// Every wait is bounded by a 2 s receive timeout or a 2 s grace period.
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "transport/echo/echo_peer.h"
#include "transport/echo/peer_process.h"
#include "transport/io/message_pattern.h"
#include "transport/io/test_util.h"
#include "transport/registry/fast_path_endpoints.h"
#include "transport/registry/transport_factory.h"
#include "transport/registry/transport_registry.h"
#include "transport/transport.h"

namespace tickbench::transport {
namespace {

constexpr absl::Duration kTimeout = absl::Seconds(2);
constexpr size_t kMaxSize = 0;  // stands for the transport's max_message_size()

// Brings up one transport with its echo peer (a forked process, or none where the
// transport needs no local peer: then `options` become the simulated peer's fault hooks),
// and checks on the way out that it left nothing behind. Skips (from the test body) when
// the host lacks the transport's address family.
class EchoFixture {
 public:
  explicit EchoFixture(const TransportInfo& row, const EchoPeerOptions& options = EchoPeerOptions())
      : fds_before_(OpenFileDescriptorCount()) {
    TransportOptions transport_options;
    transport_options.sim_faults.drop_every_kth = options.drop_every_kth;
    transport_options.sim_faults.stop_after = options.stop_after;
    transport_options.sim_faults.reply_delay = options.reply_delay;
    absl::StatusOr<std::unique_ptr<Transport>> transport = MakeTransport(row, transport_options);
    if (!transport.ok()) {
      status_ = transport.status();
      return;
    }
    transport_ = std::move(*transport);
    absl::StatusOr<EndpointPair> pair = transport_->Connect();
    if (!pair.ok()) {
      status_ = pair.status();
      return;
    }
    if (!transport_->needs_local_peer()) {
      own_client_ = std::move(pair->client);
      status_ = own_client_->SetReceiveTimeout(kTimeout);
      return;
    }
    absl::StatusOr<PeerProcess> peer = StartEchoPeerProcess(std::move(*pair), options, -1);
    if (!peer.ok()) {
      status_ = peer.status();
      return;
    }
    peer_ = std::make_unique<PeerProcess>(std::move(*peer));
    status_ = peer_->client().SetReceiveTimeout(kTimeout);
  }

  // Stops the peer and drops everything; then TMPDIR must be empty and the descriptor
  // count back where it was.
  void TearDownAndCheck(const ScopedTmpdir& tmpdir) {
    peer_.reset();
    own_client_.reset();
    transport_.reset();
    EXPECT_EQ(DirectoryEntryCount(tmpdir.path()), 0) << "files left in TMPDIR";
    EXPECT_EQ(OpenFileDescriptorCount(), fds_before_) << "descriptors leaked";
  }

  const absl::Status& status() const { return status_; }
  Transport& transport() { return *transport_; }
  bool has_peer_process() const { return peer_ != nullptr; }
  PeerProcess& peer() { return *peer_; }
  Endpoint& client() { return peer_ != nullptr ? peer_->client() : *own_client_; }

  // Ends the session: the peer process told to quit and reaped (how it ended), or the
  // in-process peer told to quit (the quit frame accepted).
  absl::Status StopPeer() {
    if (peer_ != nullptr) return peer_->Stop(kTimeout);
    return SendQuit(*own_client_);
  }

 private:
  int fds_before_ = -1;
  absl::Status status_;
  std::unique_ptr<Transport> transport_;
  std::unique_ptr<PeerProcess> peer_;
  std::unique_ptr<Endpoint> own_client_;  // where there is no peer process
};

// FailedPrecondition from Connect() means the host lacks the address (no ::1).
#define SKIP_OR_ASSERT_UP(fixture)                                          \
  do {                                                                      \
    if (absl::IsFailedPrecondition((fixture).status())) {                   \
      GTEST_SKIP() << "not available on this host: " << (fixture).status(); \
    }                                                                       \
    ASSERT_TRUE((fixture).status().ok()) << (fixture).status();             \
  } while (false)

using Row = const TransportInfo*;

std::vector<Row> RowsWhere(bool (*keep)(const TransportInfo&)) {
  std::vector<Row> rows;
  for (const TransportInfo& row : RegisteredTransports()) {
    if (keep(row)) rows.push_back(&row);
  }
  return rows;
}

std::vector<Row> AllRows() {
  return RowsWhere([](const TransportInfo&) { return true; });
}

std::vector<Row> DatagramRows() {
  return RowsWhere([](const TransportInfo& row) { return row.may_lose; });
}

std::string RowName(const ::testing::TestParamInfo<Row>& info) { return info.param->name; }

using SizeParam = std::tuple<Row, size_t>;

class TransportEchoTest : public ::testing::TestWithParam<SizeParam> {};

TEST_P(TransportEchoTest, StampedMessagesComeBackIntact) {
  ScopedTmpdir tmpdir;
  const auto& [row, requested] = GetParam();
  const std::string name = row->name;
  EchoFixture fixture(*row);
  SKIP_OR_ASSERT_UP(fixture);
  const size_t limit = fixture.transport().max_message_size();
  const size_t size = requested == kMaxSize ? limit : std::min(requested, limit);
  // Enough round trips to cross several socket-buffer refills, few enough that 16 MiB
  // messages (checked byte by byte) stay quick: 1 MiB of traffic, 2 to 20 trips.
  const uint32_t count = static_cast<uint32_t>(std::clamp<size_t>((1 << 20) / size, 2, 20));
  ASSERT_TRUE(SendBlockHeader(fixture.client(), static_cast<uint32_t>(size), count).ok());
  for (uint32_t i = 1; i <= count; ++i) {
    absl::Status status = CheckedRoundTrip(fixture.client(), size, i);
    ASSERT_TRUE(status.ok()) << name << ", " << size << " bytes, message " << i << ": " << status;
  }
  EXPECT_TRUE(fixture.StopPeer().ok());
  fixture.TearDownAndCheck(tmpdir);
}

std::string SizeParamName(const ::testing::TestParamInfo<SizeParam>& info) {
  const size_t size = std::get<1>(info.param);
  return absl::StrCat(std::get<0>(info.param)->name, "_",
                      size == kMaxSize ? "max" : absl::StrCat(size));
}

INSTANTIATE_TEST_SUITE_P(AllTransports, TransportEchoTest,
                         ::testing::Combine(::testing::ValuesIn(AllRows()),
                                            ::testing::Values(1, 2, 7, 8, 15, 16, 17, 100, 1024,
                                                              4096, 65536, kMaxSize)),
                         SizeParamName);

class TransportConformanceTest : public ::testing::TestWithParam<Row> {};

// Verified here: a real transport's endpoint is on the loop's fast path
// (transport/registry/fast_path_endpoints.h): the loop calls its Send() and Receive()
// directly, so a new `final` endpoint class cannot silently run through virtual calls.
TEST_P(TransportConformanceTest, RealEndpointsAreOnTheFastPath) {
  if (GetParam()->simulated) GTEST_SKIP() << "the simulation's endpoint is called virtually";
  ScopedTmpdir tmpdir;
  EchoFixture fixture(*GetParam());
  SKIP_OR_ASSERT_UP(fixture);
  EXPECT_TRUE(OnFastPath(fixture.client()))
      << GetParam()->name
      << "'s endpoint class is not on transport/registry/fast_path_endpoints.h's list";
  EXPECT_TRUE(fixture.StopPeer().ok());
  fixture.TearDownAndCheck(tmpdir);
}

TEST_P(TransportConformanceTest, OversizeIsInvalidArgument) {
  ScopedTmpdir tmpdir;
  EchoFixture fixture(*GetParam());
  SKIP_OR_ASSERT_UP(fixture);
  const std::vector<char> too_big(fixture.transport().max_message_size() + 1);
  absl::Status status = fixture.client().Send(too_big);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_NE(status.message().find(absl::StrCat(too_big.size())), absl::string_view::npos);
  EXPECT_EQ(SendBlockHeader(fixture.client(), static_cast<uint32_t>(too_big.size()), 1).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(fixture.StopPeer().ok());
  fixture.TearDownAndCheck(tmpdir);
}

TEST_P(TransportConformanceTest, KilledPeerGivesTheClientAnErrorInBoundedTime) {
  if (!GetParam()->needs_local_peer) {
    GTEST_SKIP() << GetParam()->name
                 << " echoes inside the client's own endpoint: there is no peer process to "
                    "kill (PeerThatStopsGivesTheClientAnError covers a peer that goes)";
  }
  ScopedTmpdir tmpdir;
  EchoFixture fixture(*GetParam());
  SKIP_OR_ASSERT_UP(fixture);
  ASSERT_TRUE(SendBlockHeader(fixture.client(), 64, 3).ok());
  ASSERT_TRUE(CheckedRoundTrip(fixture.client(), 64, 1).ok());
  ASSERT_EQ(kill(fixture.peer().pid(), SIGKILL), 0);
  for (int i = 0; i < 5000 && fixture.peer().alive(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_FALSE(fixture.peer().alive());
  const auto start = std::chrono::steady_clock::now();
  absl::Status status = CheckedRoundTrip(fixture.client(), 64, 2);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(absl::IsUnavailable(status) || absl::IsDeadlineExceeded(status)) << status;
  if (!fixture.transport().may_lose()) {
    EXPECT_TRUE(absl::IsUnavailable(status)) << "a connection sees the peer go: " << status;
  }
  EXPECT_LT(elapsed, std::chrono::seconds(5));  // the 2 s timeout, plus slack
  EXPECT_EQ(fixture.peer().Stop(kTimeout).code(), absl::StatusCode::kAborted);
  fixture.TearDownAndCheck(tmpdir);
}

// The peer goes after one echo (EchoPeerOptions::stop_after, or SimFaults::stop_after):
// the next round trip fails, Unavailable on a stream (which sees its peer go), and never
// waits past the receive timeout.
TEST_P(TransportConformanceTest, PeerThatStopsGivesTheClientAnError) {
  ScopedTmpdir tmpdir;
  EchoPeerOptions options;
  options.stop_after = 1;
  EchoFixture fixture(*GetParam(), options);
  SKIP_OR_ASSERT_UP(fixture);
  ASSERT_TRUE(SendBlockHeader(fixture.client(), 64, 3).ok());
  const absl::Status first = CheckedRoundTrip(fixture.client(), 64, 1);
  if (!first.ok() && fixture.transport().may_lose() &&
      std::getenv("TICKBENCH_EMULATED") != nullptr) {
    // Seen under qemu-aarch64 on unix_dgram only: the echo a peer sends just before it
    // exits does not always reach the client. Natively (and on every other row) it does.
    GTEST_SKIP() << "under emulation the stopping peer's last echo was lost: " << first;
  }
  ASSERT_TRUE(first.ok()) << first;
  const auto start = std::chrono::steady_clock::now();
  absl::Status status = CheckedRoundTrip(fixture.client(), 64, 2);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(absl::IsUnavailable(status) || absl::IsDeadlineExceeded(status)) << status;
  if (!fixture.transport().may_lose()) {
    EXPECT_TRUE(absl::IsUnavailable(status)) << "a connection sees the peer go: " << status;
  }
  EXPECT_LT(elapsed, std::chrono::seconds(5));  // the 2 s timeout, plus slack
  if (fixture.has_peer_process()) {
    EXPECT_TRUE(fixture.peer().Stop(kTimeout).ok()) << "a peer that stops by itself exits 0";
  }
  fixture.TearDownAndCheck(tmpdir);
}

INSTANTIATE_TEST_SUITE_P(AllTransports, TransportConformanceTest, ::testing::ValuesIn(AllRows()),
                         RowName);

class DatagramDropTest : public ::testing::TestWithParam<Row> {};

// The peer drops messages 3 and 6: those, and only those, time out.
TEST_P(DatagramDropTest, DroppedEchoesAndOnlyThoseTimeOut) {
  ScopedTmpdir tmpdir;
  EchoPeerOptions options;
  options.drop_every_kth = 3;
  EchoFixture fixture(*GetParam(), options);
  SKIP_OR_ASSERT_UP(fixture);
  ASSERT_TRUE(fixture.transport().may_lose());
  // 1 s per dropped message rather than 2: two drops, and loopback answers in microseconds.
  ASSERT_TRUE(fixture.client().SetReceiveTimeout(absl::Seconds(1)).ok());
  ASSERT_TRUE(SendBlockHeader(fixture.client(), 100, 6).ok());
  for (uint64_t sequence = 1; sequence <= 6; ++sequence) {
    absl::Status status = CheckedRoundTrip(fixture.client(), 100, sequence);
    if (sequence % 3 == 0) {
      EXPECT_TRUE(absl::IsDeadlineExceeded(status)) << "message " << sequence << ": " << status;
    } else {
      EXPECT_TRUE(status.ok()) << "message " << sequence << ": " << status;
    }
  }
  EXPECT_TRUE(fixture.StopPeer().ok());
  fixture.TearDownAndCheck(tmpdir);
}

INSTANTIATE_TEST_SUITE_P(DatagramTransports, DatagramDropTest, ::testing::ValuesIn(DatagramRows()),
                         RowName);

// The suites above cover every row; this pins the rows today's build must have, so that
// a row lost by mistake fails here (a new row needs no edit: it is a superset check).
TEST(TransportRegistryCoverageTest, SuitesRunEveryRegisteredTransport) {
  std::vector<std::string> names;
  for (Row row : AllRows()) names.push_back(row->name);
  for (const char* expected :
       {"unix_stream", "unix_dgram", "udp", "udp6", "tcp", "tcp6", "pipe", "sim"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
  EXPECT_EQ(names.size(), RegisteredTransports().size());
  std::vector<std::string> datagram;
  for (Row row : DatagramRows()) datagram.push_back(row->name);
  for (const char* expected : {"unix_dgram", "udp", "udp6", "sim"}) {
    EXPECT_NE(std::find(datagram.begin(), datagram.end(), expected), datagram.end()) << expected;
  }
  for (const char* stream : {"unix_stream", "tcp", "pipe"}) {
    EXPECT_EQ(std::find(datagram.begin(), datagram.end(), stream), datagram.end()) << stream;
  }
}

}  // namespace
}  // namespace tickbench::transport
