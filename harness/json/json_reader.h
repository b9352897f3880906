#ifndef TICKBENCH_HARNESS_JSON_JSON_READER_H_
#define TICKBENCH_HARNESS_JSON_JSON_READER_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tickbench::harness {

// The JSON reader of the harness and its tests: RFC 8259 documents (objects, arrays, strings
// with every escape, numbers, true/false/null), nesting at most 64 deep. A \uXXXX escape
// becomes UTF-8, a surrogate pair one code point, a surrogate without its pair U+FFFD.
// Not checked: duplicate member names (kept, in order), UTF-8 of the text itself.

// A parsed value. Only the fields of its kind are meaningful; an object keeps its members in
// document order, duplicates included.
struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  bool integral = false;  // a number written without fraction or exponent
  std::string text;
  std::vector<JsonValue> items;
  std::vector<std::pair<std::string, JsonValue>> members;

  // The first member named `key` of an object; nullptr when there is none (or this is not
  // an object).
  const JsonValue* Get(absl::string_view key) const;
};

// The most values ParseJson keeps by default: a parsed value takes about 100 bytes, so a
// document holds at most about 0.5 GB however its text is written ("[0,0,0,...]" would
// otherwise take some 55 bytes per byte of text).
inline constexpr size_t kMaxJsonValues = 4'000'000;

// Parses `text` as one JSON value with nothing but white space after it. Errors are
// InvalidArgument "not JSON at byte N: <what>"; they never quote the text. More than
// `max_values` values (each number, string, array, object, true/false/null counts one) is
// InvalidArgument stating the limit. A SIGINT or SIGTERM (platform/stop_signal.h) is seen
// every 4096 values: Cancelled.
absl::StatusOr<JsonValue> ParseJson(absl::string_view text, size_t max_values = kMaxJsonValues);

// The number at object[group][key] (object[key] when `group` is empty); `fallback` when
// either is missing or the value is not a number.
double NumberAt(const JsonValue& object, absl::string_view group, absl::string_view key,
                double fallback = 0);

// The string at object[key]; "" when it is missing or not a string.
std::string StringAt(const JsonValue& object, absl::string_view key);

}  // namespace tickbench::harness

#endif  // TICKBENCH_HARNESS_JSON_JSON_READER_H_
