// The measurement loop: the code whose time tickbench reports. It is a template on the
// concrete clock types, chosen once outside the loop, so that each read is an inlined
// instruction sequence, not a virtual call; it allocates nothing, logs nothing, and reads
// only the clocks asked for, at each interval boundary: the measured clock first, then
// the reference right after it.
//
// It is a template on the concrete endpoint type as well, chosen once outside the loop
// too (harness/loop_selection.h, SelectLoop in harness/round_trip_engine.h). The socket
// and pipe endpoints are `final` classes, so a Send() or Receive() through a reference
// of their own type is a direct call to a known function, not a load of the vtable and
// an indirect call through it: every round trip runs the same instruction stream, with
// no indirect branch for the predictor to get right or wrong between the readings. An
// endpoint type the loop is not specialised for runs it as transport::Endpoint, with
// virtual calls.
#ifndef HARNESS_ROUND_TRIP_LOOP_H_
#define HARNESS_ROUND_TRIP_LOOP_H_

#include <cstdint>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "harness/run_record.h"
#include "platform/compiler.h"
#include "transport/message_pattern.h"
#include "transport/transport.h"

namespace tickbench::harness {

// Stands for "no reference clock": reads nothing and compiles to nothing.
struct NoReferenceClock {
  static constexpr bool kReads = false;
  int64_t NowTicks() { return 0; }
};

// Wraps a reference clock of concrete type C.
template <typename C>
struct ReferenceClock {
  static constexpr bool kReads = true;
  C* clock;
  TICKBENCH_ALWAYS_INLINE int64_t NowTicks() { return clock->NowTicks(); }
};

struct LoopBuffers {
  absl::Span<char> send;     // pattern-filled, size n; the sequence is stamped per trip
  absl::Span<char> receive;  // size n
  absl::Span<int64_t> marks;            // iterations / batch + 2 readings
  absl::Span<int64_t> reference_marks;  // same, or empty without a reference
};

struct LoopOutcome {
  int64_t completed = 0;  // round trips finished
  int64_t marks = 0;      // readings written (interval boundaries)
  absl::Status status;    // why the loop stopped early
};

// Most stale echoes (duplicates or late replies) skipped within one round trip before
// it counts as lost: a bound, so that a flood of stale datagrams cannot hold the loop.
inline constexpr int kMaxStaleEchoesPerTrip = 16;

// One round trip: send the stamped message, receive until its own echo comes back.
// Returns OK, or the transport's error. Integrity faults are counted, not returned,
// except a lost datagram (DeadlineExceeded) which the caller decides about.
// EndpointT is transport::Endpoint (virtual calls) or a `final` endpoint class (direct
// calls).
template <typename EndpointT>
TICKBENCH_ALWAYS_INLINE absl::Status RoundTrip(EndpointT& endpoint, const LoopBuffers& buffers,
                                               uint64_t sequence, IntegrityCounts& integrity) {
  transport::StampSequence(buffers.send, sequence);
  absl::Status status = endpoint.Send(buffers.send);
  if (!status.ok()) return status;
  for (int attempt = 0; attempt <= kMaxStaleEchoesPerTrip; ++attempt) {
    status = endpoint.Receive(buffers.receive);
    if (!status.ok()) return status;
    const transport::MessageCheck check = transport::CheckEcho(buffers.receive, sequence, false);
    if (ABSL_PREDICT_TRUE(check.ok())) return absl::OkStatus();
    if (check.result == transport::CheckResult::kCorrupted) {
      ++integrity.corrupted;
      return absl::OkStatus();
    }
    if (check.late_or_duplicate()) {
      ++integrity.late;  // an old echo: wait on for ours
      continue;
    }
    ++integrity.reordered;
    return absl::OkStatus();
  }
  return absl::DeadlineExceededError("only stale echoes arrived");
}

// Runs `iterations` timed round trips, reading the clocks every `batch` trips (and after
// the last). Sequence numbers start at `first_sequence`. With `continue_on_loss`, a lost
// datagram is counted and the loop goes on; otherwise it ends the loop.
template <typename EndpointT, typename ClockT, typename ReferenceT>
LoopOutcome TimedLoop(EndpointT& endpoint, ClockT& clock, ReferenceT reference,
                      const LoopBuffers& buffers, int64_t iterations, int64_t batch,
                      uint64_t first_sequence, bool continue_on_loss, IntegrityCounts& integrity) {
  static_assert(std::is_base_of_v<transport::Endpoint, EndpointT>,
                "the loop runs over a transport::Endpoint or a class derived from it");
  LoopOutcome outcome;
  int64_t* marks = buffers.marks.data();
  int64_t* reference_marks = buffers.reference_marks.data();
  marks[0] = clock.NowTicks();
  if constexpr (ReferenceT::kReads) reference_marks[0] = reference.NowTicks();
  int64_t written = 1;
  int64_t until_mark = batch;
  for (int64_t i = 0; i < iterations; ++i) {
    absl::Status status = RoundTrip(endpoint, buffers, first_sequence + i, integrity);
    if (ABSL_PREDICT_FALSE(!status.ok())) {
      if (status.code() == absl::StatusCode::kDeadlineExceeded && continue_on_loss) {
        ++integrity.lost;
      } else {
        outcome.status = std::move(status);
        break;
      }
    }
    ++outcome.completed;
    if (--until_mark == 0) {
      marks[written] = clock.NowTicks();
      if constexpr (ReferenceT::kReads) reference_marks[written] = reference.NowTicks();
      ++written;
      until_mark = batch;
    }
  }
  if (until_mark != batch) {  // a last, partial batch (or the trips before an error)
    marks[written] = clock.NowTicks();
    if constexpr (ReferenceT::kReads) reference_marks[written] = reference.NowTicks();
    ++written;
  }
  outcome.marks = written;
  return outcome;
}

}  // namespace tickbench::harness

#endif  // HARNESS_ROUND_TRIP_LOOP_H_
