// transport.h's whole-message deadline, on every stream transport and every way of
// receiving: a peer that drips its message a byte at a time, each byte well within the
// receive timeout, still ends the receive in DeadlineExceeded, within twice the timeout
// (plus a watchdog tick), never after the drip's whole length. Before the deadline was the
// whole message's, each read restarted it and such a receive succeeded after 16 gaps.
#include <atomic>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "transport/registry/transport_factory.h"
#include "transport/transport.h"

namespace tickbench::transport {
namespace {

struct DripCase {
  const char* transport;
  absl::Duration timeout;  // 100 ms: a read watchdog bounds it; 10 ms: SO_RCVTIMEO or ppoll()
  bool busy_poll;
};

std::string CaseName(const DripCase& c) {
  return absl::StrCat(c.transport, " ", absl::FormatDuration(c.timeout),
                      c.busy_poll ? " busy-polled" : " blocking");
}

class WholeMessageDeadlineTest : public ::testing::TestWithParam<DripCase> {};

TEST_P(WholeMessageDeadlineTest, APeerDrippingItsMessageEndsTheReceive) {
  const DripCase c = GetParam();
  auto made = MakeTransport(c.transport);
  ASSERT_TRUE(made.ok()) << made.status();
  auto pair = (*made)->Connect();
  ASSERT_TRUE(pair.ok()) << pair.status();
  Endpoint& client = *pair->client;
  ASSERT_TRUE(client.SetReceiveTimeout(c.timeout).ok());
  if (c.busy_poll) ASSERT_TRUE(client.SetBusyPoll(true).ok());

  // One byte every 0.6 timeouts: each within the timeout, the 16 over 9.6 timeouts.
  constexpr int kBytes = 16;
  const absl::Duration gap = c.timeout * 6 / 10;
  std::atomic<bool> stop{false};
  Endpoint& server = *pair->server;
  std::thread dripper([&] {
    const char byte = 'x';
    for (int i = 0; i < kBytes && !stop.load(); ++i) {
      absl::SleepFor(gap);
      if (!server.Send(absl::MakeConstSpan(&byte, 1)).ok()) return;
    }
  });
  char buffer[kBytes];
  const absl::Time start = absl::Now();
  const absl::Status received = client.Receive(absl::MakeSpan(buffer));
  const absl::Duration took = absl::Now() - start;
  stop = true;
  dripper.join();
  EXPECT_EQ(received.code(), absl::StatusCode::kDeadlineExceeded)
      << CaseName(c) << ": " << received;
  // Wide bound: the promise is under 2 timeouts plus a tick; the drip takes 9.6.
  EXPECT_LT(took, c.timeout * 8) << CaseName(c);
  EXPECT_GE(took, c.timeout) << CaseName(c);
}

INSTANTIATE_TEST_SUITE_P(StreamTransports, WholeMessageDeadlineTest,
                         ::testing::Values(DripCase{"tcp", absl::Milliseconds(100), false},
                                           DripCase{"tcp", absl::Milliseconds(10), false},
                                           DripCase{"tcp", absl::Milliseconds(100), true},
                                           DripCase{"unix_stream", absl::Milliseconds(100), false},
                                           DripCase{"unix_stream", absl::Milliseconds(10), false},
                                           DripCase{"pipe", absl::Milliseconds(100), false},
                                           DripCase{"pipe", absl::Milliseconds(10), false},
                                           DripCase{"pipe", absl::Milliseconds(100), true}),
                         [](const ::testing::TestParamInfo<DripCase>& info) {
                           return absl::StrCat(info.param.transport, "_",
                                               absl::ToInt64Milliseconds(info.param.timeout), "ms",
                                               info.param.busy_poll ? "_busy_poll" : "");
                         });

}  // namespace
}  // namespace tickbench::transport
