#include "core/tick_study.h"

#include <cmath>
#include <vector>

#include "core/fake_board.h"
#include "gtest/gtest.h"

namespace tickbench::core {
namespace {

using testing::FakeEcho;
using testing::FakeFineClock;
using testing::FakeTickClock;
using testing::VirtualTime;

constexpr int64_t kT = 10'000'000;  // 10 ms
constexpr int64_t kFine = 40;       // 40 ns, the board's SysTick counter at 25 MHz

struct Workspace {
  std::vector<char> send, receive;
  std::vector<int64_t> marks, reference_marks, ticks;
  std::vector<double> readings, truths;
  StudyWorkspace w;
  Workspace(size_t message, int64_t iterations, int64_t runs)
      : send(message),
        receive(message),
        marks(iterations + 2),
        reference_marks(iterations + 2),
        ticks(iterations * runs),
        readings(iterations * runs),
        truths(iterations * runs) {
    w.send = send.data();
    w.receive = receive.data();
    w.message_capacity = message;
    w.marks = marks.data();
    w.reference_marks = reference_marks.data();
    w.mark_capacity = iterations + 2;
    w.readings_ns = readings.data();
    w.truths_ns = truths.data();
    w.reading_ticks = ticks.data();
    w.reading_capacity = iterations * runs;
  }
};

StudyCell RunCell(const std::vector<int64_t>& trips, int64_t iterations, int64_t runs,
                  int64_t phase_ns, int64_t read_cost_ns = 0, int corrupt_every = 0) {
  VirtualTime time;
  FakeTickClock tick(&time, kT, phase_ns, read_cost_ns);
  FakeFineClock fine(&time, kFine, read_cost_ns);
  FakeEcho echo(&time, trips, corrupt_every);
  Workspace workspace(4096, iterations, runs);
  StudyOptions options;
  options.iterations = iterations;
  options.runs = runs;
  return RunStudyCell(echo, tick, fine, workspace.w, 512, options);
}

// The classic case: a 744 us round trip under a 10 ms tick, 200 trips per pass.
TEST(TickStudyTest, ShortRoundTripsFollowTheTheory) {
  for (int64_t phase : {0LL, 1'234'560LL, 9'999'960LL}) {
    const StudyCell c = RunCell({744'000}, 200, 3, phase);
    ASSERT_EQ(c.error, nullptr);
    EXPECT_EQ(c.runs, 3);
    EXPECT_EQ(c.readings, 600);
    EXPECT_DOUBLE_EQ(c.truth_ns, 744'000);  // the fine clock: exact multiples of 40 ns
    EXPECT_EQ(c.truth_sd_ns, 0);
    // 200 trips = 148.8 ms = 14.88 T: the loop reads 14 or 15 ticks, 700 or 750 us a trip.
    // The host's terms: T/N, w/N, r/N, no rate term; their sum bounds each run.
    EXPECT_DOUBLE_EQ(c.averaged_bound_ns, kT / 200.0);
    EXPECT_DOUBLE_EQ(c.pairing_bound_ns, c.pair_skew_ns / 200.0);
    EXPECT_DOUBLE_EQ(c.reference_bound_ns, kFine / 200.0);
    EXPECT_DOUBLE_EQ(c.total_bound_ns(), (kT + kFine + c.pair_skew_ns) / 200.0);
    EXPECT_LT(c.worst_run_error_ns, c.total_bound_ns());
    EXPECT_TRUE(c.averaged_within_bound);
    // Readings are 0 or 1 tick; the ticks of a pass are 14 or 15 of its 200 readings.
    EXPECT_EQ(c.histogram[0] + c.histogram[1], 600);
    EXPECT_GE(c.histogram[1], 3 * 14);
    EXPECT_LE(c.histogram[1], 3 * 15);
    EXPECT_NEAR(c.prediction.zero_share, 1 - 744e3 / kT, 1e-12);
    EXPECT_TRUE(c.zero_bound_applies);
    EXPECT_DOUBLE_EQ(c.zero_bound, (1 + 2.0 * kFine / kT) / 200);
    EXPECT_LT(c.worst_run_zero_error, c.zero_bound);
    EXPECT_TRUE(c.zero_within_bound);
    EXPECT_NEAR(c.zero_fraction, 0.9256, 0.005);
    EXPECT_TRUE(c.theory_agrees);
    EXPECT_EQ(c.per_iteration_p50_ns, 0);
    EXPECT_EQ(c.per_iteration_min_ns, 0);
    EXPECT_DOUBLE_EQ(c.per_iteration_truth_ns, 744'000);
    EXPECT_EQ(c.faults, 0);
  }
}

// Clock reads that take time shift the clock's instants against the reference's, by the
// same amount at both ends of each interval: the bounds still hold.
TEST(TickStudyTest, ReadCostsDoNotBreakTheBounds) {
  const StudyCell c = RunCell({300'000, 1'200'000, 520'000}, 500, 2, 4'321'000, 120);
  ASSERT_EQ(c.error, nullptr);
  // A reference read and a clock read of 120 ns each between the bracket's two reads.
  EXPECT_EQ(c.pair_skew_ns, 240);
  EXPECT_DOUBLE_EQ(c.total_bound_ns(), (kT + kFine + 240) / 500.0);
  EXPECT_TRUE(c.averaged_within_bound);
  EXPECT_TRUE(c.zero_bound_applies);
  EXPECT_TRUE(c.zero_within_bound) << c.worst_run_zero_error << " vs " << c.zero_bound;
}

TEST(TickStudyTest, RoundTripsLongerThanTHaveNoZeroBound) {
  const StudyCell c = RunCell({25'000'000}, 40, 2, 3'000'000);
  ASSERT_EQ(c.error, nullptr);
  EXPECT_FALSE(c.zero_bound_applies);
  EXPECT_FALSE(c.zero_within_bound);
  EXPECT_EQ(c.zero_fraction, 0);
  EXPECT_EQ(c.histogram[2] + c.histogram[3], 80);  // 2.5 T reads 2 or 3 ticks
  EXPECT_EQ(c.prediction.n, 2);
  EXPECT_NEAR(c.prediction.f, 0.5, 1e-12);
  EXPECT_TRUE(c.averaged_within_bound);
}

TEST(TickStudyTest, CorruptedEchoesAreCountedAsFaults) {
  const StudyCell c = RunCell({744'000}, 100, 2, 0, 0, 10);
  ASSERT_EQ(c.error, nullptr);
  EXPECT_EQ(c.faults, 2 * 2 * 100 / 10);
}

TEST(TickStudyTest, WorkspaceLimitsAreErrors) {
  VirtualTime time;
  FakeTickClock tick(&time, kT, 0);
  FakeFineClock fine(&time, kFine);
  FakeEcho echo(&time, {1000});
  Workspace workspace(64, 10, 1);
  StudyOptions options;
  options.iterations = 10;
  options.runs = 1;
  EXPECT_NE(RunStudyCell(echo, tick, fine, workspace.w, 65, options).error, nullptr);
  EXPECT_EQ(RunStudyCell(echo, tick, fine, workspace.w, 64, options).error, nullptr);
  options.runs = 2;
  EXPECT_NE(RunStudyCell(echo, tick, fine, workspace.w, 64, options).error, nullptr);
  options.runs = 1;
  echo.set_fail(true);
  const StudyCell failed = RunStudyCell(echo, tick, fine, workspace.w, 64, options);
  ASSERT_NE(failed.error, nullptr);
  EXPECT_STREQ(failed.error, "the transport failed");
}

}  // namespace
}  // namespace tickbench::core
