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
  EXPECT_EQ(c.per_iteration.p50, 0);                    // the median lands on 0: biased
  EXPECT_GT(c.per_iteration.sd, c.per_iteration.mean);  // d < T/2
  EXPECT_FALSE(c.phase_locked);
  EXPECT_EQ(c.histogram[0] + c.histogram[1], 8000);
  EXPECT_NE(c.summary.find("single readings unresolved"), std::string::npos) << c.summary;
  // The mean test: no bias claimed, the interval of the difference covers 0, and the
  // intervals of the two means cover the truth.
  EXPECT_FALSE(c.biased) << c.summary;
  EXPECT_TRUE(c.bias_ci.Contains(0));
  EXPECT_NE(c.summary.find("no bias shown"), std::string::npos) << c.summary;
  EXPECT_TRUE(c.per_iteration_mean_ci.Contains(d));
  EXPECT_TRUE(c.averaged_ci.Contains(d));
  // T/N = 10 us is 0.77% of the RTT: resolved; N >= 100 T/d = 769.3 round trips.
  EXPECT_FALSE(c.averaged_unresolved);
  EXPECT_EQ(c.round_trips_to_resolve, 770);
  EXPECT_NE(c.summary.find("within its bound"), std::string::npos) << c.summary;
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
  EXPECT_TRUE(bad.biased);
  EXPECT_TRUE(bad.bias_ci.Excludes(0));
  EXPECT_NEAR(bad.bias_ci.estimate, -5e6, 1);
  EXPECT_NE(bad.summary.find("start phases not uniform"), std::string::npos) << bad.summary;
  EXPECT_NE(bad.summary.find("mean biased by -5000000 ns"), std::string::npos) << bad.summary;

  options.dither = true;
  options.runs = 8;
  const StudyOutcome dithered = sim.Run(options);
  ASSERT_TRUE(dithered.status.ok());
  const StudyCell& good = dithered.cells[0];
  EXPECT_FALSE(good.phase_locked);
  EXPECT_TRUE(good.verdict.agrees());
  const double se = 1e7 * 0.5 / std::sqrt(3200.0);  // T sqrt(f(1-f)) / sqrt(N), f = 1/2
  EXPECT_LT(std::abs(good.per_iteration.mean - 5e6), 3 * se);
  EXPECT_FALSE(good.biased) << good.summary;
}

TEST(StudyRunnerTest, LockedPhaseWithoutBiasIsNotCalledBiased) {
  // d = T exactly and a gap of T: every start at the same phase, but a whole tick always
  // reads one tick: the phases are not uniform, the mean is exact.
  SimStudy sim(absl::Milliseconds(10), absl::Milliseconds(10), true);
  StudyOptions options = Options(2, 300);
  options.gap = absl::Milliseconds(10);
  options.rephase_tick_clocks = false;
  const StudyOutcome outcome = sim.Run(options);
  ASSERT_TRUE(outcome.status.ok());
  const StudyCell& c = outcome.cells[0];
  EXPECT_TRUE(c.phase_locked);
  EXPECT_FALSE(c.biased) << c.summary;
  EXPECT_NE(c.summary.find("not uniform"), std::string::npos) << c.summary;
  EXPECT_NE(c.summary.find("but no bias shown in the mean"), std::string::npos) << c.summary;
  EXPECT_EQ(c.summary.find("mean biased"), std::string::npos) << c.summary;
}

TEST(StudyRunnerTest, UnresolvedAveragedFigureSaysHowManyRoundTrips) {
  // T/N = 20 ms / 1000 = 20 us against a 10 us round trip: 200% of it.
  SimStudy sim(absl::Microseconds(10), absl::Milliseconds(20), false);
  const StudyOutcome outcome = sim.Run(Options(4, 1000));
  ASSERT_TRUE(outcome.status.ok());
  const StudyCell& c = outcome.cells[0];
  EXPECT_TRUE(c.averaged_unresolved);
  EXPECT_TRUE(c.single_reading_unresolved);
  EXPECT_EQ(c.round_trips_to_resolve, 200000);
  EXPECT_NE(c.summary.find("UNRESOLVED: T/N = 20000 ns is 200% of the RTT; N >= 100 T/d = 200000"),
            std::string::npos)
      << c.summary;
  // Whatever the runs read (0 or 20 us), the interval is not a point and covers 10 us.
  EXPECT_GT(c.averaged_ci.half_width(), 0);
  EXPECT_TRUE(c.averaged_ci.Contains(1e4)) << c.summary;
}

