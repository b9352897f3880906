#include "timing/clocks/tick_clock.h"

#include <cmath>
#include <random>

#include "gtest/gtest.h"
#include "timing/clocks/os_clocks.h"
#include "timing/clocks/virtual_clock.h"
#include "timing/stats/statistics.h"

namespace tickbench::timing {
namespace {

std::unique_ptr<TickClock> FixedPhaseTick(Clock* base, absl::Duration period,
                                          absl::Duration phase) {
  TickClockOptions options;
  options.period = period;
  options.random_phase = false;
  options.phase = phase;
  auto clock = TickClock::Create(options, base);
  EXPECT_TRUE(clock.ok()) << clock.status();
  return std::move(*clock);
}

TEST(TickClockTest, ReadingIsFloorOfShiftedTimeTimesPeriod) {
  for (absl::Duration period : {absl::Milliseconds(10), absl::Milliseconds(20)}) {
    const int64_t t_ns = absl::ToInt64Nanoseconds(period);
    const int64_t phase_ns = 3'456'789;
    VirtualClock base;
    auto tick = FixedPhaseTick(&base, period, absl::Nanoseconds(phase_ns));
    std::mt19937_64 random(42);
    int64_t now = 0;
    for (int i = 0; i < 10000; ++i) {
      const int64_t reading = tick->NowTicks();
      EXPECT_EQ(reading % t_ns, 0) << "not a multiple of the period at t=" << now;
      EXPECT_EQ(reading, (now + phase_ns) / t_ns * t_ns) << "t=" << now;
      // Steps of up to 1.5 periods, and now and then exactly onto an edge.
      const int64_t step = (i % 7 == 0) ? (t_ns - (now + phase_ns) % t_ns)
                                        : static_cast<int64_t>(random() % (3 * t_ns / 2));
      base.AdvanceNanos(step);
      now += step;
    }
  }
}

// Over the real monotonic clock the base is read inline (not through the Clock*), and
// must still be the same time: each reading lies on the edge at or below the base time
// read just before it, and no lower than the edge below the time read just after.
TEST(TickClockTest, RealMonotonicBaseReadsTheSameTime) {
  absl::StatusOr<ClockIdName> monotonic = ParseClockId("monotonic");
  ASSERT_TRUE(monotonic.ok());
  ClockGettimeClock base(*monotonic);
  const int64_t period_ns = 2'000'000;  // short, so that some reads straddle an edge
  const int64_t phase_ns = 123'456;
  auto tick = FixedPhaseTick(&base, absl::Nanoseconds(period_ns), absl::Nanoseconds(phase_ns));
  auto edge_below = [&](int64_t t) { return (t + phase_ns) / period_ns * period_ns; };
  for (int i = 0; i < 100000; ++i) {
    const int64_t before = MonotonicNanos();
    const int64_t reading = tick->NowTicks();
    const int64_t after = MonotonicNanos();
    ASSERT_GE(reading, edge_below(before));
    ASSERT_LE(reading, edge_below(after));
  }
}

TEST(TickClockTest, EdgesFallExactlyWherePhaseSays) {
  VirtualClock base;
  auto tick = FixedPhaseTick(&base, absl::Milliseconds(10), absl::Milliseconds(4));
  base.AdvanceNanos(5'999'999);  // t + phase = 9.999999 ms: still tick 0
  EXPECT_EQ(tick->NowTicks(), 0);
  base.AdvanceNanos(1);  // t + phase = 10 ms: the edge
  EXPECT_EQ(tick->NowTicks(), 10'000'000);
}

TEST(TickClockTest, RandomPhaseMakesSingleReadingsUnbiased) {
  // d = 1.3 ms read with T = 10 ms: f = 0.13. Over many random phases the reading is T
  // with probability f, else 0; its mean error is 0 and its SD T * sqrt(f (1 - f)).
  const int64_t t_ns = 10'000'000, d_ns = 1'300'000;
  const double f = 0.13;
  RunningStats errors;
  int64_t one_tick = 0;
  const int kPhases = 20000;
  for (int seed = 1; seed <= kPhases; ++seed) {
    VirtualClock base;
    base.AdvanceNanos(123'456'789);
    TickClockOptions options;
    options.period = absl::Nanoseconds(t_ns);
    options.seed = seed;
    auto tick = TickClock::Create(options, &base);
    ASSERT_TRUE(tick.ok());
    const int64_t start = (*tick)->NowTicks();
    base.AdvanceNanos(d_ns);
    const int64_t reading = (*tick)->NowTicks() - start;
    ASSERT_TRUE(reading == 0 || reading == t_ns) << reading;
    one_tick += reading == t_ns;
    errors.Add(static_cast<double>(reading - d_ns));
  }
  const double standard_error = errors.sd() / std::sqrt(static_cast<double>(kPhases));
  EXPECT_LT(std::abs(errors.mean()), 3 * standard_error);
  EXPECT_NEAR(errors.sd(), t_ns * std::sqrt(f * (1 - f)), 0.05 * t_ns * std::sqrt(f * (1 - f)));
  const double share = static_cast<double>(one_tick) / kPhases;
  EXPECT_NEAR(share, f, 3 * std::sqrt(f * (1 - f) / kPhases));
}

TEST(TickClockTest, SameSeedSameEdges) {
  VirtualClock base;
  TickClockOptions options;
  options.seed = 7;
  auto a = TickClock::Create(options, &base);
  auto b = TickClock::Create(options, &base);
  options.seed = 8;
  auto c = TickClock::Create(options, &base);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ((*a)->phase_ns(), (*b)->phase_ns());
  EXPECT_NE((*a)->phase_ns(), (*c)->phase_ns());
}

TEST(TickClockTest, UniqtimeAddsOneMicrosecondPerReadWithinATick) {
  VirtualClock base;
  TickClockOptions options;
  options.random_phase = false;
  options.uniqtime = true;
  auto tick = TickClock::Create(options, &base);
  ASSERT_TRUE(tick.ok());
  // The spec names the clock as --clock would, so that a report tells the two apart.
  EXPECT_EQ((*tick)->info().spec, "tick:10ms:uniqtime");
  // And its description says how far above its edge a reading may sit: T - 1 us.
  EXPECT_EQ((*tick)->info().timestamp_offset, absl::Milliseconds(10) - absl::Microseconds(1));
  options.uniqtime = false;
  auto plain = TickClock::Create(options, &base);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ((*plain)->info().timestamp_offset, absl::ZeroDuration());
  EXPECT_EQ((*tick)->NowTicks(), 0);
  EXPECT_EQ((*tick)->NowTicks(), 1000);
  EXPECT_EQ((*tick)->NowTicks(), 2000);
  base.Advance(absl::Milliseconds(10));
  EXPECT_EQ((*tick)->NowTicks(), 10'000'000);  // a new tick resets the bump
  EXPECT_EQ((*tick)->NowTicks(), 10'001'000);
}

TEST(TickClockTest, RejectsBadPeriodsAndPhases) {
  VirtualClock base;
  TickClockOptions options;
  options.period = absl::ZeroDuration();
  EXPECT_EQ(TickClock::Create(options, &base).status().code(), absl::StatusCode::kInvalidArgument);
  options.period = absl::Milliseconds(-10);
  EXPECT_EQ(TickClock::Create(options, &base).status().code(), absl::StatusCode::kInvalidArgument);
  options.period = absl::Milliseconds(10);
  options.random_phase = false;
  options.phase = absl::Milliseconds(10);
  EXPECT_EQ(TickClock::Create(options, &base).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tickbench::timing
