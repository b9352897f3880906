// Busy-poll receives (Endpoint::SetBusyPoll): round trips still arrive whole and checked
// on every registered transport with a forked peer (transport/registry/transport_registry.h; the
// one without, the simulated transport, has nothing to poll and says so), a silent peer
// still ends in DeadlineExceeded within the receive timeout, and a forked peer, spinning
// or not, dies with its parent.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "transport/echo/echo_peer.h"
#include "transport/echo/peer_process.h"
#include "transport/io/message_pattern.h"
#include "transport/io/test_util.h"
#include "transport/registry/transport_factory.h"
#include "transport/registry/transport_registry.h"

namespace tickbench::transport {
namespace {

constexpr absl::Duration kTimeout = absl::Seconds(5);

absl::StatusOr<PeerProcess> StartBusyPeer(absl::string_view transport_name,
                                          EchoPeerOptions options) {
  absl::StatusOr<std::unique_ptr<Transport>> transport = MakeTransport(transport_name);
  if (!transport.ok()) return transport.status();
  absl::StatusOr<EndpointPair> pair = (*transport)->Connect();
  if (!pair.ok()) return pair.status();
  options.busy_poll = true;
  return StartEchoPeerProcess(std::move(*pair), options, -1);
}

// Every registered transport whose endpoints a peer process receives on: the ones that
// have a receive to poll. A transport added to the registry is picked up here.
std::vector<const TransportInfo*> PolledRows() {
  std::vector<const TransportInfo*> rows;
  for (const TransportInfo& row : RegisteredTransports()) {
    if (row.needs_local_peer) rows.push_back(&row);
  }
  return rows;
}

class BusyPollTest : public testing::TestWithParam<const TransportInfo*> {
 protected:
  // FailedPrecondition from Connect(): the host lacks the address family (no ::1).
  absl::StatusOr<PeerProcess> Start(EchoPeerOptions options) {
    absl::StatusOr<PeerProcess> peer = StartBusyPeer(GetParam()->name, std::move(options));
    if (absl::IsFailedPrecondition(peer.status())) skipped_ = true;
    return peer;
  }
  bool skipped_ = false;
};

#define SKIP_IF_UNAVAILABLE(peer)                                                    \
  do {                                                                               \
    if (skipped_) GTEST_SKIP() << "not available on this host: " << (peer).status(); \
  } while (false)

TEST_P(BusyPollTest, RoundTripsArriveWholeAndChecked) {
  absl::StatusOr<PeerProcess> peer = Start(EchoPeerOptions());
  SKIP_IF_UNAVAILABLE(peer);
  ASSERT_TRUE(peer.ok()) << peer.status();
  Endpoint& client = peer->client();
  ASSERT_TRUE(client.SetReceiveTimeout(kTimeout).ok());
  ASSERT_TRUE(client.SetBusyPoll(true).ok());
  // Sizes from one byte to more than a stream reads in one call (several partial reads,
  // each after empty attempts).
  const std::vector<size_t> sizes = {16, 1000, client.keeps_boundaries() ? 8000u : 200000u};
  uint64_t sequence = 0;
  for (size_t size : sizes) {
    ASSERT_TRUE(SendBlockHeader(client, static_cast<uint32_t>(size), 20).ok());
    for (int i = 0; i < 20; ++i) {
      ASSERT_TRUE(CheckedRoundTrip(client, size, ++sequence).ok()) << size << " bytes, trip " << i;
    }
  }
  EXPECT_TRUE(peer->Stop(kTimeout).ok());
}

TEST_P(BusyPollTest, SilentPeerEndsInDeadlineExceededWithinTheTimeout) {
  EchoPeerOptions options;
  options.reply_delay = absl::Seconds(60);  // alive, its end open, but never answering in time
  absl::StatusOr<PeerProcess> peer = Start(options);
  SKIP_IF_UNAVAILABLE(peer);
  ASSERT_TRUE(peer.ok()) << peer.status();
  Endpoint& client = peer->client();
  ASSERT_TRUE(client.SetBusyPoll(true).ok());
  const absl::Duration timeout = absl::Milliseconds(200);
  ASSERT_TRUE(client.SetReceiveTimeout(timeout).ok());
  ASSERT_TRUE(SendBlockHeader(client, 64, 1).ok());
  const absl::Time start = absl::Now();
  const absl::Status status = CheckedRoundTrip(client, 64, 1);
  const absl::Duration waited = absl::Now() - start;
  EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded) << status;
  EXPECT_GE(waited, timeout);
  EXPECT_LT(waited, absl::Seconds(4)) << "the deadline of a spinning receive was not kept";
  // The peer sleeps out its delay: the destructor kills and reaps it.
}

INSTANTIATE_TEST_SUITE_P(Transports, BusyPollTest, testing::ValuesIn(PolledRows()),
                         [](const testing::TestParamInfo<const TransportInfo*>& info) {
                           return std::string(info.param->name);
                         });

// The rows without a peer process echo inside the client's endpoint: nothing to poll.
TEST(BusyPollTest, TransportsWithoutAPeerProcessHaveNothingToPoll) {
  int checked = 0;
  for (const TransportInfo& row : RegisteredTransports()) {
    if (row.needs_local_peer) continue;
    absl::StatusOr<std::unique_ptr<Transport>> transport = MakeTransport(row);
    ASSERT_TRUE(transport.ok()) << transport.status();
    absl::StatusOr<EndpointPair> pair = (*transport)->Connect();
    // A transport whose peer is elsewhere (mpi: another rank) cannot connect outside its
    // launcher; it has a receive to poll there (transport/mpi/mpi_transport.h).
    if (absl::IsFailedPrecondition(pair.status())) continue;
    ASSERT_TRUE(pair.ok()) << pair.status();
    EXPECT_EQ(pair->client->SetBusyPoll(true).code(), absl::StatusCode::kUnimplemented) << row.name;
    EXPECT_TRUE(pair->client->SetBusyPoll(false).ok()) << row.name;
    ++checked;
  }
  EXPECT_GE(checked, 1) << "the simulated transport is registered";
}

// True when `pid` has ended: gone, or a zombie waiting for whoever adopted it.
bool Ended(pid_t pid) {
  if (kill(pid, 0) != 0 && errno == ESRCH) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() &&
         (line[paren + 2] == 'Z' || line[paren + 2] == 'X');
}

// A harness killed outright (SIGKILL: no destructor, no quit frame) must not leave its
// peer behind: a UDP peer sees no end of file, and a busy-polling one would spin on.
TEST(PeerDeathTest, SpinningDatagramPeerDiesWithItsParent) {
  int report[2];
  ASSERT_EQ(pipe(report), 0);
  const pid_t harness = fork();
  ASSERT_GE(harness, 0);
  if (harness == 0) {  // the "harness": starts a peer, says its pid, then waits to be killed
    close(report[0]);
    absl::StatusOr<PeerProcess> peer = StartBusyPeer("udp", EchoPeerOptions());
    const pid_t peer_pid = peer.ok() ? peer->pid() : -1;
    (void)!write(report[1], &peer_pid, sizeof(peer_pid));
    while (true) pause();
  }
  close(report[1]);
  pid_t peer_pid = -1;
  ASSERT_EQ(read(report[0], &peer_pid, sizeof(peer_pid)), static_cast<ssize_t>(sizeof(peer_pid)));
  close(report[0]);
  ASSERT_GT(peer_pid, 0);
  EXPECT_FALSE(Ended(peer_pid));
  ASSERT_EQ(kill(harness, SIGKILL), 0);
  ASSERT_EQ(waitpid(harness, nullptr, 0), harness);
  const absl::Time give_up = absl::Now() + absl::Seconds(10);
  while (!Ended(peer_pid) && absl::Now() < give_up) absl::SleepFor(absl::Milliseconds(10));
  EXPECT_TRUE(Ended(peer_pid)) << "peer " << peer_pid << " outlived its parent";
  if (!Ended(peer_pid)) kill(peer_pid, SIGKILL);
}

}  // namespace
}  // namespace tickbench::transport
