#include "transport/sockets/unix_socket_dir.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "transport/io/test_util.h"
#include "transport/io/unique_fd.h"

namespace tickbench::transport {
namespace {

// Binds a listening stream socket at `name` in `dir` and connects to it.
void BindAndConnect(UnixSocketDir& dir, const char* name) {
  absl::StatusOr<UnixAddress> address = dir.AddressFor(name);
  ASSERT_TRUE(address.ok()) << address.status();
  UniqueFd listener(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  ASSERT_EQ(bind(listener.get(), address->get(), address->length), 0);
  ASSERT_EQ(listen(listener.get(), 1), 0);
  UniqueFd client(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  ASSERT_EQ(connect(client.get(), address->get(), address->length), 0);
}

TEST(UnixSocketDirTest, PrivateDirectoryUnderTmpdirRemovedWithItsSockets) {
  ScopedTmpdir tmpdir;
  absl::StatusOr<UnixSocketDir> dir = UnixSocketDir::Create();
  ASSERT_TRUE(dir.ok()) << dir.status();
  EXPECT_EQ(dir->path().rfind(tmpdir.path() + "/tickbench-", 0), 0u) << dir->path();
  struct stat info;
  ASSERT_EQ(stat(dir->path().c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0700u);
  BindAndConnect(*dir, "server");
  EXPECT_EQ(DirectoryEntryCount(dir->path()), 1);
  EXPECT_TRUE(dir->Remove().ok());
  EXPECT_TRUE(dir->Remove().ok());  // idempotent
  EXPECT_EQ(DirectoryEntryCount(tmpdir.path()), 0);
}

TEST(UnixSocketDirTest, DestructorRemovesEverythingAfterAMove) {
  ScopedTmpdir tmpdir;
  {
    absl::StatusOr<UnixSocketDir> dir = UnixSocketDir::Create();
    ASSERT_TRUE(dir.ok()) << dir.status();
    BindAndConnect(*dir, "a");
    UnixSocketDir moved = std::move(*dir);
    BindAndConnect(moved, "b");
    EXPECT_EQ(DirectoryEntryCount(moved.path()), 2);
  }
  EXPECT_EQ(DirectoryEntryCount(tmpdir.path()), 0);
}

TEST(UnixSocketDirTest, OverlongPathGoesThroughProcSelfFd) {
  ScopedTmpdir tmpdir;
  // 150 characters of directory name: past sun_path's 108 bytes on its own.
  const std::string deep = absl::StrCat(tmpdir.path(), "/", std::string(150, 'd'));
  ASSERT_EQ(mkdir(deep.c_str(), 0700), 0);
  setenv("TMPDIR", deep.c_str(), 1);
  {
    absl::StatusOr<UnixSocketDir> dir = UnixSocketDir::Create();
    ASSERT_TRUE(dir.ok()) << dir.status();
    absl::StatusOr<UnixAddress> address = dir->AddressFor("s");
    ASSERT_TRUE(address.ok()) << address.status();
    EXPECT_EQ(std::string(address->address.sun_path).rfind("/proc/self/fd/", 0), 0u);
    BindAndConnect(*dir, "t");
    EXPECT_EQ(DirectoryEntryCount(dir->path()), 1);
  }
  EXPECT_EQ(DirectoryEntryCount(deep), 0);
  ASSERT_EQ(rmdir(deep.c_str()), 0);
}

TEST(UnixSocketDirTest, EmptyTmpdirMeansSlashTmp) {
  ScopedTmpdir tmpdir;
  setenv("TMPDIR", "", 1);
  absl::StatusOr<UnixSocketDir> dir = UnixSocketDir::Create();
  ASSERT_TRUE(dir.ok()) << dir.status();
  EXPECT_EQ(dir->path().rfind("/tmp/tickbench-", 0), 0u) << dir->path();
}

TEST(UnixSocketDirTest, RejectsNamesWithSlashes) {
  ScopedTmpdir tmpdir;
  absl::StatusOr<UnixSocketDir> dir = UnixSocketDir::Create();
  ASSERT_TRUE(dir.ok()) << dir.status();
  EXPECT_EQ(dir->AddressFor("a/b").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(dir->AddressFor("").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(UnixSocketDirTest, MissingTmpdirIsAnError) {
  ScopedTmpdir tmpdir;
  setenv("TMPDIR", (tmpdir.path() + "/does-not-exist").c_str(), 1);
  EXPECT_FALSE(UnixSocketDir::Create().ok());
}

}  // namespace
}  // namespace tickbench::transport
