#include "remote/termination_signals.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "gtest/gtest.h"

namespace tickbench::remote {
namespace {

bool Readable(int fd) {
  pollfd entry = {fd, POLLIN, 0};
  return poll(&entry, 1, 0) == 1;
}

TEST(TerminationSignalsTest, SigtermMakesTheDescriptorReadableAndKillsNobody) {
  sigset_t old_mask;
  ASSERT_EQ(pthread_sigmask(SIG_SETMASK, nullptr, &old_mask), 0);
  absl::StatusOr<transport::UniqueFd> fd = BlockTerminationSignals();
  ASSERT_TRUE(fd.ok()) << fd.status();
  EXPECT_FALSE(Readable(fd->get()));
  ASSERT_EQ(raise(SIGTERM), 0);  // blocked: pending, not fatal
  EXPECT_TRUE(Readable(fd->get()));
  // Take it off the pending set before the mask is restored, or it would kill the test.
  signalfd_siginfo info;
  ASSERT_EQ(read(fd->get(), &info, sizeof(info)), static_cast<ssize_t>(sizeof(info)));
  EXPECT_EQ(info.ssi_signo, static_cast<uint32_t>(SIGTERM));
  EXPECT_FALSE(Readable(fd->get()));
  ASSERT_EQ(pthread_sigmask(SIG_SETMASK, &old_mask, nullptr), 0);
}

}  // namespace
}  // namespace tickbench::remote
