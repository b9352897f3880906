#include "platform/cpu/cycle_counter.h"

#include <time.h>

#include "gtest/gtest.h"

namespace tickbench::platform {
namespace {

TEST(CycleCounterTest, InfoNamesTheCounterOrSaysWhyNot) {
  absl::StatusOr<CycleCounterInfo> info = GetCycleCounterInfo();
#if defined(__x86_64__)
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->name, "rdtsc");
  EXPECT_FALSE(info->detail.empty());
#elif defined(__aarch64__)
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->name, "cntvct_el0");
  EXPECT_GT(info->nominal_hz, 0);
#else
  EXPECT_EQ(info.status().code(), absl::StatusCode::kUnimplemented);
#endif
}

TEST(CycleCounterTest, AdvancesAcrossASleep) {
  if (!GetCycleCounterInfo().ok()) GTEST_SKIP() << "no cycle counter on this CPU";
  const int64_t before = ReadCycleCounter();
  timespec pause{0, 2'000'000};  // 2 ms: thousands of counts at any real counter rate
  nanosleep(&pause, nullptr);
  const int64_t after = ReadCycleCounter();
  EXPECT_GT(after - before, 1000);
}

}  // namespace
}  // namespace tickbench::platform
