// The host's round trip around the one measurement loop (core/round_trip_loop.h): the trip
// policy HostTrips (absl::Status from the transport, stale echoes waited past, the loss
// rule, the stop check, faulty intervals flagged) and TimedLoop, which runs the core's loop
// with it. The loop is a template on the concrete clock types and on the concrete endpoint
// type, chosen once outside the loop (harness/engine/loop_selection.h, SelectLoop in
// harness/engine/round_trip_engine.h), so that each read is an inlined instruction sequence
// and each Send()/Receive() a direct call. The socket and pipe endpoints are `final`
// classes, so a call through a reference of their own type is a direct call to a known
// function, not a load of the vtable and an indirect call through it: every round trip runs
// the same instruction stream, with no indirect branch for the predictor to get right or
// wrong between the readings. An endpoint type the loop is not specialised for runs it as
// transport::Endpoint, with virtual calls.
#ifndef HARNESS_ENGINE_ROUND_TRIP_LOOP_H_
#define HARNESS_ENGINE_ROUND_TRIP_LOOP_H_

#include <cstdint>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "core/round_trip_loop.h"
#include "harness/engine/run_record.h"
#include "platform/compiler.h"
#include "platform/stop_signal.h"
#include "transport/io/message_pattern.h"
#include "transport/transport.h"

namespace tickbench::harness {

using core::NoReferenceClock;
using core::ReferenceClock;

struct LoopBuffers {
  absl::Span<char> send;                // pattern-filled, size n; the sequence is stamped per trip
  absl::Span<char> receive;             // size n
  absl::Span<int64_t> marks;            // iterations / batch + 2 readings
  absl::Span<int64_t> reference_marks;  // same, or empty without a reference
  // One flag per interval (iterations / batch + 1), all 0 on entry: the loop sets
  // faulty[j] = 1 when a round trip of interval j was lost, late, reordered or corrupted,
  // so that no figure times it. Empty: faults are only counted.
  absl::Span<uint8_t> faulty = {};
};

struct LoopOutcome {
  int64_t completed = 0;  // round trips finished (with or without a fault)
  // Round trips inside the intervals the readings close: `completed`, less a last,
  // partial batch that an error cut short (its trips have no closing reading).
  int64_t closed = 0;
  int64_t marks = 0;    // readings written (interval boundaries)
  absl::Status status;  // why the loop stopped early
};

// Most stale echoes (duplicates or late replies) skipped within one round trip before
// it counts as lost: a bound, so that a flood of stale datagrams cannot hold the loop.
inline constexpr int kMaxStaleEchoesPerTrip = 16;

// On a byte stream an echo that is not the message sent (corrupted, late or reordered: a
// stray or missing byte shifts every later message) leaves client and peer out of step,
// with no boundary to find again: the round trip ends in this error, and so does the run.
absl::Status StreamOutOfStepError(const transport::MessageCheck& check, uint64_t sequence);

// One round trip: send the stamped message, receive until its own echo comes back.
// Returns OK, or the transport's error. Integrity faults are counted; on a datagram
// transport they are not returned, except a lost datagram (DeadlineExceeded) which the
// caller decides about; on a byte stream (!keeps_boundaries()) a faulty echo is counted
// and returned as StreamOutOfStepError (DataLoss). With `faulty`, a counted fault also
// sets *faulty.
// EndpointT is transport::Endpoint (virtual calls) or a `final` endpoint class (direct
// calls).
template <typename EndpointT>
TICKBENCH_ALWAYS_INLINE absl::Status RoundTrip(EndpointT& endpoint, const LoopBuffers& buffers,
                                               uint64_t sequence, IntegrityCounts& integrity,
                                               bool* faulty = nullptr) {
  transport::StampSequence(buffers.send, sequence);
  absl::Status status = endpoint.Send(buffers.send);
  if (!status.ok()) return status;
  for (int attempt = 0; attempt <= kMaxStaleEchoesPerTrip; ++attempt) {
    status = endpoint.Receive(buffers.receive);
    if (!status.ok()) return status;
    if (ABSL_PREDICT_TRUE(transport::EchoStampMatches(buffers.receive, sequence))) {
      return absl::OkStatus();
    }
    const transport::MessageCheck check = transport::CheckEcho(buffers.receive, sequence, false);
    if (faulty != nullptr) *faulty = true;
    const bool stream = !endpoint.keeps_boundaries();
    if (check.result == transport::CheckResult::kCorrupted) {
      ++integrity.corrupted;
    } else if (check.late_or_duplicate()) {
      ++integrity.late;  // an old echo: on datagrams, wait on for ours
      if (!stream) continue;
    } else {
      ++integrity.reordered;
    }
    return stream ? StreamOutOfStepError(check, sequence) : absl::OkStatus();
  }
  return absl::DeadlineExceededError("only stale echoes arrived");
}

// After one trip of interval `interval`: a faulty trip flags its interval in `faulty` (when
// there is one); so does the first clean trip after a fault, which is left out as a
// warm-up's trips are and counted in integrity.after_fault. `follows_fault` carries the
// state from trip to trip.
TICKBENCH_ALWAYS_INLINE void NoteFault(bool trip_faulty, bool& follows_fault, uint8_t* faulty,
                                       int64_t interval, IntegrityCounts& integrity) {
  if (ABSL_PREDICT_FALSE(trip_faulty)) {
    if (faulty != nullptr) faulty[interval] = 1;
    follows_fault = true;
  } else if (ABSL_PREDICT_FALSE(follows_fault)) {
    follows_fault = false;
    if (faulty != nullptr) {
      faulty[interval] = 1;
      ++integrity.after_fault;
    }
  }
}

// The host's trip policy for core::TimedLoop: one RoundTrip, the loss rule, the stop check
// and the faulty flags. It keeps pointers, not references, so that the loop can copy it
// into its own frame and back.
// kTracksKept: the policy of a bracketed pass, which asks after each trip whether its
// reading is kept (last_kept(), last_after_fault()).
template <typename EndpointT, bool kTracksKept = false>
class HostTrips {
 public:
  HostTrips(EndpointT& endpoint, const LoopBuffers& buffers, uint64_t first_sequence,
            bool continue_on_loss, IntegrityCounts& integrity, absl::Status& error)
      : endpoint_(&endpoint),
        buffers_(buffers),
        first_sequence_(first_sequence),
        integrity_(&integrity),
        error_(&error),
        faulty_(buffers.faulty.empty() ? nullptr : buffers.faulty.data()),
        follows_fault_(integrity.next_follows_fault),
        continue_on_loss_(continue_on_loss) {}

