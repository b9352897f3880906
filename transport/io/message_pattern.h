// The integrity stamp of an echoed message: a fill pattern written once per buffer, and a
// sequence number stamped on each message at O(1) cost.
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
// A 16-byte message is all stamp: head s, tail ~s. Echo-peer control frames are 16
// bytes too; echo_peer.h explains why no stamped message can pass for one.
#ifndef TRANSPORT_MESSAGE_PATTERN_H_
#define TRANSPORT_MESSAGE_PATTERN_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/types/span.h"

namespace tickbench::transport {

namespace message_pattern_internal {

inline constexpr size_t kStampBytes = 8;
inline constexpr size_t kTailFrom = 16;  // messages this long carry the tail stamp too

// Byte by byte, so that the layout does not depend on the host's byte order (for the
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

// The whole 8-byte stamps: one unaligned store or load on a little-endian host (GCC does
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

}  // namespace message_pattern_internal

// Fills all of `message` with the pattern. Call once per buffer; StampSequence() then
// rewrites only the stamp bytes.
void FillPattern(absl::Span<char> message);

// Writes `sequence` at the head and (n >= 16) its complement at the tail. O(1). Inline:
// the measurement loop stamps every message.
inline void StampSequence(absl::Span<char> message, uint64_t sequence) {
  namespace mp = message_pattern_internal;
  const size_t n = message.size();
  if (n < mp::kStampBytes) {
    mp::StoreLittleEndian(message.data(), sequence, n);
    return;
  }
  mp::Store64(message.data(), sequence);
  if (n >= mp::kTailFrom) mp::Store64(message.data() + n - mp::kStampBytes, ~sequence);
}

enum class CheckResult {
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
  // "ok", "sequence 7 expected, 5 seen (late or duplicate)", "corrupted ...".
  std::string ToString() const;
};

// Checks an echoed message against `expected_sequence`. With `full_pattern` false only
// the stamp is read (O(1)); with it true every pattern byte is compared as well (O(n)).
MessageCheck CheckEcho(absl::Span<const char> received, uint64_t expected_sequence,
                       bool full_pattern);

// CheckEcho(received, expected_sequence, false).ok(), inline and without the diagnosis:
// the measurement loop's test of every echo. It reads the stamp only; a false answer is
// for CheckEcho() to explain.
inline bool EchoStampMatches(absl::Span<const char> received, uint64_t expected_sequence) {
  namespace mp = message_pattern_internal;
  const size_t n = received.size();
  if (n < mp::kStampBytes) {
    const uint64_t mask = n == 0 ? 0 : ~uint64_t{0} >> (64 - 8 * n);
    return mp::LoadLittleEndian(received.data(), n) == (expected_sequence & mask);
  }
  if (mp::Load64(received.data()) != expected_sequence) return false;
  return n < mp::kTailFrom ||
         mp::Load64(received.data() + n - mp::kStampBytes) == ~expected_sequence;
}

}  // namespace tickbench::transport

#endif  // TRANSPORT_MESSAGE_PATTERN_H_
