// The sweep's rules for faults and signals, in simulation (virtual time: exact and fast).
#include "harness/engine/sweep_runner.h"

#include <signal.h>

#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "platform/stop_signal.h"
#include "timing/clocks/virtual_clock.h"
#include "transport/sim/sim_transport.h"

namespace tickbench::harness {
namespace {

struct SimulatedSweep {
  explicit SimulatedSweep(transport::SimFaults faults)
      : transport(
            Model(), [this](int64_t ns) { time.AdvanceNanos(ns); }, faults) {}
  static transport::SimRttModel Model() {
    transport::SimRttModel model;
    model.fixed = absl::Microseconds(10);
    model.per_byte_ns = 0;
    return model;
  }
  SweepOptions Options() const {
    SweepOptions options;
    options.sizes = {64, 1024};
    options.runs = 2;
    options.engine.iterations = 500;
    options.engine.warmup = 100;
    options.receive_timeout = absl::Milliseconds(250);
    options.retries = 3;
    return options;
  }
  SweepOutcome Run(const SweepOptions& options, const ProgressFunction& progress = nullptr) {
    return RunSweep(transport, time, &time, options, progress);
  }
  timing::VirtualClock time;
  transport::SimTransport transport;
};

TEST(SweepRunnerTest, LossesAreCutOutAndEverySizeIsMeasured) {
  transport::SimFaults faults;
  faults.drop_every_kth = 100;
  SimulatedSweep sim(faults);
  const SweepOutcome outcome = sim.Run(sim.Options());
  ASSERT_TRUE(outcome.status.ok()) << outcome.status;
  ASSERT_EQ(outcome.records.size(), 4u);  // every run had losses, none needed a retry
  for (const RunRecord& r : outcome.records) {
    EXPECT_TRUE(r.valid());
    EXPECT_GT(r.integrity.lost, 0);
    EXPECT_DOUBLE_EQ(r.averaged_rtt_ns, 10'000) << "a loss's timeout entered the figure";
    EXPECT_EQ(r.receive_timeout_ns, 250'000'000);  // 1000 x 10 us, raised to the 250 ms floor
  }
}

TEST(SweepRunnerTest, ARunWithNothingTimedIsRetriedThenTheSizeFails) {
  transport::SimFaults faults;
  faults.drop_every_kth = 1;  // nothing ever echoes
  SimulatedSweep sim(faults);
  SweepOptions options = sim.Options();
  options.runs = 1;
  const SweepOutcome outcome = sim.Run(options);
  EXPECT_EQ(outcome.status.code(), absl::StatusCode::kDataLoss) << outcome.status;
  EXPECT_NE(outcome.status.message().find("64 bytes (4 attempts"), std::string::npos)
      << outcome.status;
  EXPECT_NE(outcome.status.message().find("1024 bytes (4 attempts"), std::string::npos)
      << outcome.status;
  ASSERT_EQ(outcome.records.size(), 8u);  // both sizes measured, 1 + 3 retries each
  for (size_t i = 0; i < outcome.records.size(); ++i) {
    EXPECT_FALSE(outcome.records[i].valid());
    EXPECT_EQ(outcome.records[i].attempt, static_cast<int>(i % 4) + 1);
  }
}

TEST(SweepRunnerTest, ASizeWhoseFirstRunTimedNothingIsNotMeasuredAgainInLaterRuns) {
  transport::SimFaults faults;
  faults.drop_every_kth = 1;  // nothing ever echoes
  SimulatedSweep sim(faults);
  SweepOptions options = sim.Options();
  options.runs = 3;
  std::vector<size_t> done_sizes;
  const SweepOutcome outcome =
      RunSweep(sim.transport, sim.time, &sim.time, options, nullptr,
               [&](size_t size, const std::vector<RunRecord>&) { done_sizes.push_back(size); });
  EXPECT_EQ(outcome.status.code(), absl::StatusCode::kDataLoss) << outcome.status;
  ASSERT_EQ(outcome.records.size(), 8u) << "run 1 of each size, 1 + 3 retries; runs 2-3 skipped";
  for (const RunRecord& r : outcome.records) EXPECT_EQ(r.run, 1);
  EXPECT_NE(outcome.records[3].invalid_reason.find("runs 2-3 of this size not measured"),
            std::string::npos)
      << outcome.records[3].invalid_reason;
  EXPECT_NE(outcome.status.message().find("runs 2-3 of this size not measured"), std::string::npos)
      << outcome.status;
  EXPECT_EQ(done_sizes, (std::vector<size_t>{64, 1024})) << "each size's row is still reported";
}

TEST(SweepRunnerTest, CheckEverySizeMeasuredNamesTheSizesWithoutAValidRun) {
  SweepOptions options;
  options.sizes = {32, 64};
  RunRecord good;
  good.size_bytes = 32;
  good.timed_trips = 10;
  RunRecord bad;
  bad.size_bytes = 64;
  bad.integrity.lost = 7;
  EXPECT_TRUE(CheckEverySizeMeasured({good}, SweepOptions{}).ok());
  const absl::Status status = CheckEverySizeMeasured({good, bad}, options);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(status.message().find("64 bytes (1 attempts, 7 datagrams lost"), std::string::npos)
      << status;
  EXPECT_EQ(status.message().find("32 bytes"), std::string::npos) << status;
}

TEST(SweepRunnerTest, ASignalStopsTheSweepAfterTheCurrentRun) {
  ASSERT_TRUE(platform::InstallStopHandlers().ok());
  platform::ResetStopForTesting();
  SimulatedSweep sim({});
  const SweepOutcome outcome = sim.Run(sim.Options(), [](int done, int, const RunRecord&) {
    if (done == 1) raise(SIGINT);
  });
  platform::ResetStopForTesting();
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  EXPECT_EQ(outcome.status.code(), absl::StatusCode::kCancelled) << outcome.status;
  EXPECT_EQ(outcome.records.size(), 1u);
}

TEST(SweepRunnerTest, RunUntilKnownAddsRunsUntilTheJudgeClosesEachSizeAndReportsInOrder) {
  SimulatedSweep sim({});
  SweepOptions options = sim.Options();
  options.sizes = {64, 1024, 256};
  SweepOptions::UntilKnown until;
  // 64 B is known after its 2 runs, 1024 B after 5 valid runs, 256 B never (run limit 7).
  until.judge = [](const std::vector<const RunRecord*>& runs) -> std::string {
    const size_t size = runs.front()->size_bytes;
    if (size == 64) return kStopPrecise;
    if (size == 1024 && runs.size() >= 5) return kStopGroups;
    return "";
  };
  until.max_runs = 7;
  until.max_time = absl::Hours(1);
  options.until_known = until;
  std::vector<size_t> done;
  const SweepOutcome outcome =
      RunSweep(sim.transport, sim.time, &sim.time, options, nullptr,
               [&](size_t size, const std::vector<RunRecord>&) { done.push_back(size); });
  ASSERT_TRUE(outcome.status.ok()) << outcome.status;
  std::map<size_t, int> runs;
  std::map<size_t, std::string> stop;
  for (const RunRecord& r : outcome.records) {
    ++runs[r.size_bytes];
    if (!r.size_stop.empty()) stop[r.size_bytes] = r.size_stop;
  }
  EXPECT_EQ(runs[64], 2);
  EXPECT_EQ(runs[1024], 5);
  EXPECT_EQ(runs[256], 7);
  EXPECT_EQ(stop[64], kStopPrecise);
  EXPECT_EQ(stop[1024], kStopGroups);
  EXPECT_EQ(stop[256], kStopRunLimit);
  // Each size reported once, in the order of `sizes`, though 1024 B closed before 256 B.
  EXPECT_EQ(done, (std::vector<size_t>{64, 1024, 256}));
}

TEST(SweepRunnerTest, RunUntilKnownStopsAddingRunsWhenTheTimeIsUp) {
  SimulatedSweep sim({});
  SweepOptions options = sim.Options();
  SweepOptions::UntilKnown until;
  until.judge = [](const std::vector<const RunRecord*>&) { return std::string(); };
  until.max_time = absl::ZeroDuration();  // the first rounds are measured all the same
  options.until_known = until;
  const SweepOutcome outcome = sim.Run(options);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status;
  ASSERT_EQ(outcome.records.size(), 4u);
  EXPECT_EQ(outcome.records[2].size_stop, kStopOutOfTime);
  EXPECT_EQ(outcome.records[3].size_stop, kStopOutOfTime);
}

TEST(SweepRunnerTest, WithoutRunUntilKnownTheCountIsExact) {
  SimulatedSweep sim({});
  const SweepOutcome outcome = sim.Run(sim.Options());
  ASSERT_EQ(outcome.records.size(), 4u);
  for (const RunRecord& r : outcome.records) EXPECT_EQ(r.size_stop, "");
}

}  // namespace
}  // namespace tickbench::harness
