// The clock contract of every target, for code with or without an OS: a counter read on
// the hot path and its rate (CounterClock, which the host's timing::Clock builds on), and
// the board's clocks described in static strings (Clock).
//
// Freestanding (core/README.md): plain C++17, no Abseil, no OS, no exceptions, no heap;
// strings are static C strings.
//
// What is promised (as timing/clock.h states it):
//   * NowTicks() returns a raw count; only differences of readings of the same object
//     mean something. It allocates nothing and takes no lock.
//   * info() describes the counter: its rate (ticks per second), the resolution it claims
//     in nanoseconds, and whether it can go backwards. Scaling to time happens outside the
//     hot path, through TicksToNanos(), the one place that scales.
// What is NOT promised:
//   * Readings are not wall time and do not agree across clock objects.
//   * A clock object has one reader: it is not safe to read from an interrupt handler
//     while the main program reads it.
// A concrete clock is a `final` class with NowTicks() defined inline, so that a loop
// written against the concrete type reads it without a virtual call.
#ifndef CORE_CLOCK_H_
#define CORE_CLOCK_H_

#include <cstdint>

namespace tickbench::core {

// The contract every clock of every target keeps (the host's timing::Clock and the board's
// core::Clock build on it): a counter read on the hot path and its rate. NowTicks() is the
// only virtual call, and a loop written against a concrete `final` class makes none.
class CounterClock {
 public:
  virtual ~CounterClock() = default;
  CounterClock(const CounterClock&) = delete;
  CounterClock& operator=(const CounterClock&) = delete;

  virtual int64_t NowTicks() = 0;

  // The one place that scales: ticks to nanoseconds, at the rate given at construction.
  double TicksToNanos(int64_t ticks) const { return static_cast<double>(ticks) * nanos_per_tick_; }
  double TicksToNanos(double ticks) const { return ticks * nanos_per_tick_; }
  double nanos_per_tick() const { return nanos_per_tick_; }

 protected:
  explicit CounterClock(double ticks_per_second) : nanos_per_tick_(1e9 / ticks_per_second) {}

 private:
  double nanos_per_tick_;
};

struct ClockInfo {
  const char* spec = "";             // how it is asked for: "systick"
  const char* name = "";             // how it is shown: "SysTick interrupt count"
  double ticks_per_second = 1e9;     // exact for counters of a known clock
  double claimed_resolution_ns = 1;  // what the clock says of itself (1/rate, a tick period)
  bool monotonic = true;             // false: may step backwards
  bool simulated = false;            // true for clocks made up in software
};

// A board's clock: the contract, described in static strings.
class Clock : public CounterClock {
 public:
  const ClockInfo& info() const { return info_; }

 protected:
  explicit Clock(const ClockInfo& info) : CounterClock(info.ticks_per_second), info_(info) {}

 private:
  ClockInfo info_;
};

}  // namespace tickbench::core

#endif  // CORE_CLOCK_H_