// One run whose pairs and readings are given: the clock reads the loop `error_ns` long
// per trip, the pairs have brackets of `bracket_ns` at each end.
StudyRunData ConstructedRun(double truth_per_trip, double error_per_trip, double bracket_ns,
                            int64_t n, double rate_ppm = 0) {
  StudyRunData run;
  run.iterations = n;
  run.start_before_ns = 1000;
  run.start_after_ns = 1000 + bracket_ns;
  run.start_clock_ns = 5e8 + 1000;
  run.stop_before_ns = run.start_before_ns + n * truth_per_trip;
  run.stop_after_ns = run.stop_before_ns + bracket_ns;
  run.stop_clock_ns = run.start_clock_ns + n * (truth_per_trip + error_per_trip);
  run.end_before_ns = run.start_before_ns + 3 * n * truth_per_trip;
  run.end_after_ns = run.end_before_ns + bracket_ns;
  run.end_clock_ns = run.start_clock_ns + 3 * n * truth_per_trip * (1 + 1e-6 * rate_ppm);
  for (int64_t i = 0; i < n; ++i) {
    run.readings_ns.push_back(truth_per_trip + (i % 2 == 0 ? 10 : -10));
    run.true_ns.push_back(truth_per_trip);
  }
  return run;
}

TEST(StudyRunnerTest, BoundStatesEveryTermAndBreaksPlainly) {
  StudyCell cell;
  cell.clock = "clock_gettime:monotonic";
  cell.iterations = 1000;
  cell.resolution_ns = 20;
  // Error 0.05 ns per trip = 50 ns over the loop; T = 20, reference 1 ns, no bracket:
  // bound 21 ns over the loop. Broken, and said so.
  AggregateStudyRuns({ConstructedRun(1e4, 0.05, 0, 1000)}, 1, cell);
  EXPECT_FALSE(cell.averaged_within_bound);
  EXPECT_DOUBLE_EQ(cell.averaged_bound_ns, 0.02);
  EXPECT_DOUBLE_EQ(cell.reference_bound_ns, 0.001);
  EXPECT_NEAR(cell.worst_run_bound_ratio, 50.0 / 21, 1e-6);
  std::string summary = SummarizeCell(cell);
  EXPECT_NE(summary.find("BEYOND its bound (bound 0.021 ns = T/N 0.020 + pairing 0 + reference "
                         "0.0010 + rate 0)"),
            std::string::npos)
      << summary;
  // The same error with 20 ns brackets at both ends (the clock read anywhere in them):
  // pairing adds 20 ns over the loop, 41 ns in all: still broken; with 40 ns brackets kept.
  StudyCell wider = cell;
  AggregateStudyRuns({ConstructedRun(1e4, 0.05, 20, 1000)}, 1, wider);
  EXPECT_DOUBLE_EQ(wider.pair_skew_ns, 20);
  EXPECT_FALSE(wider.averaged_within_bound);
  StudyCell widest = cell;
  AggregateStudyRuns({ConstructedRun(1e4, 0.05, 40, 1000)}, 1, widest);
  EXPECT_TRUE(widest.averaged_within_bound) << SummarizeCell(widest);
  EXPECT_NE(SummarizeCell(widest).find("within its bound"), std::string::npos);
}

TEST(StudyRunnerTest, ABiasSmallerThanOneReadIsAttributedToTheReadOrder) {
  StudyCell cell;
  cell.clock = "clock_gettime:monotonic";
  cell.iterations = 1000;
  cell.resolution_ns = 1;
  cell.read_cost_ns = 25;
  StudyRunData run = ConstructedRun(1e4, 0, 0, 1000);
  for (double& r : run.readings_ns) r -= 10;  // every reading 10 ns short
  AggregateStudyRuns({run}, 1, cell);
  EXPECT_TRUE(cell.biased);
  const std::string summary = SummarizeCell(cell);
  EXPECT_NE(summary.find("mean biased by -10"), std::string::npos) << summary;
  EXPECT_NE(summary.find("within one read of the clock (25 ns)"), std::string::npos) << summary;
  cell.read_cost_ns = 5;
  EXPECT_EQ(SummarizeCell(cell).find("within one read"), std::string::npos);
}

TEST(StudyRunnerTest, RateIsMeasuredAndEntersTheBoundOnlyBeyondItsOwnBound) {
  StudyCell cell;
  cell.clock = "clock_gettime:monotonic";
  cell.iterations = 100000;
  cell.resolution_ns = 1;
  // 100 ppm fast over 3 x 100000 x 10 us = 3 s: 300 us against a bound of 3 ns / 3 s.
  AggregateStudyRuns({ConstructedRun(1e4, 1e4 * 1e-4, 0, 100000, 100)}, 1, cell);
  EXPECT_NEAR(cell.rate_ppm, 100, 0.01);
  EXPECT_LT(cell.rate_bound_ppm, 0.01);
  EXPECT_GT(cell.rate_shown_ppm, 99.9);
  EXPECT_NEAR(cell.rate_bound_ns, 1.0, 0.01);  // 100 ppm of 10 us
  EXPECT_TRUE(cell.averaged_within_bound) << SummarizeCell(cell);
  EXPECT_NE(SummarizeCell(cell).find("rate vs reference +100 ppm"), std::string::npos)
      << SummarizeCell(cell);
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
