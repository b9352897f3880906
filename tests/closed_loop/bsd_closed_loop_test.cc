// Closing the loop: sweeps simulated with the classic BSD socket layer's buffer rule are
// measured by the engine in virtual time and fitted back to the rule's parameters.
#include <vector>

#include "analysis/fits/model_fit.h"
#include "gtest/gtest.h"
#include "harness/engine/round_trip_engine.h"
#include "harness/fit/sweep_analysis.h"
#include "timing/clocks/virtual_clock.h"
#include "transport/sim/sim_transport.h"

namespace tickbench {
namespace {

struct Truth {
  int64_t cluster, threshold, small;
};

analysis::ModelComparison SimulateAndFit(const Truth& truth, uint64_t seed) {
  transport::SimRttModel model;
  model.fixed = absl::Microseconds(20);
  model.per_byte_ns = 1;
  model.bsd_buffers = true;
  model.cluster_bytes = truth.cluster;
  model.threshold_bytes = truth.threshold;
  model.small_bytes = truth.small;
  model.per_cluster = absl::Microseconds(3);
  model.per_small = absl::Microseconds(1);
  // Exponential jitter of 2 us: averaged over 50 round trips, about 1% of a 30 us RTT.
  model.jitter = transport::JitterKind::kExponential;
  model.jitter_scale = absl::Microseconds(2);
  model.seed = seed;
  timing::VirtualClock time;
  transport::SimTransport sim(model, [&](int64_t ns) { time.AdvanceNanos(ns); });
  auto pair = sim.Connect();
  EXPECT_TRUE(pair.ok());
  harness::EngineOptions options;
  options.iterations = 50;
  options.warmup = 0;
  options.batch = 50;
  harness::RoundTripEngine engine(*pair->client, time, nullptr, 4096, options);
  std::vector<harness::RunRecord> records;
  for (int run = 1; run <= 4; ++run) {
    for (size_t size = 32; size <= 4096; size += 32)
      records.push_back(engine.MeasureRun(size, run));
  }
  auto fit = analysis::FitBufferModels(harness::RttSweepFromRecords(records));
  EXPECT_TRUE(fit.ok()) << fit.status();
  return *fit;
}

TEST(BsdClosedLoopTest, SimulatedLayoutsAreFittedBackToTheirParameters) {
  for (const Truth& truth : {Truth{1024, 512, 112}, Truth{1024, 1024, 112}}) {
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      const analysis::ModelComparison fit = SimulateAndFit(truth, seed);
      ASSERT_EQ(fit.best, analysis::ModelFamily::kBsdSocket) << fit.verdict;
      EXPECT_TRUE(fit.beats_line);
      const analysis::BufferModel& m = fit.best_fit().model;
      EXPECT_EQ(m.cluster_bytes, truth.cluster) << "seed " << seed;
      EXPECT_EQ(m.threshold_bytes, truth.threshold) << "seed " << seed;
      EXPECT_EQ(m.small_bytes, truth.small) << "seed " << seed;
    }
  }
}

}  // namespace
}  // namespace tickbench
