// A simulated coarse tick: the classic clock that advances once per period.
//
// The reading is floor((t + phase) / T) * T, in nanoseconds, over a fine base clock t
// (CLOCK_MONOTONIC, or a VirtualClock in simulation): every reading is an exact multiple
// of the period T, so an interval is read as a whole number of ticks, n or n+1 for a true
// length of (n + f) * T. The phase places the tick edges: random (seeded) by default, so
// that readings are unbiased on average, or fixed, to show phase locking. See docs/theory.md
// for the statistics of such readings.
//
// 100 Hz gives T = 10 ms. The Sun-3 clock ran at 100 Hz with every other interrupt
// dismissed, 20 ms in effect: T = 20 ms.
//
// With `uniqtime`, readings within one tick are made unique as SunOS's uniqtime() did:
// each read in the same tick adds 1 us to the last, so two reads differ by 1 us, not 0
// (capped one microsecond short of the next edge, so readings stay monotonic).
#ifndef TIMING_TICK_CLOCK_H_
#define TIMING_TICK_CLOCK_H_

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "timing/clock.h"
#include "timing/clocks/os_clocks.h"

namespace tickbench::timing {

struct TickClockOptions {
  absl::Duration period = absl::Milliseconds(10);
  // Offset of the tick edges, in [0, period). Used when `random_phase` is false.
  absl::Duration phase;
  bool random_phase = true;
  uint64_t seed = 1;  // seeds the random phase: the same seed gives the same edges
  bool uniqtime = false;
};

class TickClock final : public Clock {
 public:
  // `base` must count nanoseconds (ticks_per_second == 1e9) and is owned when
  // `owned_base` is given. InvalidArgument for a period <= 0, a phase outside
  // [0, period), or a base that does not count nanoseconds.
  static absl::StatusOr<std::unique_ptr<TickClock>> Create(const TickClockOptions& options,
                                                           Clock* base);
  static absl::StatusOr<std::unique_ptr<TickClock>> Create(const TickClockOptions& options,
                                                           std::unique_ptr<Clock> owned_base);

  int64_t NowTicks() override {
    // The real base is read inline, as a measurement loop reads a clock_gettime clock:
    // a virtual call would add a few ns to the read (docs/overhead.md).
    const int64_t base = base_is_monotonic_ ? MonotonicNanos() : base_->NowTicks();
    const int64_t shifted = base + phase_ns_;
    // Floor division: the base may be below -phase (a virtual clock starts at 0).
    int64_t edge = shifted / period_ns_;
    if (shifted % period_ns_ != 0 && shifted < 0) --edge;
    const int64_t reading = edge * period_ns_;
    if (!uniqtime_) return reading;
    if (reading == last_reading_) {
      bump_ns_ = std::min(bump_ns_ + 1000, period_ns_ - 1000);
    } else {
      last_reading_ = reading;
      bump_ns_ = 0;
    }
    return reading + bump_ns_;
  }

  int64_t period_ns() const { return period_ns_; }
  int64_t phase_ns() const { return phase_ns_; }
  // Moves the tick edges to a new phase in [0, period) (for a study's next run).
  void set_phase_ns(int64_t phase_ns) { phase_ns_ = phase_ns; }

 private:
  TickClock(ClockInfo info, Clock* base, std::unique_ptr<Clock> owned_base, int64_t period_ns,
            int64_t phase_ns, bool uniqtime);

  std::unique_ptr<Clock> owned_base_;
  Clock* base_;
  bool base_is_monotonic_;  // base_ is clock_gettime(CLOCK_MONOTONIC): read it directly
  int64_t period_ns_;
  int64_t phase_ns_;
  bool uniqtime_;
  int64_t last_reading_ = INT64_MIN;
  int64_t bump_ns_ = 0;
};

// A phase drawn uniformly from [0, period_ns) by a generator seeded with `seed`.
int64_t RandomPhaseNanos(int64_t period_ns, uint64_t seed);

}  // namespace tickbench::timing

#endif  // TIMING_TICK_CLOCK_H_
