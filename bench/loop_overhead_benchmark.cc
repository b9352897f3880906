// What timing every round trip adds to the measurement loop itself: the loop of
// harness/engine/round_trip_loop.h over the simulated transport (no system call, so the loop's
// own cost is not buried under a socket's noise), read by a real clock every round trip
// (batch 1) or once per 10'000 (batch 10'000, the averaged case alone). The difference
// per trip between the two rows is what a per-iteration reading costs; over a real
// transport it is added to every round trip. docs/overhead.md has the figures.
//
// Each clock has two pairs of rows, by how the loop calls the endpoint:
//   .../direct  the loop specialised for a `final` endpoint class, with direct calls, as
//               the harness runs it over every socket transport (SelectLoop). The class is
//               DirectSimEndpoint below, which does what the simulated transport's client
//               endpoint does; that class is private to transport/sim/sim_transport.cc, so
//               the loop cannot be specialised for it.
//   .../sim     the simulated transport's own endpoint, through transport::Endpoint with
//               virtual calls, as the harness runs --transport=sim, pipes and remote ends.
//
//   bazel run //bench:loop_overhead_benchmark --
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// The per_trip counter is CPU time per round trip (Google Benchmark divides rates by CPU
// time unless asked for real time): the work the loop does, which is what a reading adds;
// wall time would add the time other processes held the CPU.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "benchmark/benchmark.h"
#include "harness/engine/loop_selection.h"
#include "harness/engine/round_trip_engine.h"
#include "harness/engine/round_trip_loop.h"
#include "timing/clocks/cycle_clock.h"
#include "timing/clocks/os_clocks.h"
#include "timing/clocks/virtual_clock.h"
#include "transport/io/message_pattern.h"
#include "transport/sim/sim_rtt_model.h"
#include "transport/sim/sim_transport.h"
#include "transport/transport.h"

namespace tickbench::bench {
namespace {

constexpr int64_t kTripsPerLoop = 10'000;

// The simulated client endpoint's work (transport/sim/sim_transport.cc), in a `final` class
// the loop can be specialised for: Send() keeps the message, Receive() hands it back and
// advances virtual time by a round trip drawn from the model. No faults, no control
// frames (the benchmark sends none). Send() and Receive() are kept out of line, as the
// socket endpoints' are (their own .cc file): the loop calls them directly, but calls.
class DirectSimEndpoint final : public transport::Endpoint {
 public:
  DirectSimEndpoint(const transport::SimRttModel& model, std::function<void(int64_t)> advance_time)
      : sampler_(model), advance_time_(std::move(advance_time)), pending_(1 << 16) {}

  [[gnu::noinline]] absl::Status Send(absl::Span<const char> message) override {
    if (message.size() > pending_.size()) return absl::InvalidArgumentError("message too long");
    if (!message.empty()) std::memcpy(pending_.data(), message.data(), message.size());
    pending_size_ = message.size();
    has_pending_ = true;
    return absl::OkStatus();
  }
  [[gnu::noinline]] absl::Status Receive(absl::Span<char> buffer) override {
    if (!has_pending_) return absl::FailedPreconditionError("receive without a message sent");
    has_pending_ = false;
    if (buffer.size() != pending_size_) return absl::DataLossError("echo of another size");
    advance_time_(sampler_.NextRttNanos(static_cast<int64_t>(pending_size_)));
    if (!buffer.empty()) std::memcpy(buffer.data(), pending_.data(), pending_size_);
    return absl::OkStatus();
  }
  absl::Status SetReceiveTimeout(absl::Duration) override { return absl::OkStatus(); }
  bool keeps_boundaries() const override { return false; }
  bool may_lose() const override { return false; }
  size_t max_message_size() const override { return pending_.size(); }

 private:
  transport::SimRttSampler sampler_;
  std::function<void(int64_t)> advance_time_;
  std::vector<char> pending_;
  size_t pending_size_ = 0;
  bool has_pending_ = false;
};

enum class EndpointPath { kDirect, kSim };

void TimedLoop(benchmark::State& state, timing::Clock* clock, EndpointPath path) {
  const int64_t batch = state.range(0);
  timing::VirtualClock time;
  const auto advance = [&time](int64_t ns) { time.AdvanceNanos(ns); };
  transport::SimTransport sim(transport::SimRttModel{}, advance);
  absl::StatusOr<transport::EndpointPair> pair = sim.Connect();
  if (!pair.ok()) {
    state.SkipWithError(std::string(pair.status().message()).c_str());
    return;
  }
  DirectSimEndpoint direct(transport::SimRttModel{}, advance);
  transport::Endpoint& endpoint =
      path == EndpointPath::kDirect ? static_cast<transport::Endpoint&>(direct) : *pair->client;
  std::vector<char> send(1), receive(1);
  std::vector<int64_t> marks(kTripsPerLoop / batch + 2);
  transport::FillPattern(absl::MakeSpan(send));
  const harness::LoopBuffers buffers{absl::MakeSpan(send), absl::MakeSpan(receive),
                                     absl::MakeSpan(marks), absl::Span<int64_t>()};
  // Chosen once, outside the loop, as the engine does: for the direct path the loop
  // specialised for DirectSimEndpoint; for the sim path what SelectLoop picks for the
  // simulated endpoint, the generic loop.
  const harness::LoopFunction loop =
      path == EndpointPath::kDirect
          ? harness::SelectLoopForEndpointType<DirectSimEndpoint>(*clock, nullptr)
          : harness::SelectLoop(endpoint, *clock, nullptr);
  harness::IntegrityCounts integrity;
  uint64_t sequence = 1;
  for (auto _ : state) {
    const harness::LoopOutcome outcome =
        loop(endpoint, *clock, nullptr, buffers, kTripsPerLoop, batch, sequence, true, integrity);
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
  for (const EndpointPath path : {EndpointPath::kDirect, EndpointPath::kSim}) {
    const std::string row = name + (path == EndpointPath::kDirect ? "/direct" : "/sim");
    benchmark::RegisterBenchmark(row.c_str(), TimedLoop, clock, path)
        ->ArgName("batch")
        ->Arg(1)
        ->Arg(kTripsPerLoop);
  }
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
