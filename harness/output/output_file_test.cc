#include "harness/output/output_file.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// A new empty directory for one test.
std::string FreshDirectory() {
  std::string pattern = ::testing::TempDir() + "/output_file_test.XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  EXPECT_NE(mkdtemp(name.data()), nullptr);
  return name.data();
}

int FilesIn(const std::string& directory) {
  int count = 0;
  DIR* dir = opendir(directory.c_str());
  while (dirent* entry = readdir(dir)) {
    count += std::string(entry->d_name) != "." && std::string(entry->d_name) != "..";
  }
  closedir(dir);
  return count;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteText(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// How many times `needle` occurs in `haystack`.
int Count(const std::string& haystack, const std::string& needle) {
  int count = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

void ExpectRefused(const absl::Status& status, const std::string& flag, const std::string& path,
                   const std::string& reason) {
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(std::string(status.message()), StartsWith(flag + ": ")) << status;
  EXPECT_EQ(Count(std::string(status.message()), flag), 1) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr(path)) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr(reason)) << status;
}

TEST(OutputFileTest, WritesWholeFileAndLeavesNoTemporary) {
  const std::string directory = FreshDirectory();
  const std::string path = directory + "/results.json";
  ASSERT_TRUE(WriteFileAtomically(path, "first").ok());
  struct stat before;
  ASSERT_EQ(stat(path.c_str(), &before), 0);
  ASSERT_TRUE(WriteFileAtomically(path, "second, longer").ok());
  struct stat after;
  ASSERT_EQ(stat(path.c_str(), &after), 0);
  EXPECT_EQ(Slurp(path), "second, longer");
  EXPECT_EQ(FilesIn(directory), 1);
  // Replaced by a rename, not rewritten in place: a new inode.
  EXPECT_NE(before.st_ino, after.st_ino);
}

TEST(OutputFileTest, ReportsAMissingDirectory) {
  EXPECT_FALSE(CheckWritable("/nonexistent-dir/results.csv").ok());
  EXPECT_FALSE(WriteFileAtomically("/nonexistent-dir/results.csv", "x").ok());
  EXPECT_TRUE(CheckWritable(::testing::TempDir() + "/x.csv").ok());
  // CheckWritable names no flag: its caller does.
  EXPECT_FALSE(absl::StrContains(CheckWritable("/nonexistent-dir/r.csv").message(), "--"));
}

TEST(OutputFileTest, RelativePathsResolveAgainstTheUsersDirectory) {
  setenv("BUILD_WORKING_DIRECTORY", "/home/user/work", 1);
  EXPECT_EQ(ResolveUserPath("out/r.csv"), "/home/user/work/out/r.csv");
  EXPECT_EQ(ResolveUserPath("/abs/r.csv"), "/abs/r.csv");
  unsetenv("BUILD_WORKING_DIRECTORY");
  EXPECT_EQ(ResolveUserPath("r.csv"), "r.csv");
}

TEST(CheckOutputTargetTest, AcceptsANewFileAnExistingRegularFileAndStandardOutput) {
  const std::string directory = FreshDirectory();
  EXPECT_TRUE(CheckOutputTarget("--output", directory + "/new.csv").ok());
  WriteText(directory + "/old.csv", "old");
  EXPECT_TRUE(CheckOutputTarget("--output", directory + "/old.csv").ok());
  EXPECT_TRUE(CheckOutputTarget("--output", "-").ok());
  // Nothing was created or changed by the checks.
  EXPECT_EQ(FilesIn(directory), 1);
  EXPECT_EQ(Slurp(directory + "/old.csv"), "old");
}

TEST(CheckOutputTargetTest, RefusesASymbolicLinkEvenToARegularFile) {
  const std::string directory = FreshDirectory();
  WriteText(directory + "/real.csv", "real");
  const std::string link = directory + "/link.csv";
  ASSERT_EQ(symlink("real.csv", link.c_str()), 0);
  const absl::Status status = CheckOutputTarget("--output", link);
  ExpectRefused(status, "--output", link, "it is a symbolic link");
  EXPECT_THAT(std::string(status.message()), HasSubstr("regular files only"));
  EXPECT_THAT(std::string(status.message()), HasSubstr("- for standard output"));
}

TEST(CheckOutputTargetTest, RefusesAFifo) {
  const std::string directory = FreshDirectory();
  const std::string fifo = directory + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  ExpectRefused(CheckOutputTarget("--plot", fifo), "--plot", fifo, "it is a FIFO");
}

TEST(CheckOutputTargetTest, RefusesADirectory) {
  const std::string directory = FreshDirectory();
  ExpectRefused(CheckOutputTarget("--output", directory), "--output", directory,
                "it is a directory");
  ExpectRefused(CheckOutputTarget("--output", directory + "/"), "--output", directory,
                "it is a directory");
}

TEST(CheckOutputTargetTest, RefusesACharacterDevice) {
  // /dev/null is writable by everyone, root or not: only its type makes it wrong.
  ASSERT_EQ(access("/dev/null", W_OK), 0);
  ExpectRefused(CheckOutputTarget("--output", "/dev/null"), "--output", "/dev/null",
                "it is a character device");
}

TEST(CheckOutputTargetTest, RefusesAMissingDirectoryAndAnEmptyPath) {
  const std::string directory = FreshDirectory();
  const std::string missing = directory + "/missing/results.csv";
  ExpectRefused(CheckOutputTarget("--output", missing), "--output", missing, "no such directory");
  // A file where the directory should be.
  WriteText(directory + "/file", "x");
  ExpectRefused(CheckOutputTarget("--output", directory + "/file/results.csv"), "--output",
                directory + "/file/results.csv", "no such directory");
  const absl::Status empty = CheckOutputTarget("--output", "");
  EXPECT_EQ(empty.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(empty.message()), StartsWith("--output: "));
}

TEST(CheckOutputTargetTest, RefusesAnUnwritableDirectory) {
  if (geteuid() == 0) GTEST_SKIP() << "root may write any directory";
  const std::string directory = FreshDirectory();
  ASSERT_EQ(chmod(directory.c_str(), 0500), 0);
  ExpectRefused(CheckOutputTarget("--output", directory + "/r.csv"), "--output",
                directory + "/r.csv", "permission denied");
  chmod(directory.c_str(), 0700);
}

TEST(CheckOutputTargetTest, NamesTheFlagOnceWithOrWithoutDashesAndEscapesThePath) {
  const std::string directory = FreshDirectory();
  const std::string hostile = directory + "/a\nb";
  ASSERT_EQ(mkdir(hostile.c_str(), 0700), 0);
  for (const char* flag : {"--output", "output"}) {
    const absl::Status status = CheckOutputTarget(flag, hostile);
    ExpectRefused(status, "--output", directory + "/a\\nb", "it is a directory");
    EXPECT_FALSE(absl::StrContains(status.message(), "\n")) << status;
  }
  const absl::Status missing = CheckOutputTarget("--plot", hostile + "/x\n/y.svg");
  ExpectRefused(missing, "--plot", "a\\nb/x\\n/y.svg", "no such directory");
  EXPECT_FALSE(absl::StrContains(missing.message(), "\n")) << missing;
}

TEST(SameOutputFileTest, ComparesFilesNotSpellings) {
  const std::string dir = FreshDirectory();
  ASSERT_EQ(mkdir((dir + "/sub").c_str(), 0755), 0);
  EXPECT_TRUE(SameOutputFile(dir + "/a.csv", dir + "/./a.csv"));
  EXPECT_TRUE(SameOutputFile(dir + "/a.csv", dir + "//sub/../a.csv"));
  EXPECT_FALSE(SameOutputFile(dir + "/a.csv", dir + "/sub/a.csv"));
  EXPECT_FALSE(SameOutputFile(dir + "/a.csv", dir + "/b.csv"));
  WriteText(dir + "/x.csv", "x");
  ASSERT_EQ(link((dir + "/x.csv").c_str(), (dir + "/y.csv").c_str()), 0);
  EXPECT_TRUE(SameOutputFile(dir + "/x.csv", dir + "/y.csv")) << "hard links: one inode";
  EXPECT_FALSE(SameOutputFile("-", "-")) << "standard output is no file";
  EXPECT_FALSE(SameOutputFile("", ""));
}

TEST(WriteFileAtomicallyTest, LeavesASymbolicLinkAndItsTargetUntouched) {
  const std::string directory = FreshDirectory();
  WriteText(directory + "/real.csv", "real");
  const std::string link = directory + "/link.csv";
  ASSERT_EQ(symlink("real.csv", link.c_str()), 0);
  const absl::Status status = WriteFileAtomically(link, "new contents");
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr("symbolic link"));
  struct stat st;
  ASSERT_EQ(lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(Slurp(directory + "/real.csv"), "real");
  EXPECT_EQ(FilesIn(directory), 2);  // no temporary left behind
}

TEST(WriteFileAtomicallyTest, LeavesAFifoAndADirectoryInPlace) {
  const std::string directory = FreshDirectory();
  const std::string fifo = directory + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(WriteFileAtomically(fifo, "x").code(), absl::StatusCode::kFailedPrecondition);
  struct stat st;
  ASSERT_EQ(lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  const std::string subdirectory = directory + "/sub";
  ASSERT_EQ(mkdir(subdirectory.c_str(), 0700), 0);
  EXPECT_EQ(WriteFileAtomically(subdirectory, "x").code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_EQ(lstat(subdirectory.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(FilesIn(directory), 2);
}

TEST(WriteFileAtomicallyTest, WritesAPathWithANewline) {
  const std::string directory = FreshDirectory();
  const std::string path = directory + "/a\nb.csv";
  ASSERT_TRUE(WriteFileAtomically(path, "x").ok());
  EXPECT_EQ(Slurp(path), "x");
}

TEST(WriteFilesAtomicallyTest, WritesEveryFileWhole) {
  const std::string directory = FreshDirectory();
  WriteText(directory + "/p.dat", "old dat");
  const std::string dat = directory + "/p.dat", svg = directory + "/p.svg";
  const FileContents files[] = {{dat, "new dat"}, {svg, "new svg"}};
  ASSERT_TRUE(WriteFilesAtomically(files).ok());
  EXPECT_EQ(Slurp(dat), "new dat");
  EXPECT_EQ(Slurp(svg), "new svg");
  EXPECT_EQ(FilesIn(directory), 2);
}

// The second file cannot be written (a write past the file size limit fails with EFBIG,
// as one on a full file system with ENOSPC): the first, written already, is not renamed.
TEST(WriteFilesAtomicallyTest, WhenOneCannotBeWrittenNoneIsReplaced) {
  const std::string directory = FreshDirectory();
  const std::string dat = directory + "/p.dat", svg = directory + "/p.svg";
  WriteText(dat, "old dat");
  WriteText(svg, "old svg");
  const std::string large(1 << 20, 'x');
  const FileContents files[] = {{dat, "new dat"}, {svg, large}};
  absl::Status status;
  {
    rlimit old;
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
    const sighandler_t old_handler = signal(SIGXFSZ, SIG_IGN);
    rlimit limit = old;
    limit.rlim_cur = 64 << 10;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limit), 0);
    status = WriteFilesAtomically(files);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, old_handler);
  }
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()), HasSubstr("p.svg"));
  EXPECT_EQ(Slurp(dat), "old dat");
  EXPECT_EQ(Slurp(svg), "old svg");
  EXPECT_EQ(FilesIn(directory), 2);  // no temporary left behind
}

