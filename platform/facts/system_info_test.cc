#include "platform/facts/system_info.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace tickbench::platform {
namespace {

TEST(SystemInfoTest, DescribesThisLinuxHost) {
  const SystemInfo info = GetSystemInfo();
  EXPECT_EQ(info.os, "Linux");
  EXPECT_FALSE(info.kernel.empty());
  EXPECT_FALSE(info.cpu_model.empty());
  EXPECT_GE(info.cpu_count, 1);
  EXPECT_EQ(info.page_size_bytes, sysconf(_SC_PAGESIZE));
  EXPECT_FALSE(info.build_mode.empty());
}

TEST(SystemInfoTest, LoadAverageIsTheFirstThreeFiguresOfProcLoadavg) {
  absl::StatusOr<LoadAverage> load = ParseLoadAverage("0.52 1.58 10.59 1/467 12345\n");
  ASSERT_TRUE(load.ok()) << load.status();
  EXPECT_DOUBLE_EQ(load->one_minute, 0.52);
  EXPECT_DOUBLE_EQ(load->five_minutes, 1.58);
  EXPECT_DOUBLE_EQ(load->fifteen_minutes, 10.59);
  EXPECT_FALSE(ParseLoadAverage("0.52 1.58").ok());
  EXPECT_FALSE(ParseLoadAverage("0.52 -1 2").ok());
  EXPECT_FALSE(ParseLoadAverage("").ok());
  absl::StatusOr<LoadAverage> now = ReadLoadAverage();
  ASSERT_TRUE(now.ok()) << now.status();
  EXPECT_GE(now->one_minute, 0);
}

TEST(SystemInfoTest, HypervisorFlagIsAWholeWordOfTheFlagsLine) {
  EXPECT_TRUE(CpuinfoSaysHypervisor(
      "processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: fpu vme hypervisor lahf_lm\n"));
  EXPECT_TRUE(CpuinfoSaysHypervisor("flags : fpu hypervisor"));
  EXPECT_FALSE(CpuinfoSaysHypervisor("flags\t\t: fpu vme de pse tsc\n"));
  EXPECT_FALSE(CpuinfoSaysHypervisor("flags : fpu hypervisor_like vmx\n"));
  EXPECT_FALSE(CpuinfoSaysHypervisor("model name : hypervisor\nflags : fpu\n"));
  EXPECT_FALSE(CpuinfoSaysHypervisor(""));
}

TEST(SystemInfoTest, ReadsSysctlIntegers) {
  absl::StatusOr<int64_t> pid_max = ReadSysctlInt("kernel.pid_max");
  ASSERT_TRUE(pid_max.ok()) << pid_max.status();
  EXPECT_GT(*pid_max, 0);
  EXPECT_EQ(ReadSysctlInt("no.such.sysctl").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(ReadSysctlInt("kernel.ostype").status().code(),
            absl::StatusCode::kInvalidArgument);  // "Linux" is not a number
}

TEST(SystemInfoTest, ReadSmallTextFileDropsTrailingNewline) {
  const std::string path = ::testing::TempDir() + "/system_info_test.txt";
  {
    std::ofstream out(path);
    out << "tsc\n";
  }
  absl::StatusOr<std::string> text = ReadSmallTextFile(path);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "tsc");
  std::remove(path.c_str());
}

std::string WriteTempFile(const std::string& name, const std::string& contents) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream out(path, std::ios::binary);
  out << contents;
  return path;
}

TEST(ReadUserFileTest, ReadsARegularFileByteForByte) {
  static constexpr char kBytes[] = "size,value\r\n64,1\n\0tail\n\n";  // a NUL inside
  const std::string contents(kBytes, sizeof(kBytes) - 1);
  const std::string path = WriteTempFile("user_file.csv", contents);
  absl::StatusOr<std::string> text = ReadUserFile(path);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, contents);
  // Through a symbolic link, too: what counts is what the link names.
  const std::string link = ::testing::TempDir() + "/user_file_link.csv";
  std::remove(link.c_str());
  ASSERT_EQ(symlink(path.c_str(), link.c_str()), 0);
  text = ReadUserFile(link);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, contents);
  std::remove(link.c_str());
  std::remove(path.c_str());
}

