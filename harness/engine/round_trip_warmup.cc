// The run's warm-up (round_trip_engine.h: WarmupRule): windows of untimed round trips until
// the round trip is steady, out of time, or a forced count is reached.
#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"
#include "harness/engine/round_trip_engine.h"
#include "transport/echo/echo_peer.h"

namespace tickbench::harness {
namespace {

// The timed trips' receive timeout from the warm-up's median round trip (auto_receive_timeout).
absl::Duration AutoTimeout(double median_ns) {
  return std::clamp(1000 * absl::Nanoseconds(median_ns), kMinAutoTimeout, kMaxAutoTimeout);
}

// The rule's "steady": past its minimum count and time, a window's median no more than
// `tolerance` below the one before (previous < 0: none yet).
bool Steady(const WarmupRule& rule, int64_t trips, double elapsed_ns, double median,
            double previous) {
  return trips >= rule.min_trips && elapsed_ns >= absl::ToDoubleNanoseconds(rule.min_time) &&
         previous >= 0 && median >= (1 - rule.tolerance) * previous;
}

}  // namespace

int64_t MaxWarmupTrips(const EngineOptions& options, double trip_ns) {
  if (options.warmup >= 0) return options.warmup;
  const WarmupRule& rule = options.warmup_rule;
  const double in_time = absl::ToDoubleNanoseconds(rule.max_time) / std::max(trip_ns, 1.0);
  return static_cast<int64_t>(std::min(1e15, std::ceil(in_time))) + rule.window + rule.min_trips;
}

absl::Status RoundTripEngine::WarmUpWindow(const LoopBuffers& buffers, int64_t trips,
                                           timing::Clock& warmup_clock, bool continue_on_loss,
                                           int64_t& echoed, RunRecord& record) {
  warmup_rtt_ns_.clear();
  absl::Status status = transport::SendBlockHeader(
      endpoint_, static_cast<uint32_t>(buffers.send.size()), static_cast<uint32_t>(trips));
  IntegrityCounts ignored;  // only the timed trips' faults are reported
  for (int64_t i = 0; status.ok() && i < trips; ++i) {
    const int64_t start_ticks = warmup_clock.NowTicks();
    bool faulty = false;
    status = RoundTrip(endpoint_, buffers, next_sequence_++, ignored, &faulty);
    // A fault in the warm-up's last trip leaves the first timed trip out (round_trip_loop.h).
    record.integrity.next_follows_fault = faulty || !status.ok();
    if (status.code() == absl::StatusCode::kDeadlineExceeded && continue_on_loss) {
      ++record.warmup_lost;
      if (echoed == 0 && record.warmup_lost >= kWarmupSilentLimit) {
        return absl::DeadlineExceededError(absl::StrFormat(
            "no echo to the first %d warm-up datagrams within %s each: the peer does not "
            "answer",
            record.warmup_lost, absl::FormatDuration(options_.receive_timeout)));
      }
      status = absl::OkStatus();
      continue;
    }
    if (status.ok() && !faulty) {
      ++echoed;
      if (warmup_rtt_ns_.size() < warmup_rtt_ns_.capacity()) {
        warmup_rtt_ns_.push_back(
            std::llround(warmup_clock.TicksToNanos(warmup_clock.NowTicks() - start_ticks)));
      }
    }
  }
  return status;
}

// The first window is short (kFirstWarmupWindow): its median sets the receive timeout of the
// rest, so that a datagram lost later waits what a timed one would, not the first 1 s.
absl::Status RoundTripEngine::WarmUp(const LoopBuffers& buffers, RunRecord& record) {
  // Untimed: the first trips after a size change fault in buffers and wake the peer from
  // a different state; they say little about the steady round trip.
  const bool continue_on_loss = options_.continue_on_loss && endpoint_.may_lose();
  absl::Status status = endpoint_.SetReceiveTimeout(options_.receive_timeout);
  // The warm-up's trips are read by the finest clock at hand (the reference, else the
  // measured one), which in a simulation is virtual time: never by a clock of its own.
  timing::Clock& warmup_clock = reference_ != nullptr ? *reference_ : clock_;
  const WarmupRule& rule = options_.warmup_rule;
  const bool forced = options_.warmup >= 0;
  const int64_t window = std::max<int64_t>(1, rule.window);
  const double max_ns = absl::ToDoubleNanoseconds(rule.max_time);
  const int64_t start_ticks = warmup_clock.NowTicks();
  auto elapsed_ns = [&] {
    return warmup_clock.TicksToNanos(warmup_clock.NowTicks() - start_ticks);
  };
  int64_t echoed = 0;
  double previous_median = -1;
  while (status.ok()) {
    if (forced && record.warmup_trips >= options_.warmup) {
      record.warmup_end = "count";
      break;
    }
    if (!forced && elapsed_ns() >= max_ns) {
      record.warmup_end = "out of time";
      break;
    }
    const int64_t size = record.warmup_trips == 0 ? std::min(window, kFirstWarmupWindow) : window;
    const int64_t trips = forced ? std::min(size, options_.warmup - record.warmup_trips) : size;
    status = WarmUpWindow(buffers, trips, warmup_clock, continue_on_loss, echoed, record);
    record.warmup_trips += trips;
    if (!status.ok() || warmup_rtt_ns_.empty()) continue;
    auto middle = warmup_rtt_ns_.begin() + warmup_rtt_ns_.size() / 2;
    std::nth_element(warmup_rtt_ns_.begin(), middle, warmup_rtt_ns_.end());
    const double median = static_cast<double>(*middle);
    if (options_.auto_receive_timeout) status = endpoint_.SetReceiveTimeout(AutoTimeout(median));
    if (forced || trips < window) continue;  // a short window is not compared
    if (Steady(rule, record.warmup_trips, elapsed_ns(), median, previous_median)) {
      record.warmup_end = "steady";
      break;
    }
    previous_median = median;
  }
  record.warmup_ns = std::llround(elapsed_ns());
  if (!status.ok()) return status;
  absl::Duration timeout = options_.receive_timeout;
  if (options_.auto_receive_timeout && !warmup_rtt_ns_.empty()) {
    auto middle = warmup_rtt_ns_.begin() + warmup_rtt_ns_.size() / 2;
    std::nth_element(warmup_rtt_ns_.begin(), middle, warmup_rtt_ns_.end());
    timeout = AutoTimeout(static_cast<double>(*middle));
    status = endpoint_.SetReceiveTimeout(timeout);
  }
  // 0: no bound (--receive_timeout=none).
  record.receive_timeout_ns =
      timeout == absl::InfiniteDuration() ? 0 : absl::ToInt64Nanoseconds(timeout);
  timed_receive_timeout_ = timeout;
  return status;
}

}  // namespace tickbench::harness
