// What one clock read costs: the raw call, the same read through tickbench's concrete clock
// type (devirtualised and inlined, as the measurement loop in harness/engine/round_trip_loop.h
// reads it), and through a timing::Clock& (a virtual call, as code holding a clock from
// MakeClock() reads it). The concrete row minus the raw row is what the abstraction adds to
// every reading; docs/overhead.md has the figures.
//
//   bazel run //bench:clock_benchmark --
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// Each iteration is one read; the loop's own cost (about a cycle) is in every row alike,
// so it cancels in the differences.
#include <sys/time.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "benchmark/benchmark.h"
#include "platform/cpu/cycle_counter.h"
#include "timing/clock.h"
#include "timing/clocks/cycle_clock.h"
#include "timing/clocks/os_clocks.h"
#include "timing/clocks/tick_clock.h"

namespace tickbench::bench {
namespace {

void RawGettimeofday(benchmark::State& state) {
  for (auto _ : state) {
    timeval now;
    gettimeofday(&now, nullptr);
    benchmark::DoNotOptimize(now);
  }
}

// The raw call with its result made into one count, as any caller that subtracts two
// readings must: the abstraction's own cost is what the concrete row adds to this one.
void RawGettimeofdayAsCount(benchmark::State& state) {
  for (auto _ : state) {
    timeval now;
    gettimeofday(&now, nullptr);
    benchmark::DoNotOptimize(static_cast<int64_t>(now.tv_sec) * 1'000'000 + now.tv_usec);
  }
}

void RawClockGettimeAsCount(benchmark::State& state, clockid_t id) {
  for (auto _ : state) {
    timespec now;
    clock_gettime(id, &now);
    benchmark::DoNotOptimize(static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec);
  }
}

void RawClockGettime(benchmark::State& state, clockid_t id) {
  for (auto _ : state) {
    timespec now;
    clock_gettime(id, &now);
    benchmark::DoNotOptimize(now);
  }
}

#if defined(__x86_64__)
// rdtsc alone, unordered against the instructions around it: what the fences in
// platform::ReadCycleCounter() cost is the difference to the row below.
void RawRdtscUnfenced(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(__rdtsc());
}
#endif

void RawCycleCounter(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(platform::ReadCycleCounter());
}

// The tick clock's own work on its base reading (timing/clocks/tick_clock.h: floor to a period
// edge, phase 0, no uniqtime), written out without a clock object: with it, the concrete
// row's excess is the abstraction alone, not the simulation's arithmetic.
void RawTickArithmetic(benchmark::State& state, int64_t period_ns) {
  benchmark::DoNotOptimize(period_ns);  // a runtime value, as the clock's member is
  for (auto _ : state) {
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    const int64_t shifted = static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
    int64_t edge = shifted / period_ns;
    if (shifted % period_ns != 0 && shifted < 0) --edge;
    benchmark::DoNotOptimize(edge * period_ns);
  }
}

// C is a final clock type, so NowTicks() is a direct, inlined call.
template <typename C>
void ConcreteRead(benchmark::State& state, C* clock) {
  for (auto _ : state) benchmark::DoNotOptimize(clock->NowTicks());
}

void VirtualRead(benchmark::State& state, timing::Clock* clock) {
  // Hides the clock's dynamic type from the optimiser, which could otherwise see which
  // object was passed in and call its NowTicks() directly.
  benchmark::DoNotOptimize(clock);
  for (auto _ : state) benchmark::DoNotOptimize(clock->NowTicks());
}

// The fastest of the repetitions: on a shared machine the other processes only ever add
// time, so the minimum is the best estimate of what the read itself costs.
double Min(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

// Registers `name` with the minimum added to the repetitions' statistics.
template <typename... Args>
void Register(const std::string& name, Args&&... args) {
  benchmark::RegisterBenchmark(name.c_str(), std::forward<Args>(args)...)
      ->ComputeStatistics("min", Min);
}

// The clocks every benchmark reads; they live as long as the benchmarks run.
struct Clocks {
  timing::GettimeofdayClock gettimeofday;
  std::vector<std::pair<timing::ClockIdName, std::unique_ptr<timing::ClockGettimeClock>>>
      clock_gettime;
  std::unique_ptr<timing::CycleClock> cycle;  // null where the CPU has no usable counter
  std::unique_ptr<timing::TickClock> tick;
};

template <typename C>
void RegisterClock(const std::string& name, C* clock) {
  Register(name + "/concrete", ConcreteRead<C>, clock);
  Register(name + "/virtual", VirtualRead, clock);
}

// Registers every row, raw call first; returns false (having said why) if a clock that
// every Linux machine has could not be made.
bool RegisterAll(Clocks& clocks) {
  Register("gettimeofday/raw", RawGettimeofday);
  Register("gettimeofday/raw_as_count", RawGettimeofdayAsCount);
  RegisterClock("gettimeofday", &clocks.gettimeofday);

  for (const char* id_name : {"monotonic", "monotonic_coarse", "monotonic_raw"}) {
    absl::StatusOr<timing::ClockIdName> id = timing::ParseClockId(id_name);
    if (!id.ok()) {
      std::fprintf(stderr, "clock_benchmark: %s\n", std::string(id.status().message()).c_str());
      return false;
    }
    clocks.clock_gettime.emplace_back(*id, std::make_unique<timing::ClockGettimeClock>(*id));
    const std::string name = std::string("clock_gettime:") + id_name;
    Register(name + "/raw", RawClockGettime, id->id);
    Register(name + "/raw_as_count", RawClockGettimeAsCount, id->id);
    RegisterClock(name, clocks.clock_gettime.back().second.get());
  }

  const std::string cycle_name = timing::CycleClockName();
  absl::StatusOr<std::unique_ptr<timing::CycleClock>> cycle =
      timing::CycleClock::Create(/*allow_variable=*/true);
  if (cycle.ok()) {
    clocks.cycle = *std::move(cycle);
#if defined(__x86_64__)
    Register(cycle_name + "/raw_unfenced", RawRdtscUnfenced);
#endif
    Register(cycle_name + "/raw", RawCycleCounter);
    RegisterClock(cycle_name, clocks.cycle.get());
  } else {
    std::fprintf(stderr, "clock_benchmark: no %s rows: %s\n", cycle_name.c_str(),
                 std::string(cycle.status().message()).c_str());
  }

  // A fixed phase: where the edges fall does not change what a read costs.
  timing::TickClockOptions tick_options;
  tick_options.period = absl::Milliseconds(10);
  tick_options.random_phase = false;
  // Its base is CLOCK_MONOTONIC, as for --clock=tick (timing/clocks/clock_spec.cc).
  absl::StatusOr<std::unique_ptr<timing::TickClock>> tick = timing::TickClock::Create(
      tick_options,
      std::make_unique<timing::ClockGettimeClock>(clocks.clock_gettime.front().first));
  if (!tick.ok()) {
    std::fprintf(stderr, "clock_benchmark: %s\n", std::string(tick.status().message()).c_str());
    return false;
  }
  clocks.tick = *std::move(tick);
  Register("tick:10ms/raw", RawClockGettime, CLOCK_MONOTONIC);
  Register("tick:10ms/raw_arithmetic", RawTickArithmetic, clocks.tick->period_ns());
  RegisterClock("tick:10ms", clocks.tick.get());
  return true;
}

}  // namespace
}  // namespace tickbench::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  tickbench::bench::Clocks clocks;
  if (!tickbench::bench::RegisterAll(clocks)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
