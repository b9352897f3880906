#include "remote/control_channel.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "platform/stop_signal.h"
#include "transport/io/unique_fd.h"

namespace tickbench::remote {
namespace {

using transport::UniqueFd;

class ControlChannelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int fds[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    a_.reset(fds[0]);
    b_.reset(fds[1]);
  }

  void SendRaw(const std::string& bytes) {
    ASSERT_EQ(send(b_.get(), bytes.data(), bytes.size(), 0), static_cast<ssize_t>(bytes.size()));
  }

  UniqueFd a_, b_;
};

TEST_F(ControlChannelTest, MessagesCrossWhole) {
  const absl::Time deadline = absl::Now() + absl::Seconds(5);
  ASSERT_TRUE(WriteControlMessage(b_.get(), SessionAccept{7479}, deadline).ok());
  ASSERT_TRUE(WriteControlMessage(b_.get(), SessionError{"busy"}, deadline).ok());
  absl::StatusOr<ControlMessage> first = ReadControlMessage(a_.get(), deadline);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(std::get<SessionAccept>(*first).data_port, 7479);
  absl::StatusOr<ControlMessage> second = ReadControlMessage(a_.get(), deadline);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(std::get<SessionError>(*second).message, "busy");
}

// An oversize length is refused from the 12-byte header: the reader neither waits for
// the 4 GiB it announces (it would end DeadlineExceeded at the 60 s deadline; the bound
// is a third of it, for a loaded machine) nor allocates them.
TEST_F(ControlChannelTest, OversizeLengthIsRefusedAtOnce) {
  std::string header = EncodeControlMessage(SessionAccept{1}).substr(0, kControlHeaderBytes);
  header[11] = '\x7f';
  SendRaw(header);
  const absl::Time start = absl::Now();
  const absl::Duration deadline = absl::Seconds(60);
  absl::StatusOr<ControlMessage> got = ReadControlMessage(a_.get(), start + deadline);
  EXPECT_TRUE(absl::IsInvalidArgument(got.status())) << got.status();
  EXPECT_LT(absl::Now() - start, deadline / 3);
}

TEST_F(ControlChannelTest, TricklingPeerMeetsTheDeadline) {
  SendRaw(EncodeControlMessage(SessionAccept{1}).substr(0, 5));
  const absl::Time start = absl::Now();
  absl::StatusOr<ControlMessage> got = ReadControlMessage(a_.get(), start + absl::Milliseconds(50));
  const absl::Duration waited = absl::Now() - start;
  EXPECT_TRUE(absl::IsDeadlineExceeded(got.status())) << got.status();
  EXPECT_GE(waited, absl::Milliseconds(50));
  EXPECT_LT(waited, absl::Seconds(2));
}

TEST_F(ControlChannelTest, CancelDescriptorEndsTheWait) {
  int stop[2];
  ASSERT_EQ(pipe2(stop, O_CLOEXEC), 0);
  UniqueFd stop_read(stop[0]), stop_write(stop[1]);
  ASSERT_EQ(write(stop_write.get(), "x", 1), 1);
  absl::StatusOr<ControlMessage> got =
      ReadControlMessage(a_.get(), absl::InfiniteFuture(), stop_read.get());
  EXPECT_TRUE(absl::IsCancelled(got.status())) << got.status();
  EXPECT_TRUE(
      absl::IsCancelled(WaitReady(a_.get(), POLLIN, absl::InfiniteFuture(), stop_read.get())));
}

// A stop requested while no system call was blocked (so no EINTR comes) is still seen:
// no wait runs longer than kStopCheckInterval without looking at the flag. The waits have
// no deadline, so without the flag they never end; the bound is the contract (three
// waits of kStopCheckInterval at most) plus 5 s for a loaded machine.
TEST_F(ControlChannelTest, StopRequestedEndsEveryWait) {
  ASSERT_TRUE(platform::InstallStopHandlers().ok());
  platform::ResetStopForTesting();
  ASSERT_EQ(raise(SIGTERM), 0);  // the handler records it and returns at once
  const absl::Time start = absl::Now();
  absl::StatusOr<ControlMessage> got = ReadControlMessage(a_.get(), absl::InfiniteFuture());
  const absl::Status waited = WaitReady(a_.get(), POLLIN, absl::InfiniteFuture());
  const absl::Status sent = WriteControlMessage(b_.get(), SessionAccept{1}, absl::InfiniteFuture());
  const absl::Duration took = absl::Now() - start;
  platform::ResetStopForTesting();
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  EXPECT_TRUE(absl::IsCancelled(got.status())) << got.status();
  EXPECT_TRUE(absl::IsCancelled(waited)) << waited;
  EXPECT_TRUE(absl::IsCancelled(sent)) << sent;
  EXPECT_LT(took, 3 * kStopCheckInterval + absl::Seconds(5));
}

// A busy answer crosses in version 2, and as an error in version 1.
TEST_F(ControlChannelTest, BusyCrossesInEitherVersion) {
  const absl::Time deadline = absl::Now() + absl::Seconds(5);
  ASSERT_TRUE(WriteControlMessage(b_.get(), SessionBusy{8, 8}, deadline).ok());
  ASSERT_TRUE(WriteControlMessage(b_.get(), SessionBusy{8, 8}, deadline, -1, 1).ok());
  absl::StatusOr<ControlMessage> first = ReadControlMessage(a_.get(), deadline);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(std::get<SessionBusy>(*first).active_sessions, 8u);
  absl::StatusOr<ControlMessage> second = ReadControlMessage(a_.get(), deadline);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(std::get<SessionError>(*second).message,
            "server busy: 8 sessions active, try again later");
}

TEST_F(ControlChannelTest, PeerClosingMidMessageIsUnavailable) {
  SendRaw(EncodeControlMessage(SessionError{"partial"}).substr(0, 14));
  b_.reset();
  absl::StatusOr<ControlMessage> got = ReadControlMessage(a_.get(), absl::Now() + absl::Seconds(5));
  EXPECT_TRUE(absl::IsUnavailable(got.status())) << got.status();
  EXPECT_NE(got.status().message().find("after 2 of 7 bytes"), absl::string_view::npos)
      << got.status();
}

TEST_F(ControlChannelTest, WritingToAClosedPeerIsAnErrorNotSigpipe) {
  a_.reset();
  absl::Status sent =
      WriteControlMessage(b_.get(), SessionError{"gone"}, absl::Now() + absl::Seconds(5));
  EXPECT_TRUE(absl::IsUnavailable(sent)) << sent;
}

}  // namespace
}  // namespace tickbench::remote
