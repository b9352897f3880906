// The study in deterministic simulation, where the theory's predictions are exact.
#include "harness/study_runner.h"

#include <cmath>

#include "gtest/gtest.h"
#include "timing/tick_clock.h"
#include "timing/virtual_clock.h"
#include "transport/sim_transport.h"

namespace tickbench::harness {
namespace {

struct SimStudy {
  SimStudy(absl::Duration rtt, absl::Duration period, bool fixed_phase)
      : transport(Model(rtt), [this](int64_t ns) { time.AdvanceNanos(ns); }) {
    auto pair = transport.Connect();
    EXPECT_TRUE(pair.ok());
    client = std::move(pair->client);
    timing::TickClockOptions tick_options;
    tick_options.period = period;
    tick_options.random_phase = !fixed_phase;
    auto made = timing::TickClock::Create(tick_options, &time);
    EXPECT_TRUE(made.ok());
    tick = std::move(*made);
  }
  static transport::SimRttModel Model(absl::Duration rtt) {
    transport::SimRttModel model;
    model.fixed = rtt;
    model.per_byte_ns = 0;
    return model;
  }
  StudyOutcome Run(StudyOptions options) {
    timing::ClockProbeResult probe;  // resolution = the period, as claimed
    return RunStudy(*client, {StudyClock{tick.get(), probe}}, time, options,
                    [this](int64_t ns) { time.AdvanceNanos(ns); });
  }
  timing::VirtualClock time;
  transport::SimTransport transport;
  std::unique_ptr<transport::Endpoint> client;
  std::unique_ptr<timing::TickClock> tick;
};

StudyOptions Options(int runs, int64_t iterations) {
  StudyOptions options;
  options.sizes = {64};
  options.runs = runs;
  options.iterations = iterations;
  options.warmup = 3;
  return options;
}

TEST(StudyRunnerTest, RandomPhaseReadingsMatchTheTheory) {
  // d = 1.3 ms, T = 10 ms: f = 0.13.
  SimStudy sim(absl::Microseconds(1300), absl::Milliseconds(10), false);
  const StudyOutcome outcome = sim.Run(Options(8, 1000));
  ASSERT_TRUE(outcome.status.ok()) << outcome.status;
  ASSERT_EQ(outcome.cells.size(), 1u);
  const StudyCell& c = outcome.cells[0];
  const double t = 1e7, d = 1.3e6, f = 0.13, n = 8000;
  const double se_mean = t * std::sqrt(f * (1 - f) / n);
  EXPECT_LT(std::abs(c.per_iteration.mean - d), 3 * se_mean);
  EXPECT_NEAR(c.per_iteration.sd, t * std::sqrt(f * (1 - f)), 0.05 * t * std::sqrt(f * (1 - f)));
  EXPECT_LT(std::abs(c.observed.share_above_n - f), 3 * std::sqrt(f * (1 - f) / n));
  EXPECT_TRUE(c.verdict.agrees());
  EXPECT_EQ(c.truth_ns, d);
  EXPECT_EQ(c.per_iteration.p50, 0);     // the median lands on 0: biased
  EXPECT_GT(c.per_iteration.sd, c.per_iteration.mean);  // d < T/2
  EXPECT_FALSE(c.phase_locked);
  EXPECT_EQ(c.histogram[0] + c.histogram[1], 8000);
  EXPECT_NE(c.summary.find("single readings mean little"), std::string::npos) << c.summary;
}

TEST(StudyRunnerTest, AveragedErrorStaysBelowTOverNForEveryPhase) {
  SimStudy sim(absl::Microseconds(1234), absl::Milliseconds(20), false);
  StudyOptions options = Options(40, 200);  // 40 random phases
  const StudyOutcome outcome = sim.Run(options);
  ASSERT_TRUE(outcome.status.ok());
  const StudyCell& c = outcome.cells[0];
  EXPECT_LT(c.worst_run_error_ns, 2e7 / 200);
  EXPECT_TRUE(c.averaged_within_bound);
  // And for fixed phases across the whole tick.
  for (int64_t phase_ns = 0; phase_ns < 20'000'000; phase_ns += 1'250'000) {
    sim.tick->set_phase_ns(phase_ns);
    options.runs = 1;
    options.rephase_tick_clocks = false;
    const StudyOutcome fixed = sim.Run(options);
    EXPECT_LT(fixed.cells[0].worst_run_error_ns, 2e7 / 200) << "phase " << phase_ns;
  }
}

TEST(StudyRunnerTest, LockedPhaseBiasesPerIterationMeansAndDitherRemovesIt) {
  // d = T/2 with a gap of T/2: the loop period is exactly T, so every round trip starts
  // at the same phase of the tick (phase 0: just after an edge) and reads 0 ticks.
  SimStudy sim(absl::Milliseconds(5), absl::Milliseconds(10), true);
  StudyOptions options = Options(1, 400);
  options.gap = absl::Milliseconds(5);
  options.rephase_tick_clocks = false;
  const StudyOutcome locked = sim.Run(options);
  ASSERT_TRUE(locked.status.ok());
  const StudyCell& bad = locked.cells[0];
  EXPECT_TRUE(bad.phase_locked);
  EXPECT_FALSE(bad.verdict.agrees());
  EXPECT_GT(std::abs(bad.per_iteration.mean - 5e6), 4e6);  // biased by about T/2
  EXPECT_NE(bad.summary.find("LOCKED"), std::string::npos) << bad.summary;

  options.dither = true;
  options.runs = 8;
  const StudyOutcome dithered = sim.Run(options);
  ASSERT_TRUE(dithered.status.ok());
  const StudyCell& good = dithered.cells[0];
  EXPECT_FALSE(good.phase_locked);
  EXPECT_TRUE(good.verdict.agrees());
  const double se = 1e7 * 0.5 / std::sqrt(3200.0);  // T sqrt(f(1-f)) / sqrt(N), f = 1/2
  EXPECT_LT(std::abs(good.per_iteration.mean - 5e6), 3 * se);
}

TEST(StudyRunnerTest, SameSeedSameResult) {
  auto once = [] {
    SimStudy sim(absl::Microseconds(700), absl::Milliseconds(10), false);
    StudyOptions options = Options(3, 300);
    options.dither = true;
    options.seed = 42;
    return sim.Run(options).cells[0];
  };
  const StudyCell a = once(), b = once();
  EXPECT_EQ(a.per_iteration.mean, b.per_iteration.mean);
  EXPECT_EQ(a.histogram, b.histogram);
}

}  // namespace
}  // namespace tickbench::harness
