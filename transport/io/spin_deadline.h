// The deadline of a busy-poll receive: a receive that never sleeps in the kernel must
// find out by itself when it has waited long enough.
//
// A spinning receive calls Expired() after each attempt that found nothing. The clock
// (CLOCK_MONOTONIC, through the vDSO: no system call) is read only every
// kAttemptsPerCheck empty attempts, and the wait is counted from the first of those
// reads: a message already there, or arriving within the first attempts, costs no clock
// read at all, and the timeout ends at most kAttemptsPerCheck attempts (a few tens of
// microseconds of non-blocking receives) late. This is the transport's own deadline, not
// a measurement: no reading of it reaches a result.
#ifndef TRANSPORT_SPIN_DEADLINE_H_
#define TRANSPORT_SPIN_DEADLINE_H_

#include <cstdint>
#include <limits>

#include "absl/time/time.h"
#include "platform/monotonic.h"

namespace tickbench::transport {

class SpinDeadline {
 public:
  static constexpr int kAttemptsPerCheck = 64;
  // TimeoutNanoseconds(absl::InfiniteDuration()): a deadline that never expires.
  static constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

  // absl::InfiniteDuration(): never expires, and never reads the clock.
  // `empty_attempts`: attempts that already found nothing (and were not passed to
  // Expired()), so that the clock is first read at the kAttemptsPerCheck-th of them all.
  explicit SpinDeadline(absl::Duration timeout, int64_t empty_attempts = 0)
      : SpinDeadline(TimeoutNanoseconds(timeout), empty_attempts) {}

  // The same from TimeoutNanoseconds(timeout), worked out once: a receive made many times
  // with one timeout then converts nothing per receive (absl::ToInt64Nanoseconds is a call
  // into the library).
  static SpinDeadline FromNanoseconds(int64_t timeout_ns, int64_t empty_attempts = 0) {
    return SpinDeadline(timeout_ns, empty_attempts);
  }

  // `timeout` in nanoseconds, or the largest int64_t (never) for absl::InfiniteDuration().
  static int64_t TimeoutNanoseconds(absl::Duration timeout) {
    return timeout == absl::InfiniteDuration() ? kNever : absl::ToInt64Nanoseconds(timeout);
  }

  // True once `timeout` has passed; call after every empty attempt.
  bool Expired() {
    if (++empty_attempts_ % kAttemptsPerCheck != 0) return false;
    if (timeout_ns_ == kNever) return false;
    const int64_t now = platform::MonotonicNanos();
    if (deadline_ns_ == 0) {
      deadline_ns_ = now + timeout_ns_;
      return false;
    }
    return now >= deadline_ns_;
  }

 private:
  SpinDeadline(int64_t timeout_ns, int64_t empty_attempts)
      : timeout_ns_(timeout_ns), empty_attempts_(empty_attempts) {}

  int64_t timeout_ns_;
  int64_t deadline_ns_ = 0;  // 0 until the first check
  int64_t empty_attempts_ = 0;
};

}  // namespace tickbench::transport

#endif  // TRANSPORT_SPIN_DEADLINE_H_
