#include "transport/io/message_pattern.h"

#include <cstddef>

#include "absl/strings/str_format.h"

namespace tickbench::transport {
namespace {

using message_pattern_internal::kStampBytes;
using message_pattern_internal::kTailFrom;
using message_pattern_internal::LoadLittleEndian;
using message_pattern_internal::StoreLittleEndian;

inline char PatternByte(size_t index) {
  return static_cast<char>((static_cast<uint32_t>(index) * 0x9E3779B1u) >> 24);
}

// The sequence whose low `bytes` bytes are `low` and which lies nearest `expected`
// (never below 0).
uint64_t NearestWithLowBytes(uint64_t low, uint64_t expected, size_t bytes) {
  const uint64_t modulus = uint64_t{1} << (8 * bytes);
  const uint64_t mask = modulus - 1;
  const uint64_t forward = (low - expected) & mask;  // steps from expected up to low
  if (forward < modulus / 2) return expected + forward;
  const uint64_t backward = modulus - forward;
  return backward <= expected ? expected - backward : expected + forward;
}

bool PatternIntact(absl::Span<const char> message, size_t from, size_t to) {
  bool intact = true;
  // No early exit: a branch-free loop the compiler can vectorise.
  for (size_t i = from; i < to; ++i) intact &= message[i] == PatternByte(i);
  return intact;
}

}  // namespace

void FillPattern(absl::Span<char> message) {
  for (size_t i = 0; i < message.size(); ++i) message[i] = PatternByte(i);
}

MessageCheck CheckEcho(absl::Span<const char> received, uint64_t expected_sequence,
                       bool full_pattern) {
  MessageCheck check;
  check.expected_sequence = expected_sequence;
  check.seen_sequence = expected_sequence;
  const size_t n = received.size();
  if (n == 0) return check;
  if (n < kStampBytes) {
    const uint64_t low = LoadLittleEndian(received.data(), n);
    const uint64_t mask = (uint64_t{1} << (8 * n)) - 1;
    if (low != (expected_sequence & mask)) {
      check.result = CheckResult::kSequenceMismatch;
      check.seen_sequence = NearestWithLowBytes(low, expected_sequence, n);
    }
    return check;
  }
  const uint64_t head = LoadLittleEndian(received.data(), kStampBytes);
  check.seen_sequence = head;
  if (n >= kTailFrom && LoadLittleEndian(received.data() + n - kStampBytes, kStampBytes) != ~head) {
    check.result = CheckResult::kCorrupted;
    return check;
  }
  if (full_pattern) {
    const size_t pattern_end = n >= kTailFrom ? n - kStampBytes : n;
    if (!PatternIntact(received, kStampBytes, pattern_end)) {
      check.result = CheckResult::kCorrupted;
      return check;
    }
  }
  if (head != expected_sequence) check.result = CheckResult::kSequenceMismatch;
  return check;
}

std::string MessageCheck::ToString() const {
  switch (result) {
    case CheckResult::kOk:
      return "ok";
    case CheckResult::kSequenceMismatch:
      return absl::StrFormat("sequence %d expected, %d seen (%s)", expected_sequence, seen_sequence,
                             late_or_duplicate() ? "late or duplicate" : "ahead or skipped");
    case CheckResult::kCorrupted:
      return absl::StrFormat("corrupted message (sequence %d expected)", expected_sequence);
  }
  return "unknown";
}

}  // namespace tickbench::transport