// Something other than a regular file at the second path: refused before the first is
// renamed.
TEST(WriteFilesAtomicallyTest, ARefusedTargetLeavesTheOthersAsTheyWere) {
  const std::string directory = FreshDirectory();
  const std::string dat = directory + "/p.dat", svg = directory + "/p.svg";
  WriteText(dat, "old dat");
  ASSERT_EQ(mkdir(svg.c_str(), 0700), 0);
  const FileContents files[] = {{dat, "new dat"}, {svg, "new svg"}};
  EXPECT_EQ(WriteFilesAtomically(files).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Slurp(dat), "old dat");
  EXPECT_EQ(FilesIn(directory), 2);
}

// Issue 46, case 9: a name whose temporary (".tmp.XXXXXX" added) is too long passed this
// check and failed after the measurement; a 0600 output became 0644 when rewritten; a
// 0444 one was replaced.
TEST(CheckOutputTargetTest, RefusesANameTooLongForItsTemporary) {
  const std::string directory = FreshDirectory();
  EXPECT_TRUE(CheckOutputTarget("--output", directory + "/" + std::string(244, 'n')).ok());
  for (const size_t length : {245, 250, 255}) {
    const absl::Status status =
        CheckOutputTarget("--output", directory + "/" + std::string(length, 'n'));
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << length;
    EXPECT_THAT(std::string(status.message()), HasSubstr("--output: cannot write "));
    EXPECT_THAT(std::string(status.message()), HasSubstr("at most 244 fit"));
  }
}

TEST(WriteFileAtomicallyTest, ARewrittenFileKeepsItsMode) {
  const std::string path = FreshDirectory() + "/private.csv";
  WriteText(path, "old");
  ASSERT_EQ(chmod(path.c_str(), 0600), 0);
  ASSERT_TRUE(WriteFileAtomically(path, "new").ok());
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(Slurp(path), "new");
}

TEST(WriteFileAtomicallyTest, AReadOnlyFileIsRefusedAndKept) {
  const std::string directory = FreshDirectory();
  const std::string path = directory + "/kept.csv";
  WriteText(path, "old");
  ASSERT_EQ(chmod(path.c_str(), 0444), 0);
  const absl::Status checked = CheckOutputTarget("--output", path);
  EXPECT_EQ(checked.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(checked.message()), HasSubstr("read-only"));
  const absl::Status written = WriteFileAtomically(path, "new");
  EXPECT_EQ(written.code(), absl::StatusCode::kFailedPrecondition) << written;
  EXPECT_EQ(Slurp(path), "old");
  EXPECT_EQ(FilesIn(directory), 1);  // no temporary left behind
}

}  // namespace
}  // namespace tickbench::harness
