// The integrity stamp of an echoed message, for the host's transports: core/message_stamp.h
// (the layout, the same bytes on every target, and what is and is not promised) over
// spans, with a description of a failed check as a string.
#ifndef TRANSPORT_MESSAGE_PATTERN_H_
#define TRANSPORT_MESSAGE_PATTERN_H_

#include <cstdint>
#include <string>

#include "absl/types/span.h"
#include "core/message_stamp.h"

namespace tickbench::transport {

using core::CheckResult;
using core::MessageCheck;

// Fills all of `message` with the pattern. Call once per buffer; StampSequence() then
// rewrites only the stamp bytes.
inline void FillPattern(absl::Span<char> message) {
  core::FillPattern(message.data(), message.size());
}

// Writes `sequence` at the head and (n >= 16) its complement at the tail. O(1).
inline void StampSequence(absl::Span<char> message, uint64_t sequence) {
  core::StampSequence(message.data(), message.size(), sequence);
}

// Checks an echoed message against `expected_sequence`. With `full_pattern` false only
// the stamp is read (O(1)); with it true every pattern byte is compared as well (O(n)).
inline MessageCheck CheckEcho(absl::Span<const char> received, uint64_t expected_sequence,
                              bool full_pattern) {
  return core::CheckEcho(received.data(), received.size(), expected_sequence, full_pattern);
}

// CheckEcho(received, expected_sequence, false).ok(), without the diagnosis (O(1)).
inline bool EchoStampMatches(absl::Span<const char> received, uint64_t expected_sequence) {
  return core::EchoStampMatches(received.data(), received.size(), expected_sequence);
}

// "ok", "sequence 7 expected, 5 seen (late or duplicate)", "corrupted ...".
std::string Describe(const MessageCheck& check);

}  // namespace tickbench::transport

#endif  // TRANSPORT_MESSAGE_PATTERN_H_