TEST(ReadUserFileTest, EmptyFileAndExactlyTheLimit) {
  const std::string empty = WriteTempFile("empty.csv", "");
  absl::StatusOr<std::string> text = ReadUserFile(empty);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, "");
  const std::string full = WriteTempFile("full.csv", std::string(100, 'x'));
  text = ReadUserFile(full, 100);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(text->size(), 100u);
  std::remove(empty.c_str());
  std::remove(full.c_str());
}

TEST(ReadUserFileTest, RefusesAFileOverTheLimitBeforeReadingIt) {
  const std::string path = WriteTempFile("oversize.csv", std::string(101, 'x'));
  absl::StatusOr<std::string> text = ReadUserFile(path, 100);
  EXPECT_EQ(text.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(text.status().message(),
            "it is 101 bytes, over the limit of 100 bytes for a file to read");
  std::remove(path.c_str());
}

TEST(ReadUserFileTest, DefaultLimitIs64MiBAndTheMessageSaysSo) {
  EXPECT_EQ(kMaxUserFileBytes, 64u * 1024 * 1024);
  // A sparse file: 64 MiB + 1 byte long without taking the space.
  const std::string path = ::testing::TempDir() + "/sparse.csv";
  { std::ofstream out(path, std::ios::binary); }
  ASSERT_EQ(truncate(path.c_str(), static_cast<off_t>(kMaxUserFileBytes) + 1), 0);
  absl::StatusOr<std::string> text = ReadUserFile(path);
  EXPECT_EQ(text.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(text.status().message(),
            "it is 67108865 bytes, over the limit of 64 MiB for a file to read");
  std::remove(path.c_str());
}

TEST(ReadUserFileTest, StopsReadingAtTheLimitWhenTheSizeUnderstatesTheFile) {
  // /proc files are regular files whose size reads 0: like a file that grows after the
  // size check, the read itself must stop at the limit.
  absl::StatusOr<std::string> text = ReadUserFile("/proc/self/status", 16);
  EXPECT_EQ(text.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(text.status().message(),
            "it holds more than the limit of 16 bytes for a file to read (its size said 0 bytes)");
  text = ReadUserFile("/proc/self/status");
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_NE(text->find("Name:"), std::string::npos);
}

TEST(ReadUserFileTest, RefusesDevZeroWithoutReadingIt) {
  absl::StatusOr<std::string> text = ReadUserFile("/dev/zero");
  EXPECT_EQ(text.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(text.status().message(), "it is a character device; only regular files are read");
}

TEST(ReadUserFileTest, RefusesAFifoWithoutAWriterWithoutBlocking) {
  // Were the open to block, the test would hang until its timeout: the failure mode this
  // guards against.
  const std::string path = ::testing::TempDir() + "/no_writer.fifo";
  std::remove(path.c_str());
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  absl::StatusOr<std::string> text = ReadUserFile(path);
  EXPECT_EQ(text.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(text.status().message(), "it is a FIFO (named pipe); only regular files are read");
  std::remove(path.c_str());
}

TEST(ReadUserFileTest, RefusesADirectory) {
  absl::StatusOr<std::string> text = ReadUserFile(::testing::TempDir());
  EXPECT_EQ(text.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(text.status().message(), "it is a directory; only regular files are read");
}

TEST(ReadUserFileTest, MissingFileIsNotFoundWithoutThePath) {
  absl::StatusOr<std::string> text = ReadUserFile(::testing::TempDir() + "/no_such_file.csv");
  EXPECT_EQ(text.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(text.status().message(), "open: No such file or directory");
}

}  // namespace
}  // namespace tickbench::platform
