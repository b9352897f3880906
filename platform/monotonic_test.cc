#include "platform/monotonic.h"

#include <time.h>

#include <cstdint>
#include <limits>

#include "gtest/gtest.h"

namespace tickbench::platform {
namespace {

TEST(TimespecToNanosTest, SecondsAndNanoseconds) {
  static_assert(TimespecToNanos(timespec{0, 0}) == 0, "zero");
  static_assert(TimespecToNanos(timespec{1, 0}) == 1'000'000'000, "one second");
  static_assert(TimespecToNanos(timespec{0, 999'999'999}) == 999'999'999, "nanoseconds");
  EXPECT_EQ(TimespecToNanos(timespec{3, 141'592'653}), 3'141'592'653);
  // 2^63 ns is about 292 years: a time 250 years after the epoch still converts exactly.
  const int64_t seconds = int64_t{250} * 365 * 86'400;
  EXPECT_EQ(TimespecToNanos(timespec{seconds, 7}), seconds * 1'000'000'000 + 7);
  EXPECT_LT(seconds, std::numeric_limits<int64_t>::max() / 1'000'000'000);
}

TEST(MonotonicNanosTest, AgreesWithClockGettimeAndNeverStepsBack) {
  timespec before;
  clock_gettime(CLOCK_MONOTONIC, &before);
  const int64_t first = MonotonicNanos();
  timespec after;
  clock_gettime(CLOCK_MONOTONIC, &after);
  EXPECT_GE(first, TimespecToNanos(before));
  EXPECT_LE(first, TimespecToNanos(after));
  int64_t previous = first;
  for (int i = 0; i < 100'000; ++i) {
    const int64_t now = MonotonicNanos();
    ASSERT_GE(now, previous) << "at read " << i;
    previous = now;
  }
}

TEST(MonotonicNanosTest, AdvancesBySleeps) {
  const int64_t start = MonotonicNanos();
  timespec pause{0, 20'000'000};  // 20 ms
  nanosleep(&pause, nullptr);
  const int64_t elapsed = MonotonicNanos() - start;
  EXPECT_GE(elapsed, 20'000'000);
  EXPECT_LT(elapsed, 5'000'000'000);  // a loaded machine may oversleep, not by seconds
}

TEST(ClockNanosTest, ReadsTheClockItIsGiven) {
  // CLOCK_REALTIME counts from 1970: more than 50 years of nanoseconds; CLOCK_MONOTONIC
  // counts from boot on Linux, far less.
  EXPECT_GT(ClockNanos(CLOCK_REALTIME), int64_t{50} * 365 * 86'400 * 1'000'000'000);
  const int64_t raw_before = ClockNanos(CLOCK_MONOTONIC_RAW);
  timespec raw;
  clock_gettime(CLOCK_MONOTONIC_RAW, &raw);
  EXPECT_GE(TimespecToNanos(raw), raw_before);
  EXPECT_LT(TimespecToNanos(raw) - raw_before, 1'000'000'000);
}

}  // namespace
}  // namespace tickbench::platform
