#include "harness/cli/size_list.h"

#include <cstdint>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace tickbench::harness {
namespace {

// Numbers above this are refused before any arithmetic: 2^40 bytes, far above any
// transport's largest message, and small enough that start + step never overflows.
constexpr uint64_t kMaxParsedSize = uint64_t{1} << 40;

absl::Status Bad(absl::string_view item, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrFormat(
      "--sizes: '%s' %s (write sizes in bytes, e.g. 32,512,1024 or 50:2000:50; 1k = 1024)",
      absl::CHexEscape(item), why));
}

// One number of bytes, with an optional k suffix. A number too large for the parser (or
// over 2^40 bytes) is "too large", and names `max_size_bytes`, the largest size allowed.
absl::StatusOr<uint64_t> ParseOneSize(absl::string_view text, size_t max_size_bytes) {
  absl::string_view digits = absl::StripAsciiWhitespace(text);
  uint64_t multiplier = 1;
  if (absl::ConsumeSuffix(&digits, "k") || absl::ConsumeSuffix(&digits, "K")) multiplier = 1024;
  if (digits.empty()) return Bad(text, "is not a whole number of bytes");
  for (const char c : digits) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) {
      return Bad(text, "is not a whole number of bytes");
    }
  }
  uint64_t value = 0;
  if (!absl::SimpleAtoi(digits, &value) || value > kMaxParsedSize / multiplier) {
    return Bad(text, absl::StrFormat("is too large; the largest size allowed is %d bytes",
                                     max_size_bytes));
  }
  return value * multiplier;
}

}  // namespace

absl::StatusOr<std::vector<size_t>> ParseSizeList(absl::string_view text, size_t max_size_bytes) {
  std::vector<size_t> sizes;
  uint64_t total = 0;  // sizes the list makes, kept or not (at most kMaxSweepSizes kept)
  if (absl::StripAsciiWhitespace(text).empty()) return Bad(text, "is empty");
  auto add = [&](uint64_t size, absl::string_view item) -> absl::Status {
    if (size == 0) return Bad(item, "contains a size of 0 bytes; sizes start at 1");
    if (size > max_size_bytes) {
      return Bad(item, absl::StrFormat("contains %d bytes, over the transport's largest message "
                                       "of %d bytes",
                                       size, max_size_bytes));
    }
    if (++total <= kMaxSweepSizes) sizes.push_back(size);
    return absl::OkStatus();
  };
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    if (absl::StripAsciiWhitespace(item).empty()) return Bad(text, "has an empty item");
    const std::vector<absl::string_view> parts = absl::StrSplit(item, ':');
    if (parts.size() == 1) {
      absl::StatusOr<uint64_t> size = ParseOneSize(parts[0], max_size_bytes);
      if (!size.ok()) return size.status();
      if (absl::Status s = add(*size, item); !s.ok()) return s;
      continue;
    }
    if (parts.size() != 3) return Bad(item, "is not a range start:stop:step");
    absl::StatusOr<uint64_t> start = ParseOneSize(parts[0], max_size_bytes);
    absl::StatusOr<uint64_t> stop = ParseOneSize(parts[1], max_size_bytes);
    absl::StatusOr<uint64_t> step = ParseOneSize(parts[2], max_size_bytes);
    for (const auto* part : {&start, &stop, &step}) {
      if (!part->ok()) return part->status();
    }
    if (*step == 0) return Bad(item, "has a step of 0");
    if (*start > *stop) return Bad(item, "starts above its stop");
    if ((*stop - *start) / *step >= kMaxSweepSizes) {
      total += (*stop - *start) / *step + 1;  // counted, not made
      continue;
    }
    for (uint64_t size = *start; size <= *stop; size += *step) {
      if (absl::Status s = add(size, item); !s.ok()) return s;
    }
  }
  if (total > kMaxSweepSizes) {  // one short line, whatever the list's length
    return absl::InvalidArgumentError(
        absl::StrFormat("--sizes: the list makes %d sizes, more than %d", total, kMaxSweepSizes));
  }
  return sizes;
}

}  // namespace tickbench::harness
