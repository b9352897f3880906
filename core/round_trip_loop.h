// The measurement loop of harness/engine/round_trip_loop.h, for code that runs without an OS: a
// template on the concrete clock and endpoint types, chosen once outside the loop, so
// that each read is an inlined instruction sequence and each Send()/Receive() a direct
// call; it allocates nothing and reads only the clocks asked for, at each interval
// boundary: the measured clock first, then the reference right after it.
//
// Freestanding (core/README.md): plain C++17, no Abseil, no OS, no exceptions, no heap.
//
// An endpoint here is any class with
//     bool Send(const char* data, size_t size);    // false: the transport failed
//     bool Receive(char* data, size_t size);       // exactly `size` bytes, or false
// (the board's PendSV echo, board/pendsv_echo.h; a test's fake).
//
// What is promised:
//   * Every message carries its sequence number in its first 8 bytes (fewer for smaller
//     messages) and a fixed pattern after it; an echo that differs is counted as a fault
//     (wrong sequence or corrupted), never timed as a good round trip.
//   * marks[0] is read before the first round trip, then one reading every `batch` round
//     trips and one after a last partial batch: iterations / batch + 1 readings, rounded
//     up. With batch = iterations, only the first and the last (the averaged pass).
// What is NOT promised:
//   * No timeouts: a board transport that never answers hangs the loop (the runner's
//     timeout ends the program).
#ifndef CORE_ROUND_TRIP_LOOP_H_
#define CORE_ROUND_TRIP_LOOP_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

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
  int64_t NowTicks() { return clock->NowTicks(); }
};

// The pattern byte at offset i of every message (after the sequence number).
inline char PatternByte(size_t i) { return static_cast<char>((i * 131 + 7) & 0xff); }

// Fills `buffer` with the pattern.
inline void FillPattern(char* buffer, size_t size) {
  for (size_t i = 0; i < size; ++i) buffer[i] = PatternByte(i);
}

// Writes the low bytes of `sequence` (little-endian) over the first min(8, size) bytes.
inline void StampSequence(char* buffer, size_t size, uint64_t sequence) {
  const size_t bytes = size < 8 ? size : 8;
  for (size_t i = 0; i < bytes; ++i) buffer[i] = static_cast<char>((sequence >> (8 * i)) & 0xff);
}

enum class EchoCheck : uint8_t { kOk, kWrongSequence, kCorrupted };

// Compares an echo with what was sent: the sequence bytes first, then the rest.
inline EchoCheck CheckEcho(const char* sent, const char* received, size_t size) {
  const size_t bytes = size < 8 ? size : 8;
  if (std::memcmp(sent, received, bytes) != 0) return EchoCheck::kWrongSequence;
  if (std::memcmp(sent + bytes, received + bytes, size - bytes) != 0) return EchoCheck::kCorrupted;
  return EchoCheck::kOk;
}

struct LoopBuffers {
  char* send = nullptr;     // pattern-filled, `size` bytes; the sequence is stamped per trip
  char* receive = nullptr;  // `size` bytes
  size_t size = 0;
  int64_t* marks = nullptr;            // iterations / batch + 2 readings
  int64_t* reference_marks = nullptr;  // same, or null without a reference
};

struct LoopOutcome {
  int64_t completed = 0;          // round trips finished
  int64_t marks = 0;              // readings written
  int64_t faults = 0;             // echoes with a wrong sequence number or corrupted bytes
  bool transport_failed = false;  // Send or Receive returned false: the loop stopped there
};

// Runs `iterations` timed round trips, reading the clocks every `batch` trips (and after a
// last partial batch). Sequence numbers start at `first_sequence`. A transport failure
// ends the loop without a reading after it.
template <typename EndpointT, typename ClockT, typename ReferenceT>
LoopOutcome TimedLoop(EndpointT& endpoint, ClockT& clock, ReferenceT reference,
                      const LoopBuffers& buffers, int64_t iterations, int64_t batch,
                      uint64_t first_sequence) {
  LoopOutcome outcome;
  int64_t* marks = buffers.marks;
  int64_t* reference_marks = buffers.reference_marks;
  marks[0] = clock.NowTicks();
  if constexpr (ReferenceT::kReads) reference_marks[0] = reference.NowTicks();
  int64_t written = 1;
  int64_t until_mark = batch;
  for (int64_t i = 0; i < iterations; ++i) {
    StampSequence(buffers.send, buffers.size, first_sequence + static_cast<uint64_t>(i));
    if (!endpoint.Send(buffers.send, buffers.size) ||
        !endpoint.Receive(buffers.receive, buffers.size)) {
      outcome.transport_failed = true;
      break;
    }
    if (CheckEcho(buffers.send, buffers.receive, buffers.size) != EchoCheck::kOk) {
      ++outcome.faults;
    }
    ++outcome.completed;
    if (--until_mark == 0) {
      marks[written] = clock.NowTicks();
      if constexpr (ReferenceT::kReads) reference_marks[written] = reference.NowTicks();
      ++written;
      until_mark = batch;
    }
  }
  if (until_mark != batch && !outcome.transport_failed) {
    marks[written] = clock.NowTicks();
    if constexpr (ReferenceT::kReads) reference_marks[written] = reference.NowTicks();
    ++written;
  }
  outcome.marks = written;
  return outcome;
}

}  // namespace tickbench::core

#endif  // CORE_ROUND_TRIP_LOOP_H_
