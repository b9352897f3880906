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

#include <cstdint>
#include <string>

#include "absl/types/span.h"

namespace tickbench::transport {

// Fills all of `message` with the pattern. Call once per buffer; StampSequence() then
// rewrites only the stamp bytes.
void FillPattern(absl::Span<char> message);

// Writes `sequence` at the head and (n >= 16) its complement at the tail. O(1).
void StampSequence(absl::Span<char> message, uint64_t sequence);

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

}  // namespace tickbench::transport

#endif  // TRANSPORT_MESSAGE_PATTERN_H_
