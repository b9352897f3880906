// The instrument measures itself: what a clock really resolves and what a read costs.
//
// clock_getres() describes timer expiry, not how finely a clock can be read, so the
// probe measures instead: the smallest non-zero step between successive reads (the
// observed resolution), the median cost of one read over many batches, and any step
// backwards.
#ifndef TIMING_CLOCK_PROBE_H_
#define TIMING_CLOCK_PROBE_H_

#include <cstdint>

#include "absl/time/time.h"
#include "timing/clock.h"

namespace tickbench::timing {

struct ClockProbeOptions {
  // Back-to-back reads for the resolution: at least this many, and on until `min_changes`
  // changes of reading were seen (a 20 ms tick needs 40 ms for two) or `max_time` passed.
  int64_t min_reads = 100'000;
  int min_changes = 3;
  absl::Duration max_time = absl::Milliseconds(300);
  // Read cost: the median over `cost_batches` batches of `reads_per_batch` reads.
  int cost_batches = 51;
  int reads_per_batch = 1000;
};

struct ClockProbeResult {
  absl::Duration claimed_resolution;
  // Smallest non-zero step seen between successive reads; zero when the reading never
  // changed (a virtual clock nobody advances).
  absl::Duration observed_resolution;
  double read_cost_ns = 0;     // median ns per read
  int64_t reads = 0;           // reads made for the resolution
  int64_t changes = 0;         // how often the reading changed
  int64_t backward_steps = 0;  // how often a reading was below the one before
};

ClockProbeResult ProbeClock(Clock& clock, const ClockProbeOptions& options = {});

}  // namespace tickbench::timing

#endif  // TIMING_CLOCK_PROBE_H_