  TICKBENCH_ALWAYS_INLINE bool Trip(int64_t index, int64_t interval) {
    bool trip_faulty = false;
    absl::Status status =
        RoundTrip(*endpoint_, buffers_, first_sequence_ + index, *integrity_, &trip_faulty);
    if (ABSL_PREDICT_FALSE(!status.ok())) {
      if (status.code() == absl::StatusCode::kDeadlineExceeded && continue_on_loss_) {
        ++integrity_->lost;
        trip_faulty = true;
      } else {
        *error_ = std::move(status);
        return false;
      }
    }
    if (ABSL_PREDICT_FALSE(platform::StopRequested())) {
      *error_ = platform::CancelledIfStopRequested("timing round trips");
      return false;
    }
    // Kept: neither faulty nor the first clean trip after a fault (a bracketed pass,
    // core::BracketedLoop, overwrites the reading of a trip that is not). Only a bracketed
    // pass asks: the tiled loop does no work for it.
    if constexpr (kTracksKept) {
      after_fault_ = !trip_faulty && follows_fault_;
      kept_ = !trip_faulty && !follows_fault_;
    }
    NoteFault(trip_faulty, follows_fault_, faulty_, interval, *integrity_);
    return true;
  }

  // Whether the last trip's reading is kept, and whether it was left out as the first clean
  // trip after a fault.
  bool last_kept() const {
    static_assert(kTracksKept, "a HostTrips<E, true> tracks what it keeps");
    return kept_;
  }
  bool last_after_fault() const {
    static_assert(kTracksKept, "a HostTrips<E, true> tracks what it keeps");
    return after_fault_;
  }

  // Carries the state of the last trip to the next loop (integrity.next_follows_fault).
  void Finish() const { integrity_->next_follows_fault = follows_fault_; }

 private:
  EndpointT* endpoint_;
  LoopBuffers buffers_;  // the spans, this object's own (no store or call can change them)
  uint64_t first_sequence_;
  IntegrityCounts* integrity_;
  absl::Status* error_;
  uint8_t* faulty_;
  bool follows_fault_;
  bool continue_on_loss_;
  bool kept_ = false;
  bool after_fault_ = false;
};

// Runs `iterations` timed round trips, reading the clocks every `batch` trips (and after
// the last). Sequence numbers start at `first_sequence`. With `continue_on_loss`, a lost
// datagram is counted, its interval flagged in buffers.faulty, and the loop goes on;
// otherwise it ends the loop. The first clean trip after a faulty one (after
// integrity.next_follows_fault on entry, for the first) has its interval flagged too and
// is counted in integrity.after_fault: it is left out as a warm-up's trips are. A stop
// requested by SIGINT or SIGTERM (one relaxed load per trip, platform/stop_signal.h) ends
// the loop with Cancelled. An error ends the loop without a reading after it: the interval
// it cut short is not closed, so no figure holds the failed trip's wait.
template <typename EndpointT, typename ClockT, typename ReferenceT>
LoopOutcome TimedLoop(EndpointT& endpoint, ClockT& clock, ReferenceT reference,
                      const LoopBuffers& buffers, int64_t iterations, int64_t batch,
                      uint64_t first_sequence, bool continue_on_loss, IntegrityCounts& integrity) {
  static_assert(std::is_base_of_v<transport::Endpoint, EndpointT>,
                "the loop runs over a transport::Endpoint or a class derived from it");
  LoopOutcome outcome;
  HostTrips<EndpointT> trips(endpoint, buffers, first_sequence, continue_on_loss, integrity,
                             outcome.status);
  const core::LoopCount count =
      core::TimedLoop(trips, clock, reference,
                      {buffers.marks.data(), buffers.reference_marks.data()}, iterations, batch);
  trips.Finish();
  outcome.completed = count.completed;
  outcome.marks = count.marks;
  outcome.closed = count.stopped ? (count.marks - 1) * batch : count.completed;
  return outcome;
}

}  // namespace tickbench::harness

#endif  // HARNESS_ENGINE_ROUND_TRIP_LOOP_H_
