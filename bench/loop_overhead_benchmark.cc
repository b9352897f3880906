// What timing every round trip adds to the measurement loop itself: the loop of
// harness/round_trip_loop.h over the simulated transport (no system call, so the loop's
// own cost is not buried under a socket's noise), read by a real clock every round trip
// (batch 1) or once per 10'000 (batch 10'000, the averaged case alone). The difference
// per trip between the two rows is what a per-iteration reading costs; over a real
// transport it is added to every round trip. docs/overhead.md has the figures.
//
//   bazel run //bench:loop_overhead_benchmark --
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// The per_trip counter is CPU time per round trip (Google Benchmark divides rates by CPU
// time unless asked for real time): the work the loop does, which is what a reading adds;
// wall time would add the time other processes held the CPU.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "benchmark/benchmark.h"
#include "harness/round_trip_engine.h"
#include "harness/round_trip_loop.h"
#include "timing/cycle_clock.h"
#include "timing/os_clocks.h"
#include "timing/virtual_clock.h"
#include "transport/message_pattern.h"
#include "transport/sim_transport.h"

namespace tickbench::bench {
namespace {

constexpr int64_t kTripsPerLoop = 10'000;

void TimedLoop(benchmark::State& state, timing::Clock* clock) {
  const int64_t batch = state.range(0);
  timing::VirtualClock time;
  transport::SimTransport sim(transport::SimRttModel{},
                              [&time](int64_t ns) { time.AdvanceNanos(ns); });
  absl::StatusOr<transport::EndpointPair> pair = sim.Connect();
  if (!pair.ok()) {
    state.SkipWithError(std::string(pair.status().message()).c_str());
    return;
  }
  std::vector<char> send(1), receive(1);
  std::vector<int64_t> marks(kTripsPerLoop / batch + 2);
  transport::FillPattern(absl::MakeSpan(send));
  const harness::LoopBuffers buffers{absl::MakeSpan(send), absl::MakeSpan(receive),
                                     absl::MakeSpan(marks), absl::Span<int64_t>()};
  const harness::RoundTripEngine::LoopFunction loop = harness::SelectLoop(*clock, nullptr);
  harness::IntegrityCounts integrity;
  uint64_t sequence = 1;
  for (auto _ : state) {
    const harness::LoopOutcome outcome = loop(*pair->client, *clock, nullptr, buffers,
                                              kTripsPerLoop, batch, sequence, true, integrity);
    if (!outcome.status.ok()) {
      state.SkipWithError(std::string(outcome.status.message()).c_str());
      return;
    }
    sequence += kTripsPerLoop;
  }
  state.counters["per_trip"] = benchmark::Counter(
      static_cast<double>(kTripsPerLoop),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void Register(const std::string& name, timing::Clock* clock) {
  benchmark::RegisterBenchmark(name.c_str(), TimedLoop, clock)
      ->ArgName("batch")
      ->Arg(1)
      ->Arg(kTripsPerLoop);
}

}  // namespace
}  // namespace tickbench::bench

int main(int argc, char** argv) {
  using namespace tickbench;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  absl::StatusOr<std::unique_ptr<timing::CycleClock>> cycle =
      timing::CycleClock::Create(/*allow_variable=*/true);
  if (cycle.ok()) {
    bench::Register(std::string("TimedLoop/") + timing::CycleClockName(), cycle->get());
  } else {
    std::fprintf(stderr, "loop_overhead_benchmark: no cycle counter rows: %s\n",
                 std::string(cycle.status().message()).c_str());
  }
  timing::ClockGettimeClock monotonic(timing::ClockIdNames()[0]);
  bench::Register("TimedLoop/clock_gettime:monotonic", &monotonic);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
