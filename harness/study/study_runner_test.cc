// The study in deterministic simulation, where the theory's predictions are exact.
#include "harness/study/study_runner.h"

#include <signal.h>
#include <sys/resource.h>

#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "platform/stop_signal.h"
#include "timing/clocks/tick_clock.h"
#include "timing/clocks/virtual_clock.h"
#include "transport/sim/sim_transport.h"

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

// The most memory the process has held, in bytes.
int64_t PeakResidentBytes() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;
}

// SIGINT's handler installed and no stop recorded, for one test; restored after.
class StopSignalScope {
 public:
  StopSignalScope() {
    EXPECT_TRUE(platform::InstallStopHandlers().ok());
    platform::ResetStopForTesting();
  }
  ~StopSignalScope() {
    platform::ResetStopForTesting();
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
  }
};

// 50,000,000 round trips a run: the study's arrays would take 2 GB, filled in seconds. A
// SIGINT 100 ms in ends the study within a second, having taken little of that memory.
TEST(StudyRunnerTest, ASigintWhileTheStudyAllocatesEndsItWithinASecond) {
  StopSignalScope scope;
  SimStudy sim(absl::Microseconds(10), absl::Milliseconds(10), false);
  const int64_t peak_before = PeakResidentBytes();
  absl::Time signalled = absl::InfiniteFuture();
  std::thread stopper([&signalled] {
    absl::SleepFor(absl::Milliseconds(100));
    signalled = absl::Now();
    raise(SIGINT);
  });
  const StudyOutcome outcome = sim.Run(Options(1, 50'000'000));
  const absl::Time returned = absl::Now();
  stopper.join();
  EXPECT_TRUE(absl::IsCancelled(outcome.status)) << outcome.status;
  EXPECT_LT(returned - signalled, absl::Seconds(1));
  const int64_t grew = PeakResidentBytes() - peak_before;
  EXPECT_LT(grew, int64_t{1} << 30) << "the whole 2 GB was filled after the signal";
}

// A stop after the first of two runs of 2,000,000 round trips: aggregating what they
// measured takes seconds (the theory's passes over every reading), so the cell is left
// without figures, saying why, and the study ends within a second of the signal.
TEST(StudyRunnerTest, ASigintBeforeALongAggregationEndsTheStudyWithinASecond) {
  StopSignalScope scope;
  SimStudy sim(absl::Microseconds(1300), absl::Milliseconds(10), false);
  StudyOptions options = Options(2, 2'000'000);
  absl::Time signalled = absl::InfiniteFuture();
  options.run_done = [&signalled] {
    if (signalled != absl::InfiniteFuture()) return;
    signalled = absl::Now();
    raise(SIGINT);
  };
  const StudyOutcome outcome = sim.Run(options);
  const absl::Time returned = absl::Now();
  EXPECT_TRUE(absl::IsCancelled(outcome.status)) << outcome.status;
  EXPECT_LT(returned - signalled, absl::Seconds(1));
  ASSERT_EQ(outcome.cells.size(), 1u);
  EXPECT_TRUE(std::isnan(outcome.cells[0].truth_ns));
  EXPECT_NE(outcome.cells[0].error.find("stopped"), std::string::npos) << outcome.cells[0].error;
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
  // Clock and reference read the same virtual instants: no pair is disturbed.
  EXPECT_EQ(c.disturbed_intervals, 0);
  EXPECT_DOUBLE_EQ(c.disturbed_threshold_ns, 1e7 + 1);  // T + the reference's 1 ns
}

// In virtual time a clock read costs nothing: the probe pass measures no probe effect
// (with jitter, its blocks' median difference read -191198 ns a read), so it says none.
TEST(StudyRunnerTest, VirtualTimeMeasuresNoProbeEffect) {
  SimStudy sim(absl::Microseconds(1300), absl::Milliseconds(10), false);
  const StudyOutcome outcome = sim.Run(Options(2, 200));
  ASSERT_TRUE(outcome.status.ok()) << outcome.status;
  ASSERT_EQ(outcome.cells.size(), 1u);
  EXPECT_TRUE(std::isnan(outcome.cells[0].probe_effect_ns_per_read));
  EXPECT_FALSE(outcome.cells[0].probe_effect_ci.valid);
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
  // SD/mean = sqrt((1 - f) / f) = 44.7 at f = 1/2000: two significant digits, not 44.7.
  EXPECT_NE(c.summary.find("SD 45x the mean"), std::string::npos) << c.summary;
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

TEST(StudyChooseIterationsTest, NResolvesTheAveragedFigureWithinTheBudget) {
  StudyOptions options;
  options.runs = 4;
  options.iterations = 1000;
  options.choose.on = true;
  options.choose.budget = absl::Minutes(3);
  // A 10 ms tick and a 20 us round trip: T/N within 1% of d needs N = 100 T / d = 50000;
  // 4 runs x 5.5 x 50000 x 20 us = 22 s a cell, 4 cells in 3 minutes: it fits.
  CellCount count = ChooseCellIterations(options, 10e6, 20e3, 4);
  EXPECT_EQ(count.iterations, 50000);
  EXPECT_EQ(count.note, "");
  EXPECT_LE(10e6 / static_cast<double>(count.iterations), 0.01 * 20e3);
  // A fine clock needs no more than the default.
  EXPECT_EQ(ChooseCellIterations(options, 1, 20e3, 4).iterations, 1000);
  // A 20 ms tick at 20 us needs 100000: 44 s a cell; 12 cells share 3 minutes (15 s each),
  // so N is cut to what fits and the note says which N would resolve it and why it is not.
  count = ChooseCellIterations(options, 20e6, 20e3, 12);
  EXPECT_EQ(count.iterations, 34090);  // 180 s / 12 / 4 runs / (5.5 x 20 us)
  EXPECT_NE(count.note.find("N = 100000 resolves"), std::string::npos) << count.note;
  EXPECT_NE(count.note.find("time budget"), std::string::npos) << count.note;
  // The array limit bounds it too.
  options.choose.budget = absl::Hours(10);
  count = ChooseCellIterations(options, 20e6, 2e3, 1);
  EXPECT_EQ(count.iterations, options.choose.max_iterations);
  EXPECT_NE(count.note.find("array limit"), std::string::npos) << count.note;
  // No pilot figure: N kept, and said.
  EXPECT_EQ(ChooseCellIterations(options, 20e6, 0, 1).iterations, 1000);
}

}  // namespace
}  // namespace tickbench::harness
