#include "transport/io/unique_fd.h"

#include <fcntl.h>
#include <unistd.h>

#include <utility>

#include "gtest/gtest.h"

namespace tickbench::transport {
namespace {

bool IsOpen(int fd) { return fcntl(fd, F_GETFD) != -1; }

TEST(UniqueFdTest, DefaultHoldsNothing) {
  UniqueFd fd;
  EXPECT_FALSE(fd.valid());
  EXPECT_EQ(fd.get(), -1);
}

TEST(UniqueFdTest, ClosesOnDestruction) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  {
    UniqueFd read_end(fds[0]);
    UniqueFd write_end(fds[1]);
    EXPECT_TRUE(IsOpen(fds[0]));
  }
  EXPECT_FALSE(IsOpen(fds[0]));
  EXPECT_FALSE(IsOpen(fds[1]));
}

TEST(UniqueFdTest, MoveTransfersOwnership) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  UniqueFd a(fds[0]);
  UniqueFd b(fds[1]);
  UniqueFd c(std::move(a));
  EXPECT_FALSE(a.valid());  // the moved-from state is defined: empty
  EXPECT_EQ(c.get(), fds[0]);
  c = std::move(b);  // closes fds[0]
  EXPECT_FALSE(IsOpen(fds[0]));
  EXPECT_EQ(c.get(), fds[1]);
}

TEST(UniqueFdTest, ReleaseKeepsTheDescriptorOpen) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  UniqueFd owner(fds[0]);
  UniqueFd other(fds[1]);
  EXPECT_EQ(owner.release(), fds[0]);
  EXPECT_FALSE(owner.valid());
  EXPECT_TRUE(IsOpen(fds[0]));
  close(fds[0]);
}

TEST(UniqueFdTest, ResetToTheSameDescriptorDoesNotClose) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  UniqueFd read_end(fds[0]);
  UniqueFd write_end(fds[1]);
  read_end.reset(fds[0]);
  EXPECT_TRUE(IsOpen(fds[0]));
}

}  // namespace
}  // namespace tickbench::transport
