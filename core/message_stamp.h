// The integrity stamp of an echoed message, the same bytes on every target: a fill pattern
// written once per buffer, and a sequence number stamped on each message at O(1) cost.
// The host's transports (transport/io/message_pattern.h, which adds spans and a
// description) and the board program both stamp and check with these functions.
//
// Freestanding (core/README.md): plain C++17, no Abseil, no OS, no exceptions, no heap.
//
// Layout of an n-byte message (all integers little-endian):
//   n >= 16      bytes [0, 8): the sequence number; bytes [n-8, n): its bitwise
//                complement; bytes [8, n-8): the fill pattern.
//   8 <= n < 16  bytes [0, 8): the sequence number; bytes [8, n): the fill pattern.
//   1 <= n < 8   the low n bytes of the sequence number, nothing else. This stamp wraps
//                every 2^(8n) messages (every 256 for one byte): CheckEcho() takes the
//                sequence that matches those bytes and lies nearest the expected one,
//                so a gap of 2^(8n-1) or more (128 for one byte) is misread.
//   n == 0       nothing to check.
// Fill pattern: byte i is the top byte of (i * 0x9E3779B1) mod 2^32 (Fibonacci hashing),
// so neighbouring bytes differ and a stream that slips by any amount short of 4 GiB no
// longer matches it.
//
// What is promised:
//   * StampSequence() and EchoStampMatches() cost O(1) whatever the size: the measurement
//     loop stamps and checks every message, and its time must not grow with n beyond the
//     transport's own copies.
//   * CheckEcho(..., full_pattern = true) also compares every pattern byte (O(n)): for
//     tests and for diagnosing an echo that failed the O(1) check, never inside the loop.
// What is NOT promised:
//   * The O(1) check sees a change of the stamp bytes only: a corrupted byte between head
//     and tail passes it (the transports' own checksums and the full check cover those).
#ifndef CORE_MESSAGE_STAMP_H_
#define CORE_MESSAGE_STAMP_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace tickbench::core {

namespace stamp_internal {

inline constexpr size_t kStampBytes = 8;
inline constexpr size_t kTailFrom = 16;  // messages this long carry the tail stamp too

// Byte by byte, so that the layout does not depend on the target's byte order (for the
// short stamps of messages under 8 bytes).
inline void StoreLittleEndian(char* to, uint64_t value, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) to[i] = static_cast<char>(value >> (8 * i));
}

inline uint64_t LoadLittleEndian(const char* from, size_t bytes) {
  uint64_t value = 0;
  for (size_t i = 0; i < bytes; ++i) {
    value |= static_cast<uint64_t>(static_cast<unsigned char>(from[i])) << (8 * i);
  }
  return value;
}

// The whole 8-byte stamps: one unaligned store or load on a little-endian target (GCC does
// not merge the loops above into one), the loops elsewhere.
inline void Store64(char* to, uint64_t value) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::memcpy(to, &value, sizeof value);
#else
  StoreLittleEndian(to, value, kStampBytes);
#endif
}

inline uint64_t Load64(const char* from) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t value;
  std::memcpy(&value, from, sizeof value);
  return value;
#else
  return LoadLittleEndian(from, kStampBytes);
#endif
}

}  // namespace stamp_internal

// The pattern byte at offset `index` of every message (where no stamp covers it).
inline char PatternByte(size_t index) {
  return static_cast<char>((static_cast<uint32_t>(index) * 0x9E3779B1u) >> 24);
}

// Fills all `size` bytes of `message` with the pattern. Call once per buffer;
// StampSequence() then rewrites only the stamp bytes.
inline void FillPattern(char* message, size_t size) {
  for (size_t i = 0; i < size; ++i) message[i] = PatternByte(i);
}

// Writes `sequence` at the head and (n >= 16) its complement at the tail. O(1).
inline void StampSequence(char* message, size_t size, uint64_t sequence) {
  namespace si = stamp_internal;
  if (size < si::kStampBytes) {
    si::StoreLittleEndian(message, sequence, size);
    return;
  }
  si::Store64(message, sequence);
  if (size >= si::kTailFrom) si::Store64(message + size - si::kStampBytes, ~sequence);
}

// CheckEcho(received, size, expected_sequence, false).ok(), without the diagnosis: the
// measurement loop's test of every echo. It reads the stamp only; a false answer is for
// CheckEcho() to explain.
inline bool EchoStampMatches(const char* received, size_t size, uint64_t expected_sequence) {
  namespace si = stamp_internal;
  if (size < si::kStampBytes) {
    const uint64_t mask = size == 0 ? 0 : ~uint64_t{0} >> (64 - 8 * size);
    return si::LoadLittleEndian(received, size) == (expected_sequence & mask);
  }
  if (si::Load64(received) != expected_sequence) return false;
  return size < si::kTailFrom ||
         si::Load64(received + size - si::kStampBytes) == ~expected_sequence;
}

