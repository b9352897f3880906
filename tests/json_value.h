// A small JSON reader for tests: parses a whole document into a tree, so that a test can
// check what a report holds (keys, types, values) instead of searching its text.
// Promised: RFC 8259 documents (objects, arrays, strings with escapes including \uXXXX in
// the Basic Multilingual Plane, numbers, true, false, null); trailing garbage, a missing
// comma or an unterminated string is an InvalidArgument naming the byte offset.
// Not promised: surrogate pairs joined, duplicate keys detected, speed.
#ifndef TESTS_JSON_VALUE_H_
#define TESTS_JSON_VALUE_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tickbench::testing {

struct JsonValue {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };
  Type type = Type::kNull;
  bool boolean = false;
  double number = 0;
  bool integral = false;  // a number written without fraction or exponent
  std::string string;
  std::vector<JsonValue> array;
  std::vector<std::pair<std::string, JsonValue>> object;  // in document order

  // The member named `key` of an object, or nullptr.
  const JsonValue* Find(absl::string_view key) const;
};

absl::StatusOr<JsonValue> ParseJson(absl::string_view text);

// "null", "boolean", "number" ("integer" when integral), "string", "array", "object".
std::string TypeName(const JsonValue& value);

}  // namespace tickbench::testing

#endif  // TESTS_JSON_VALUE_H_
