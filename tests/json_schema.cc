#include "tests/json_schema.h"

#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"

namespace tickbench::testing {
namespace {

bool HasType(const JsonValue& value, const std::string& type) {
  const std::string actual = TypeName(value);
  return actual == type || (type == "number" && actual == "integer");
}

bool SameScalar(const JsonValue& a, const JsonValue& b) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case JsonValue::Type::kString:
      return a.string == b.string;
    case JsonValue::Type::kNumber:
      return a.number == b.number;
    case JsonValue::Type::kBool:
      return a.boolean == b.boolean;
    case JsonValue::Type::kNull:
      return true;
    default:
      return false;
  }
}

class Validator {
 public:
  explicit Validator(const JsonValue& root) : root_(root) {}

  void Check(const JsonValue& value, const JsonValue& schema, const std::string& path) {
    for (const auto& [keyword, argument] : schema.object) {
      if (kIgnored.count(keyword) > 0) continue;
      if (keyword == "$ref") {
        CheckRef(value, argument, path);
      } else if (keyword == "type") {
        CheckType(value, argument, path);
      } else if (keyword == "required") {
        for (const JsonValue& key : argument.array) {
          if (value.type == JsonValue::Type::kObject && value.Find(key.string) == nullptr) {
            Fail(path, absl::StrCat("required key '", key.string, "' missing"));
          }
        }
      } else if (keyword == "properties") {
        for (const auto& [name, sub] : argument.object) {
          if (const JsonValue* member = value.Find(name)) Check(*member, sub, path + "." + name);
        }
      } else if (keyword == "items") {
        for (size_t i = 0; i < value.array.size(); ++i) {
          Check(value.array[i], argument, absl::StrCat(path, "[", i, "]"));
        }
      } else if (keyword == "enum" || keyword == "const") {
        CheckAllowed(value, keyword == "enum" ? argument.array : std::vector<JsonValue>{argument},
                     path);
      } else if (keyword == "minimum") {
        if (value.type == JsonValue::Type::kNumber && value.number < argument.number) {
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
    absl::string_view name = ref.string;
    const JsonValue* defs = root_.Find("$defs");
    const JsonValue* target =
        absl::ConsumePrefix(&name, "#/$defs/") && defs != nullptr ? defs->Find(name) : nullptr;
    if (target == nullptr) return Fail(path, absl::StrCat("unresolved $ref ", ref.string));
    Check(value, *target, path);
  }

  void CheckType(const JsonValue& value, const JsonValue& type, const std::string& path) {
    std::vector<std::string> allowed;
    if (type.type == JsonValue::Type::kString) allowed.push_back(type.string);
    for (const JsonValue& t : type.array) allowed.push_back(t.string);
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
    Fail(path, absl::StrCat("value not allowed (", TypeName(value), " ", value.string, ")"));
  }

  void CheckOneOf(const JsonValue& value, const JsonValue& options, const std::string& path) {
    int matched = 0;
    std::vector<std::string> why;
    for (const JsonValue& option : options.array) {
      Validator sub(root_);
      sub.Check(value, option, path);
      if (sub.errors.empty()) {
        ++matched;
      } else {
        why.push_back(sub.errors.front());
      }
    }
    if (matched != 1) {
      Fail(path, absl::StrCat("matches ", matched, " of oneOf's ", options.array.size(),
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
