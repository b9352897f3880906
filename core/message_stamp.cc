#include "core/message_stamp.h"

#include <cstdio>

namespace tickbench::core {
namespace {

using stamp_internal::kStampBytes;
using stamp_internal::kTailFrom;
using stamp_internal::LoadLittleEndian;

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

bool PatternIntact(const char* message, size_t from, size_t to) {
  bool intact = true;
  // No early exit: a branch-free loop the compiler can vectorise.
  for (size_t i = from; i < to; ++i) intact &= message[i] == PatternByte(i);
  return intact;
}

}  // namespace

MessageCheck CheckEcho(const char* received, size_t size, uint64_t expected_sequence,
                       bool full_pattern) {
  MessageCheck check;
  check.expected_sequence = expected_sequence;
  check.seen_sequence = expected_sequence;
  if (size == 0) return check;
  if (size < kStampBytes) {
    const uint64_t low = LoadLittleEndian(received, size);
    const uint64_t mask = (uint64_t{1} << (8 * size)) - 1;
    if (low != (expected_sequence & mask)) {
      check.result = CheckResult::kSequenceMismatch;
      check.seen_sequence = NearestWithLowBytes(low, expected_sequence, size);
    }
    return check;
  }
  const uint64_t head = LoadLittleEndian(received, kStampBytes);
  check.seen_sequence = head;
  if (size >= kTailFrom && LoadLittleEndian(received + size - kStampBytes, kStampBytes) != ~head) {
    check.result = CheckResult::kCorrupted;
    return check;
  }
  if (full_pattern) {
    const size_t pattern_end = size >= kTailFrom ? size - kStampBytes : size;
    if (!PatternIntact(received, kStampBytes, pattern_end)) {
      check.result = CheckResult::kCorrupted;
      return check;
    }
  }
  if (head != expected_sequence) check.result = CheckResult::kSequenceMismatch;
  return check;
}

const char* DescribeCheck(const MessageCheck& check, char* out, size_t capacity) {
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