enum class CheckResult : uint8_t {
  kOk,
  // The stamp is intact but carries another sequence: seen < expected is a late or
  // duplicated message, seen > expected one that overtook or skipped others.
  kSequenceMismatch,
  // Head and tail disagree, or (full check) the pattern between them is wrong.
  kCorrupted,
};

struct MessageCheck {
  CheckResult result = CheckResult::kOk;
  uint64_t expected_sequence = 0;
  uint64_t seen_sequence = 0;  // the head's sequence (for kCorrupted: as read, unreliable)

  bool ok() const { return result == CheckResult::kOk; }
  bool late_or_duplicate() const {
    return result == CheckResult::kSequenceMismatch && seen_sequence < expected_sequence;
  }
  bool ahead() const {
    return result == CheckResult::kSequenceMismatch && seen_sequence > expected_sequence;
  }
};

namespace stamp_internal {

// The sequence whose low `bytes` bytes are `low` and which lies nearest `expected`
// (never below 0).
inline uint64_t NearestWithLowBytes(uint64_t low, uint64_t expected, size_t bytes) {
  const uint64_t modulus = uint64_t{1} << (8 * bytes);
  const uint64_t mask = modulus - 1;
  const uint64_t forward = (low - expected) & mask;  // steps from expected up to low
  if (forward < modulus / 2) return expected + forward;
  const uint64_t backward = modulus - forward;
  return backward <= expected ? expected - backward : expected + forward;
}

inline bool PatternIntact(const char* message, size_t from, size_t to) {
  bool intact = true;
  // No early exit: a branch-free loop the compiler can vectorise.
  for (size_t i = from; i < to; ++i) intact &= message[i] == PatternByte(i);
  return intact;
}

}  // namespace stamp_internal

// Checks an echoed message against `expected_sequence`. With `full_pattern` false only
// the stamp is read (O(1)); with it true every pattern byte is compared as well (O(n)).
inline MessageCheck CheckEcho(const char* received, size_t size, uint64_t expected_sequence,
                              bool full_pattern) {
  MessageCheck check;
  check.expected_sequence = expected_sequence;
  check.seen_sequence = expected_sequence;
  if (size == 0) return check;
  namespace si = stamp_internal;
  if (size < si::kStampBytes) {
    const uint64_t low = si::LoadLittleEndian(received, size);
    const uint64_t mask = (uint64_t{1} << (8 * size)) - 1;
    if (low != (expected_sequence & mask)) {
      check.result = CheckResult::kSequenceMismatch;
      check.seen_sequence = si::NearestWithLowBytes(low, expected_sequence, size);
    }
    return check;
  }
  const uint64_t head = si::LoadLittleEndian(received, si::kStampBytes);
  check.seen_sequence = head;
  if (size >= si::kTailFrom &&
      si::LoadLittleEndian(received + size - si::kStampBytes, si::kStampBytes) != ~head) {
    check.result = CheckResult::kCorrupted;
    return check;
  }
  if (full_pattern) {
    const size_t pattern_end = size >= si::kTailFrom ? size - si::kStampBytes : size;
    if (!si::PatternIntact(received, si::kStampBytes, pattern_end)) {
      check.result = CheckResult::kCorrupted;
      return check;
    }
  }
  if (head != expected_sequence) check.result = CheckResult::kSequenceMismatch;
  return check;
}

// "ok", "sequence 7 expected, 5 seen (late or duplicate)", "corrupted ...", written into
// `out` (at most `capacity` bytes with the terminating NUL, as snprintf does). Returns `out`.
inline const char* DescribeCheck(const MessageCheck& check, char* out, size_t capacity) {
  const unsigned long long expected = check.expected_sequence;
  switch (check.result) {
    case CheckResult::kOk:
      std::snprintf(out, capacity, "ok");
      break;
    case CheckResult::kSequenceMismatch:
      std::snprintf(out, capacity, "sequence %llu expected, %llu seen (%s)", expected,
                    static_cast<unsigned long long>(check.seen_sequence),
                    check.late_or_duplicate() ? "late or duplicate" : "ahead or skipped");
      break;
    case CheckResult::kCorrupted:
      std::snprintf(out, capacity, "corrupted message (sequence %llu expected)", expected);
      break;
  }
  return out;
}

}  // namespace tickbench::core

#endif  // CORE_MESSAGE_STAMP_H_
