#include "harness/output_file.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

int FilesIn(const std::string& directory) {
  int count = 0;
  DIR* dir = opendir(directory.c_str());
  while (dirent* entry = readdir(dir)) count += entry->d_name[0] != '.';
  closedir(dir);
  return count;
}

TEST(OutputFileTest, WritesWholeFileAndLeavesNoTemporary) {
  const std::string directory = ::testing::TempDir() + "/output_file_test";
  mkdir(directory.c_str(), 0700);
  const std::string path = directory + "/results.json";
  ASSERT_TRUE(WriteFileAtomically(path, "first").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "second, longer").ok());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "second, longer");
  EXPECT_EQ(FilesIn(directory), 1);
}

TEST(OutputFileTest, ReportsAnUnwritableDirectory) {
  EXPECT_FALSE(CheckWritable("/nonexistent-dir/results.csv").ok());
  EXPECT_FALSE(WriteFileAtomically("/nonexistent-dir/results.csv", "x").ok());
  EXPECT_TRUE(CheckWritable(::testing::TempDir() + "/x.csv").ok());
}

TEST(OutputFileTest, RelativePathsResolveAgainstTheUsersDirectory) {
  setenv("BUILD_WORKING_DIRECTORY", "/home/user/work", 1);
  EXPECT_EQ(ResolveUserPath("out/r.csv"), "/home/user/work/out/r.csv");
  EXPECT_EQ(ResolveUserPath("/abs/r.csv"), "/abs/r.csv");
  unsetenv("BUILD_WORKING_DIRECTORY");
  EXPECT_EQ(ResolveUserPath("r.csv"), "r.csv");
}

}  // namespace
}  // namespace tickbench::harness
