#include "platform/system_info.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>

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

}  // namespace
}  // namespace tickbench::platform
