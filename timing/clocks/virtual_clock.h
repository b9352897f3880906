// A clock whose time moves only when code advances it: deterministic simulation and
// exact tests.
//
// Promised:
//   * NowTicks() returns exactly the nanoseconds advanced so far (1 tick = 1 ns, claimed
//     resolution 1 ns); two reads with no AdvanceNanos() between them are equal.
//   * It never goes backwards: AdvanceNanos() takes a non-negative step.
//   * Reading it costs no system call and moves nothing
//   (tests/conformance/clock_conformance_test.cc).
// Not promised:
//   * Any relation to real time: a simulation runs as fast as the host can compute it.
//   * Thread safety: one simulation owns it.
#ifndef TIMING_VIRTUAL_CLOCK_H_
#define TIMING_VIRTUAL_CLOCK_H_

#include <cstdint>

#include "absl/time/time.h"
#include "platform/compiler.h"
#include "timing/clock.h"

namespace tickbench::timing {

// Nanosecond ticks starting at 0. Advancing by a negative amount is refused (the clock is
// monotonic by construction); reading never changes the time.
class VirtualClock final : public Clock {
 public:
  VirtualClock();
  TICKBENCH_ALWAYS_INLINE int64_t NowTicks() override { return now_ns_; }

  // Moves time forward by `duration`, rounded down to whole nanoseconds.
  void Advance(absl::Duration duration);
  void AdvanceNanos(int64_t nanos) {
    if (nanos > 0) now_ns_ += nanos;
  }
  int64_t now_ns() const { return now_ns_; }

 private:
  int64_t now_ns_ = 0;
};

}  // namespace tickbench::timing

#endif  // TIMING_VIRTUAL_CLOCK_H_
