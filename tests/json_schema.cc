#include "tests/json_schema.h"

#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"

namespace tickbench::testing {
namespace {

using harness::JsonValue;

// "null", "boolean", "number" ("integer" when integral), "string", "array", "object".
std::string TypeName(const JsonValue& value) {
  switch (value.kind) {
    case JsonValue::Kind::kNull:
      return "null";
    case JsonValue::Kind::kBool:
      return "boolean";
    case JsonValue::Kind::kNumber:
      return value.integral ? "integer" : "number";
    case JsonValue::Kind::kString:
      return "string";
    case JsonValue::Kind::kArray:
      return "array";
    case JsonValue::Kind::kObject:
      return "object";
  }
  return "?";
}

bool HasType(const JsonValue& value, const std::string& type) {
  const std::string actual = TypeName(value);
  return actual == type || (type == "number" && actual == "integer");
}

bool SameScalar(const JsonValue& a, const JsonValue& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case JsonValue::Kind::kString:
      return a.text == b.text;
    case JsonValue::Kind::kNumber:
      return a.number == b.number;
    case JsonValue::Kind::kBool:
      return a.boolean == b.boolean;
    case JsonValue::Kind::kNull:
      return true;
    default:
      return false;
  }
}

class Validator {
 public:
  explicit Validator(const JsonValue& root) : root_(root) {}

  void Check(const JsonValue& value, const JsonValue& schema, const std::string& path) {
    for (const auto& [keyword, argument] : schema.members) {
      if (kIgnored.count(keyword) > 0) continue;
      if (keyword == "$ref") {
        CheckRef(value, argument, path);
      } else if (keyword == "type") {
        CheckType(value, argument, path);
      } else if (keyword == "required") {
        for (const JsonValue& key : argument.items) {
          if (value.kind == JsonValue::Kind::kObject && value.Get(key.text) == nullptr) {
            Fail(path, absl::StrCat("required key '", key.text, "' missing"));
          }
        }
      } else if (keyword == "properties") {
        for (const auto& [name, sub] : argument.members) {
          if (const JsonValue* member = value.Get(name)) Check(*member, sub, path + "." + name);
        }
      } else if (keyword == "items") {
        for (size_t i = 0; i < value.items.size(); ++i) {
          Check(value.items[i], argument, absl::StrCat(path, "[", i, "]"));
        }
      } else if (keyword == "enum" || keyword == "const") {
        CheckAllowed(value, keyword == "enum" ? argument.items : std::vector<JsonValue>{argument},
                     path);
      } else if (keyword == "minimum") {
        if (value.kind == JsonValue::Kind::kNumber && value.number < argument.number) {
          Fail(path, absl::StrCat(value.number, " is below the minimum ", argument.number));
        }
      } else if (keyword == "oneOf") {
        CheckOneOf(value, argument, path);
      } else {
        Fail(path, absl::StrCat("the schema uses '", keyword, "', which is not checked"));
      }
    }
  }

  std::vector<std::string> errors;

 private:
  // Annotations: they check nothing.
  const std::set<std::string> kIgnored = {"$schema", "$id",         "$defs",
                                          "title",   "description", "$comment"};

  void Fail(const std::string& path, const std::string& what) {
    errors.push_back(absl::StrCat(path, ": ", what));
  }

  void CheckRef(const JsonValue& value, const JsonValue& ref, const std::string& path) {
    absl::string_view name = ref.text;
    const JsonValue* defs = root_.Get("$defs");
    const JsonValue* target =
        absl::ConsumePrefix(&name, "#/$defs/") && defs != nullptr ? defs->Get(name) : nullptr;
    if (target == nullptr) return Fail(path, absl::StrCat("unresolved $ref ", ref.text));
    Check(value, *target, path);
  }

  void CheckType(const JsonValue& value, const JsonValue& type, const std::string& path) {
    std::vector<std::string> allowed;
    if (type.kind == JsonValue::Kind::kString) allowed.push_back(type.text);
    for (const JsonValue& t : type.items) allowed.push_back(t.text);
    for (const std::string& t : allowed) {
      if (HasType(value, t)) return;
    }
    Fail(path,
         absl::StrCat(TypeName(value), " where ", absl::StrJoin(allowed, " or "), " is expected"));
  }

  void CheckAllowed(const JsonValue& value, const std::vector<JsonValue>& allowed,
                    const std::string& path) {
    for (const JsonValue& a : allowed) {
      if (SameScalar(value, a)) return;
    }
    Fail(path, absl::StrCat("value not allowed (", TypeName(value), " ", value.text, ")"));
  }

  void CheckOneOf(const JsonValue& value, const JsonValue& options, const std::string& path) {
    int matched = 0;
    std::vector<std::string> why;
    for (const JsonValue& option : options.items) {
      Validator sub(root_);
      sub.Check(value, option, path);
      if (sub.errors.empty()) {
        ++matched;
      } else {
        why.push_back(sub.errors.front());
      }
    }
    if (matched != 1) {
      Fail(path, absl::StrCat("matches ", matched, " of oneOf's ", options.items.size(),
                              " schemas (", absl::StrJoin(why, "; "), ")"));
    }
  }

  const JsonValue& root_;
};

}  // namespace

std::vector<std::string> ValidateJson(const JsonValue& document, const JsonValue& schema,
                                      const JsonValue& root) {
  Validator validator(root);
  validator.Check(document, schema, "$");
  return validator.errors;
}

}  // namespace tickbench::testing
