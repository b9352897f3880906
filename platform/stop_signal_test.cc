#include "platform/stop_signal.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include "gtest/gtest.h"

namespace tickbench::platform {
namespace {

class StopSignalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(InstallStopHandlers().ok());
    ResetStopForTesting();
  }
  void TearDown() override {
    ResetStopForTesting();
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
  }
};

TEST_F(StopSignalTest, FirstSignalIsRecordedNotFatal) {
  EXPECT_FALSE(StopRequested());
  EXPECT_TRUE(CancelledIfStopRequested("testing").ok());
  ASSERT_EQ(raise(SIGTERM), 0);
  EXPECT_TRUE(StopRequested());
  EXPECT_EQ(StopSignal(), SIGTERM);
  const absl::Status status = CancelledIfStopRequested("reading");
  EXPECT_EQ(status.code(), absl::StatusCode::kCancelled);
  EXPECT_NE(status.message().find("signal 15"), absl::string_view::npos) << status;
  EXPECT_NE(status.message().find("reading"), absl::string_view::npos) << status;
}

// The handler has no SA_RESTART: a read blocked on an empty pipe returns EINTR when the
// signal arrives, instead of being restarted by the kernel and blocking on.
TEST_F(StopSignalTest, BlockedReadIsInterrupted) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pthread_t reader = pthread_self();
  std::thread signaller([reader] {
    usleep(100'000);
    pthread_kill(reader, SIGINT);
  });
  char byte;
  const ssize_t n = read(fds[0], &byte, 1);
  const int error_number = errno;
  signaller.join();
  EXPECT_EQ(n, -1);
  EXPECT_EQ(error_number, EINTR);
  EXPECT_EQ(StopSignal(), SIGINT);
  close(fds[0]);
  close(fds[1]);
}

TEST_F(StopSignalTest, SecondSignalEndsTheProcessAtOnce) {
  EXPECT_EXIT(
      {
        raise(SIGINT);
        raise(SIGINT);
        _exit(0);  // not reached when the second signal ends the process
      },
      ::testing::ExitedWithCode(128 + SIGINT), "");
}

}  // namespace
}  // namespace tickbench::platform
