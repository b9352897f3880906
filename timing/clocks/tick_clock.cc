#include "timing/clocks/tick_clock.h"

#include <random>

#include "absl/strings/str_format.h"

namespace tickbench::timing {

int64_t RandomPhaseNanos(int64_t period_ns, uint64_t seed) {
  // std::mt19937_64 with uniform_int_distribution is reproducible for a given seed on one
  // standard library, which is what a seeded simulation needs.
  std::mt19937_64 generator(seed);
  std::uniform_int_distribution<int64_t> phase(0, period_ns - 1);
  return phase(generator);
}

absl::StatusOr<std::unique_ptr<TickClock>> TickClock::Create(const TickClockOptions& options,
                                                             Clock* base) {
  if (options.period <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--tick_period must be positive (e.g. 10ms for 100 Hz, 20ms for 50 Hz); got %s",
        absl::FormatDuration(options.period)));
  }
  const int64_t period_ns = absl::ToInt64Nanoseconds(options.period);
  if (period_ns < 2000) {
    return absl::InvalidArgumentError(
        absl::StrFormat("--tick_period must be at least 2us to simulate a coarse tick; got %s",
                        absl::FormatDuration(options.period)));
  }
  if (base == nullptr || base->info().ticks_per_second != 1e9) {
    return absl::InvalidArgumentError("the tick clock needs a nanosecond base clock");
  }
  int64_t phase_ns = absl::ToInt64Nanoseconds(options.phase);
  if (options.random_phase) {
    phase_ns = RandomPhaseNanos(period_ns, options.seed);
  } else if (phase_ns < 0 || phase_ns >= period_ns) {
    return absl::InvalidArgumentError(
        absl::StrFormat("--tick_phase must lie in [0, tick_period) = [0, %s); got %s",
                        absl::FormatDuration(options.period), absl::FormatDuration(options.phase)));
  }
  ClockInfo info;
  const double hz = 1e9 / static_cast<double>(period_ns);
  info.spec = absl::StrFormat("tick:%s%s", absl::FormatDuration(options.period),
                              options.uniqtime ? ":uniqtime" : "");
  info.name = absl::StrFormat("tick(%s, %g Hz%s)", absl::FormatDuration(options.period), hz,
                              options.uniqtime ? ", uniqtime" : "");
  info.ticks_per_second = 1e9;
  info.claimed_resolution = options.period;
  info.simulated = true;
  if (options.uniqtime) info.timestamp_offset = options.period - absl::Microseconds(1);
  info.notes = absl::StrFormat(
      "floor((t + phase) / T) * T over %s; phase %s (%s)", base->info().name,
      absl::FormatDuration(absl::Nanoseconds(phase_ns)),
      options.random_phase ? absl::StrFormat("random, seed %d", options.seed) : "fixed");
  return std::unique_ptr<TickClock>(
      new TickClock(std::move(info), base, nullptr, period_ns, phase_ns, options.uniqtime));
}

absl::StatusOr<std::unique_ptr<TickClock>> TickClock::Create(const TickClockOptions& options,
                                                             std::unique_ptr<Clock> owned_base) {
  absl::StatusOr<std::unique_ptr<TickClock>> clock = Create(options, owned_base.get());
  if (clock.ok()) (*clock)->owned_base_ = std::move(owned_base);
  return clock;
}

TickClock::TickClock(ClockInfo info, Clock* base, std::unique_ptr<Clock> owned_base,
                     int64_t period_ns, int64_t phase_ns, bool uniqtime)
    : Clock(std::move(info)),
      owned_base_(std::move(owned_base)),
      base_(base),
      base_is_monotonic_(dynamic_cast<ClockGettimeClock*>(base) != nullptr &&
                         static_cast<ClockGettimeClock*>(base)->id() == CLOCK_MONOTONIC),
      period_ns_(period_ns),
      phase_ns_(phase_ns),
      uniqtime_(uniqtime) {}

}  // namespace tickbench::timing
