// The measurement loop, the only one: the code whose time tickbench reports, on the host
// and on the boards. It is a template on the concrete clock types and on a trip policy,
// chosen once outside the loop, so that each read is an inlined instruction sequence and
// each round trip a direct call; it allocates nothing, and reads only the clocks asked
// for, at each interval boundary: the measured clock first, then the reference right
// after it.
//
// The policy (`TripsT`) is what a target adds around one round trip: the board's
// CheckedTrips below (stamp, send, receive, an O(1) check of the echo, a count of faults);
// the host's HostTrips (harness/engine/round_trip_loop.h: absl::Status, stale echoes, the
// loss rule, the stop check, intervals flagged as faulty). It is a class with
//     bool Trip(int64_t index, int64_t interval);
// which runs round trip `index` (0-based in this loop) of interval `interval` (0-based:
// the readings marks[interval] and marks[interval + 1] close it), and returns false to
// end the loop at once, with no reading after it. The loop runs on a copy of the policy in
// its own frame (so that what the policy keeps from trip to trip can live in registers)
// and copies it back when it ends.
//
// Freestanding (core/README.md): plain C++17, no Abseil, no OS, no exceptions, no heap.
//
// What is promised:
//   * marks[0] is read before the first round trip, then one reading every `batch` round
//     trips and one after a last partial batch: iterations / batch + 1 readings, rounded
//     up. With batch = iterations, only the first and the last (the averaged pass).
//   * A trip whose Trip() returns false gets no reading after it: the interval it cut
//     short is not closed, so no figure holds its wait.
// What is NOT promised:
//   * No timeouts here: a policy whose transport never answers holds the loop (the host's
//     endpoints bound every wait; a board's runner ends the program).
#ifndef CORE_ROUND_TRIP_LOOP_H_
#define CORE_ROUND_TRIP_LOOP_H_

#include <cstddef>
#include <cstdint>

#include "core/message_stamp.h"

#if defined(__GNUC__) || defined(__clang__)
#define TICKBENCH_CORE_INLINE inline __attribute__((always_inline))
#else
#define TICKBENCH_CORE_INLINE inline
#endif

namespace tickbench::core {

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
  TICKBENCH_CORE_INLINE int64_t NowTicks() { return clock->NowTicks(); }
};

// Where the readings go: iterations / batch + 2 of each.
struct LoopMarks {
  int64_t* marks = nullptr;
  int64_t* reference_marks = nullptr;  // null without a reference
};

struct LoopCount {
  int64_t completed = 0;  // round trips whose Trip() returned true
  int64_t marks = 0;      // readings written (interval boundaries)
  bool stopped = false;   // a Trip() returned false: the loop ended there
};

// Runs `iterations` round trips through `trips`, reading the clocks every `batch` trips
// (and after a last partial batch).
template <typename TripsT, typename ClockT, typename ReferenceT>
LoopCount TimedLoop(TripsT& trips, ClockT& clock, ReferenceT reference, LoopMarks where,
                    int64_t iterations, int64_t batch) {
  TripsT local = trips;  // this frame's own: its members can stay in registers
  LoopCount count;
  int64_t* marks = where.marks;
  int64_t* reference_marks = where.reference_marks;
  marks[0] = clock.NowTicks();
  if constexpr (ReferenceT::kReads) reference_marks[0] = reference.NowTicks();
  int64_t written = 1;
  int64_t until_mark = batch;
  int64_t completed = 0;
  bool stopped = false;
  for (int64_t i = 0; i < iterations; ++i) {
    if (__builtin_expect(!local.Trip(i, written - 1), 0)) {
      stopped = true;
      break;
    }
    ++completed;
    if (--until_mark == 0) {
      marks[written] = clock.NowTicks();
      if constexpr (ReferenceT::kReads) reference_marks[written] = reference.NowTicks();
      ++written;
      until_mark = batch;
    }
  }
  if (until_mark != batch && !stopped) {  // a last, partial batch
    marks[written] = clock.NowTicks();
    if constexpr (ReferenceT::kReads) reference_marks[written] = reference.NowTicks();
    ++written;
  }
  trips = local;
  count.completed = completed;
  count.marks = written;
  count.stopped = stopped;
  return count;
}

// Where a bracketed pass's readings go: one of each per kept round trip.
struct BracketMarks {
  int64_t* starts = nullptr;
  int64_t* stops = nullptr;
  int64_t* reference_starts = nullptr;  // null without a reference
  int64_t* reference_stops = nullptr;
};

// The per-iteration pass with each round trip bracketed on its own: the clocks read right
// before it and right after it (the measured clock first, then the reference, at each end),
// where TimedLoop with batch 1 tiles the pass (one reading closes a trip and opens the
// next). Between trips the policy's Pause() runs, untimed (a gap, a dither). A policy whose
// last trip's reading must not be kept (a faulty echo, the first clean trip after one)
// says so through KeepLast(): the next trip's readings overwrite it. The policy is as
// TimedLoop's, plus
//     void Pause();      // before each trip, outside its readings
//     bool KeepLast();   // after a trip whose Trip() returned true
// count.marks is the number of readings kept (of each of the four arrays).
template <typename TripsT, typename ClockT, typename ReferenceT>
LoopCount BracketedLoop(TripsT& trips, ClockT& clock, ReferenceT reference, BracketMarks where,
                        int64_t iterations) {
  TripsT local = trips;
  LoopCount count;
  int64_t kept = 0;
  for (int64_t i = 0; i < iterations; ++i) {
    local.Pause();
    where.starts[kept] = clock.NowTicks();
    if constexpr (ReferenceT::kReads) where.reference_starts[kept] = reference.NowTicks();
    const bool ok = local.Trip(i, kept);
    where.stops[kept] = clock.NowTicks();
    if constexpr (ReferenceT::kReads) where.reference_stops[kept] = reference.NowTicks();
    if (__builtin_expect(!ok, 0)) {
      count.stopped = true;
      break;
    }
    ++count.completed;
    if (local.KeepLast()) ++kept;
  }
  trips = local;
  count.marks = kept;
  return count;
}

// The board's policy: each trip stamps the message with its sequence number, sends it,
// receives the echo and checks its stamp in O(1) (core/message_stamp.h); an echo that
// differs is counted as a fault. An endpoint is any class with
//     bool Send(const char* data, size_t size);    // false: the transport failed
//     bool Receive(char* data, size_t size);       // exactly `size` bytes, or false
// (the board's PendSV echo, board/pendsv_echo.h; a test's fake). A transport failure ends
// the loop.
template <typename EndpointT>
struct CheckedTrips {
  EndpointT* endpoint = nullptr;
  char* send = nullptr;     // pattern-filled (FillPattern), `size` bytes
  char* receive = nullptr;  // `size` bytes
  size_t size = 0;
  uint64_t first_sequence = 0;  // the sequence number of trip 0
  int64_t faults = 0;           // echoes with a wrong sequence number or a broken stamp

  TICKBENCH_CORE_INLINE bool Trip(int64_t index, int64_t /*interval*/) {
    const uint64_t sequence = first_sequence + static_cast<uint64_t>(index);
    StampSequence(send, size, sequence);
    if (!endpoint->Send(send, size) || !endpoint->Receive(receive, size)) return false;
    if (__builtin_expect(!EchoStampMatches(receive, size, sequence), 0)) ++faults;
    return true;
  }
};

}  // namespace tickbench::core

#endif  // CORE_ROUND_TRIP_LOOP_H_
