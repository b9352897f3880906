// A board made up for the host tests of core/: virtual time in nanoseconds that only the
// fakes advance, a tick clock and a fine clock over it, and an echo that costs a set time.
#ifndef CORE_FAKE_BOARD_H_
#define CORE_FAKE_BOARD_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/clock.h"

namespace tickbench::core::testing {

struct VirtualTime {
  int64_t ns = 0;
};

inline ClockInfo TickInfo(double period_ns) {
  ClockInfo info;
  info.spec = "fake_tick";
  info.name = "a tick over virtual time";
  info.ticks_per_second = 1e9 / period_ns;
  info.claimed_resolution_ns = period_ns;
  info.simulated = true;
  return info;
}

inline ClockInfo FineInfo(double resolution_ns) {
  ClockInfo info;
  info.spec = "fake_fine";
  info.name = "a counter over virtual time";
  info.ticks_per_second = 1e9 / resolution_ns;
  info.claimed_resolution_ns = resolution_ns;
  info.simulated = true;
  return info;
}

// floor((t + phase) / T); each read costs read_cost_ns of virtual time after it is taken.
class FakeTickClock final : public Clock {
 public:
  FakeTickClock(VirtualTime* time, int64_t period_ns, int64_t phase_ns, int64_t read_cost_ns = 0)
      : Clock(TickInfo(static_cast<double>(period_ns))),
        time_(time),
        period_ns_(period_ns),
        phase_ns_(phase_ns),
        read_cost_ns_(read_cost_ns) {}
  int64_t NowTicks() override {
    const int64_t ticks = (time_->ns + phase_ns_) / period_ns_;
    time_->ns += read_cost_ns_;
    return ticks;
  }

 private:
  VirtualTime* time_;
  int64_t period_ns_, phase_ns_, read_cost_ns_;
};

// floor(t / r).
class FakeFineClock final : public Clock {
 public:
  FakeFineClock(VirtualTime* time, int64_t resolution_ns, int64_t read_cost_ns = 0)
      : Clock(FineInfo(static_cast<double>(resolution_ns))),
        time_(time),
        resolution_ns_(resolution_ns),
        read_cost_ns_(read_cost_ns) {}
  int64_t NowTicks() override {
    const int64_t ticks = time_->ns / resolution_ns_;
    time_->ns += read_cost_ns_;
    return ticks;
  }

 private:
  VirtualTime* time_;
  int64_t resolution_ns_, read_cost_ns_;
};

// An echo whose round trip takes trip_ns[i % size] of virtual time for the i-th trip;
// `corrupt_every` > 0 flips a byte of every such echo.
class FakeEcho {
 public:
  FakeEcho(VirtualTime* time, std::vector<int64_t> trip_ns, int corrupt_every = 0)
      : time_(time), trip_ns_(std::move(trip_ns)), corrupt_every_(corrupt_every) {}
  bool Send(const char* data, size_t size) {
    stash_.assign(data, data + size);
    return !fail_;
  }
  bool Receive(char* data, size_t size) {
    if (stash_.size() != size) return false;
    std::memcpy(data, stash_.data(), size);
    time_->ns += trip_ns_[trips_ % trip_ns_.size()];
    ++trips_;
    if (corrupt_every_ > 0 && trips_ % corrupt_every_ == 0) data[size - 1] ^= 1;
    return true;
  }
  int64_t trips() const { return trips_; }
  void set_fail(bool fail) { fail_ = fail; }

 private:
  VirtualTime* time_;
  std::vector<int64_t> trip_ns_;
  int corrupt_every_;
  std::vector<char> stash_;
  int64_t trips_ = 0;
  bool fail_ = false;
};

}  // namespace tickbench::core::testing

#endif  // CORE_FAKE_BOARD_H_
