#include "timing/clocks/clock_probe.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "timing/clocks/os_clocks.h"

namespace tickbench::timing {

ClockProbeResult ProbeClock(Clock& clock, const ClockProbeOptions& options) {
  ClockProbeResult result;
  result.claimed_resolution = clock.info().claimed_resolution;

  int64_t smallest_step = INT64_MAX;
  const int64_t deadline = MonotonicNanos() + absl::ToInt64Nanoseconds(options.max_time);
  int64_t previous = clock.NowTicks();
  while (true) {
    // Check the deadline once per 1024 reads, so the probe's own clock is not in the
    // way of the clock being probed.
    for (int i = 0; i < 1024; ++i) {
      const int64_t now = clock.NowTicks();
      if (now != previous) {
        ++result.changes;
        if (now < previous) {
          ++result.backward_steps;
        } else {
          smallest_step = std::min(smallest_step, now - previous);
        }
      }
      previous = now;
    }
    result.reads += 1024;
    const bool enough = result.reads >= options.min_reads && result.changes >= options.min_changes;
    if (enough || MonotonicNanos() >= deadline) break;
  }
  if (smallest_step != INT64_MAX) result.observed_resolution = clock.TicksToDuration(smallest_step);

  std::vector<double> per_read_ns;
  per_read_ns.reserve(options.cost_batches);
  for (int batch = 0; batch < options.cost_batches; ++batch) {
    const int64_t start = MonotonicNanos();
    for (int i = 0; i < options.reads_per_batch; ++i) {
      int64_t value = clock.NowTicks();
      asm volatile("" : "+r"(value));  // keep every read
    }
    per_read_ns.push_back(static_cast<double>(MonotonicNanos() - start) / options.reads_per_batch);
  }
  std::nth_element(per_read_ns.begin(), per_read_ns.begin() + per_read_ns.size() / 2,
                   per_read_ns.end());
  result.read_cost_ns = per_read_ns[per_read_ns.size() / 2];
  return result;
}

}  // namespace tickbench::timing
