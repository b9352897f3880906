// What a long run costs in memory: 10'000'000 round trips (by default) through the
// round-trip engine, batch 1, on the simulated transport in virtual time (so it takes
// seconds, not the 200 s of simulated round trips), read by virtual time with virtual time
// as the reference, as a sweep reads rdtsc against a reference clock. Prints the peak
// resident set (getrusage ru_maxrss) before and after the run, and the cost of folding a
// million readings into the streaming summary, which chunked runs pay between chunks.
//
//   bazel run //bench:loop_memory_benchmark
//   bazel run //bench:loop_memory_benchmark -- --max_kept_intervals=10000000   (kept whole)
//
// Exits 1 when the peak is at or above --target_mib (default 64 MiB), so that a check can
// run it; docs/overhead.md has the figures.
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdio>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "harness/engine/round_trip_engine.h"
#include "platform/compiler.h"
#include "timing/clocks/virtual_clock.h"
#include "timing/stats/statistics.h"
#include "transport/sim/sim_transport.h"

ABSL_FLAG(int64_t, round_trips, 10'000'000, "Timed round trips in the one run.");
ABSL_FLAG(int64_t, max_kept_intervals, tickbench::harness::EngineOptions().max_kept_intervals,
          "The engine's limit on per-iteration readings kept in memory (EngineOptions).");
ABSL_FLAG(double, target_mib, 64, "Largest acceptable peak resident set, MiB.");

namespace tickbench::bench {
namespace {

double PeakResidentMib() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;  // Linux reports KiB
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Wall time to fold one million readings (a 20 us round trip with 1 us of spread) into a
// StreamingSummary: what a chunked run pauses between chunks, per million intervals.
double FoldMillisPerMillion() {
  timing::StreamingSummary summary;
  const auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < 1'000'000; ++i) summary.Add(20'000.0 + static_cast<double>(i % 1000));
  timing::Summary folded = summary.ToSummary();
  platform::DoNotOptimize(folded);
  return SecondsSince(start) * 1e3;
}

int Run() {
  const int64_t round_trips = absl::GetFlag(FLAGS_round_trips);
  const double baseline_mib = PeakResidentMib();

  timing::VirtualClock time;
  transport::SimRttModel model;  // 20 us + 0.05 ns per byte
  transport::SimTransport sim(model, [&time](int64_t ns) { time.AdvanceNanos(ns); });
  auto pair = sim.Connect();
  if (!pair.ok()) {
    absl::FPrintF(stderr, "loop_memory_benchmark: %s\n", pair.status().ToString());
    return 2;
  }
  harness::EngineOptions options;
  options.iterations = round_trips;
  options.warmup = 100;
  options.batch = 1;
  options.max_kept_intervals = absl::GetFlag(FLAGS_max_kept_intervals);
  const auto start = std::chrono::steady_clock::now();
  harness::RoundTripEngine engine(*pair->client, time, &time, 64, options);
  const harness::RunRecord record = engine.MeasureRun(64, 1);
  const double seconds = SecondsSince(start);
  const double peak_mib = PeakResidentMib();

  if (!record.error.empty()) {
    absl::FPrintF(stderr, "loop_memory_benchmark: %s\n", record.error);
    return 1;
  }
  const double target_mib = absl::GetFlag(FLAGS_target_mib);
  absl::PrintF("round trips            %d (batch 1, %s, max_kept_intervals %d)\n", record.completed,
               engine.chunked() ? "chunked" : "kept whole", options.max_kept_intervals);
  absl::PrintF(
      "averaged RTT           %.3f ns; per-iteration p50 %.1f ns, p99 %.1f ns (%d readings)\n",
      record.averaged_rtt_ns, record.per_iteration_ns.p50, record.per_iteration_ns.p99,
      record.per_iteration_ns.count);
  absl::PrintF("wall time              %.2f s (%.1f ns per round trip)\n", seconds,
               seconds * 1e9 / static_cast<double>(record.completed));
  absl::PrintF("fold                   %.1f ms per million readings\n", FoldMillisPerMillion());
  absl::PrintF("peak resident set      %.1f MiB before the engine, %.1f MiB after the run\n",
               baseline_mib, peak_mib);
  const bool within = peak_mib < target_mib;
  absl::PrintF("target                 < %.0f MiB: %s\n", target_mib, within ? "met" : "MISSED");
  return within ? 0 : 1;
}

}  // namespace
}  // namespace tickbench::bench

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  return tickbench::bench::Run();
}
