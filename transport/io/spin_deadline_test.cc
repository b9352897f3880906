#include "transport/io/spin_deadline.h"

#include <cstdint>
#include <limits>

#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace tickbench::transport {
namespace {

// Calls to Expired() until it says true; a zero timeout expires at the first check after
// the one that started the wait.
int CallsUntilExpired(SpinDeadline& deadline) {
  int calls = 1;
  while (!deadline.Expired()) ++calls;
  return calls;
}

// The clock is first read at the kAttemptsPerCheck-th empty attempt, which starts the
// wait, and next kAttemptsPerCheck attempts later.
TEST(SpinDeadlineTest, TheClockIsReadEveryKAttemptsPerCheckEmptyAttempts) {
  SpinDeadline deadline(absl::ZeroDuration());
  EXPECT_EQ(CallsUntilExpired(deadline), 2 * SpinDeadline::kAttemptsPerCheck);
}

// Attempts already made elsewhere (SpinReadFull's inline ones) count toward the first
// check: with kAttemptsPerCheck - 1 made, the first call starts the wait.
TEST(SpinDeadlineTest, AttemptsAlreadyMadeCountTowardTheFirstCheck) {
  SpinDeadline deadline(absl::ZeroDuration(), SpinDeadline::kAttemptsPerCheck - 1);
  EXPECT_EQ(CallsUntilExpired(deadline), SpinDeadline::kAttemptsPerCheck + 1);
}

TEST(SpinDeadlineTest, AnInfiniteTimeoutNeverExpires) {
  SpinDeadline deadline(absl::InfiniteDuration(), SpinDeadline::kAttemptsPerCheck - 1);
  for (int i = 0; i < 10 * SpinDeadline::kAttemptsPerCheck; ++i) ASSERT_FALSE(deadline.Expired());
}

TEST(SpinDeadlineTest, FromNanosecondsIsTheDurationsDeadline) {
  EXPECT_EQ(SpinDeadline::TimeoutNanoseconds(absl::Milliseconds(3)), 3'000'000);
  EXPECT_EQ(SpinDeadline::TimeoutNanoseconds(absl::InfiniteDuration()),
            std::numeric_limits<int64_t>::max());
  SpinDeadline zero = SpinDeadline::FromNanoseconds(0);
  EXPECT_EQ(CallsUntilExpired(zero), 2 * SpinDeadline::kAttemptsPerCheck);
  SpinDeadline never =
      SpinDeadline::FromNanoseconds(SpinDeadline::TimeoutNanoseconds(absl::InfiniteDuration()),
                                    SpinDeadline::kAttemptsPerCheck - 1);
  for (int i = 0; i < 10 * SpinDeadline::kAttemptsPerCheck; ++i) ASSERT_FALSE(never.Expired());
}

}  // namespace
}  // namespace tickbench::transport
