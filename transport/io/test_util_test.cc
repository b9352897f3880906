#include "transport/io/test_util.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "gtest/gtest.h"

namespace tickbench::transport {
namespace {

TEST(ScopedTmpdirTest, PointsTmpdirAtAFreshDirectoryAndRestoresIt) {
  setenv("TMPDIR", "/before", 1);
  std::string path;
  {
    ScopedTmpdir tmpdir;
    path = tmpdir.path();
    ASSERT_FALSE(path.empty());
    EXPECT_EQ(std::string(std::getenv("TMPDIR")), path);
    EXPECT_EQ(DirectoryEntryCount(path), 0);
  }
  EXPECT_EQ(std::string(std::getenv("TMPDIR")), "/before");
  EXPECT_EQ(DirectoryEntryCount(path), -1);  // removed
  unsetenv("TMPDIR");
}

TEST(OpenFileDescriptorCountTest, SeesOneMore) {
  const int before = OpenFileDescriptorCount();
  ASSERT_GE(before, 3);
  const int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(OpenFileDescriptorCount(), before + 1);
  close(fd);
  EXPECT_EQ(OpenFileDescriptorCount(), before);
}

}  // namespace
}  // namespace tickbench::transport
