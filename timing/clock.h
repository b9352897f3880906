// The clock abstraction: a counter read on the hot path (core::CounterClock, the contract
// every target's clocks keep), described once.
//
// What is promised:
//   * NowTicks() returns a raw count; only differences of readings of the same object
//     mean something. It allocates nothing and takes no lock.
//   * info() describes the counter: its rate (ticks per second), the resolution it
//     claims, and whether it can go backwards. Scaling to time happens outside the hot
//     path, through TicksToNanos() / TicksToDuration(), the one place that scales.
// What is NOT promised:
//   * Readings are not wall time and do not agree across clock objects.
//   * The claimed resolution is what the clock says of itself (clock_getres, 1/frequency,
//     a tick period); what it really resolves is measured by ClockProbe.
//   * A clock object has one reader: it is not thread-safe.
//
// Each concrete clock is a `final` class with NowTicks() defined inline, so that a loop
// written against the concrete type reads it without a virtual call.
#ifndef TIMING_CLOCK_H_
#define TIMING_CLOCK_H_

#include <cstdint>
#include <string>

#include "absl/time/time.h"
#include "core/clock.h"

namespace tickbench::timing {

struct ClockInfo {
  std::string spec;                   // how it is asked for: "clock_gettime:monotonic"
  std::string name;                   // how it is shown: "clock_gettime(CLOCK_MONOTONIC)"
  double ticks_per_second = 1e9;      // exact for OS clocks, calibrated for counters
  absl::Duration claimed_resolution;  // what the clock says of itself
  bool monotonic = true;              // false: may step backwards (wall clocks)
  bool simulated = false;             // tick and virtual clocks
  // The most a reading may sit above the instant it stands for: T - 1 us for a uniqtime
  // tick (timing/clocks/tick_clock.h), zero for every other clock.
  absl::Duration timestamp_offset;
  std::string notes;  // calibration, invariance, phase, ...
};

// core::CounterClock's contract (NowTicks, TicksToNanos), described with Abseil types.
class Clock : public core::CounterClock {
 public:
  const ClockInfo& info() const { return info_; }
  absl::Duration TicksToDuration(int64_t ticks) const;

 protected:
  explicit Clock(ClockInfo info);

 private:
  ClockInfo info_;
};

}  // namespace tickbench::timing

#endif  // TIMING_CLOCK_H_
