#include "platform/cpu/cpu_affinity.h"

#include <sched.h>

#include "gtest/gtest.h"

namespace tickbench::platform {
namespace {

TEST(CpuAffinityTest, PinsToEachCpuAndStaysThere) {
  cpu_set_t original;
  ASSERT_EQ(sched_getaffinity(0, sizeof(original), &original), 0);
  int tried = 0;
  for (int cpu = 0; cpu < OnlineCpuCount(); ++cpu) {
    if (!CPU_ISSET(cpu, &original)) continue;  // a CI cgroup may withhold some CPUs
    ASSERT_TRUE(PinCurrentThreadToCpu(cpu).ok());
    EXPECT_EQ(CurrentCpu(), cpu);
    ++tried;
  }
  EXPECT_GT(tried, 0);
  ASSERT_EQ(sched_setaffinity(0, sizeof(original), &original), 0);
}

TEST(CpuAffinityTest, RejectsCpusThatDoNotExist) {
  EXPECT_EQ(PinCurrentThreadToCpu(-1).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(PinCurrentThreadToCpu(OnlineCpuCount() + 1000).code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tickbench::platform
