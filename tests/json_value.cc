#include "tests/json_value.h"

#include <cctype>
#include <cstdlib>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tickbench::testing {
namespace {

class Parser {
 public:
  explicit Parser(absl::string_view text) : text_(text) {}

  absl::StatusOr<JsonValue> Document() {
    JsonValue value;
    if (absl::Status s = Value(value, 0); !s.ok()) return s;
    SkipSpace();
    if (pos_ != text_.size()) return Error("trailing characters");
    return value;
  }

 private:
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat("JSON: ", what, " at byte ", pos_));
  }
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Consume(absl::string_view literal) {
    if (text_.substr(pos_, literal.size()) != literal) return false;
    pos_ += literal.size();
    return true;
  }

  absl::Status Value(JsonValue& value, int depth) {
    if (depth > 64) return Error("nested too deep");
    SkipSpace();
    if (pos_ >= text_.size()) return Error("unexpected end");
    const char c = text_[pos_];
    if (c == '{') return Object(value, depth);
    if (c == '[') return Array(value, depth);
    if (c == '"') {
      value.type = JsonValue::Type::kString;
      return String(value.string);
    }
    if (Consume("true") || Consume("false")) {
      value.type = JsonValue::Type::kBool;
      value.boolean = c == 't';
      return absl::OkStatus();
    }
    if (Consume("null")) return absl::OkStatus();
    return Number(value);
  }

  absl::Status Number(JsonValue& value) {
    const size_t start = pos_;
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    bool integral = true, digits = false;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        digits = true;
      } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
        integral = false;
      } else {
        break;
      }
      ++pos_;
    }
    if (!digits) return Error("not a value");
    const std::string number(text_.substr(start, pos_ - start));
    char* end = nullptr;
    value.number = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size()) return Error("bad number");
    value.type = JsonValue::Type::kNumber;
    value.integral = integral;
    return absl::OkStatus();
  }

  absl::Status String(std::string& out) {
    ++pos_;  // the opening quote
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (static_cast<unsigned char>(c) < 0x20) return Error("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) break;
      c = text_[pos_++];
      switch (c) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'u': {
          if (pos_ + 4 > text_.size()) return Error("short \\u escape");
          const unsigned code =
              std::strtoul(std::string(text_.substr(pos_, 4)).c_str(), nullptr, 16);
          pos_ += 4;
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
          }
          break;
        }
        default:
          out += c;  // \" \\ \/
      }
    }
    if (pos_ >= text_.size()) return Error("unterminated string");
    ++pos_;
    return absl::OkStatus();
  }

  absl::Status Array(JsonValue& value, int depth) {
    value.type = JsonValue::Type::kArray;
    ++pos_;
    SkipSpace();
    if (Consume("]")) return absl::OkStatus();
    while (true) {
      value.array.emplace_back();
      if (absl::Status s = Value(value.array.back(), depth + 1); !s.ok()) return s;
      SkipSpace();
      if (Consume("]")) return absl::OkStatus();
      if (!Consume(",")) return Error("expected , or ]");
    }
  }

  absl::Status Object(JsonValue& value, int depth) {
    value.type = JsonValue::Type::kObject;
    ++pos_;
    SkipSpace();
    if (Consume("}")) return absl::OkStatus();
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') return Error("expected a key");
      std::string key;
      if (absl::Status s = String(key); !s.ok()) return s;
      SkipSpace();
      if (!Consume(":")) return Error("expected :");
      value.object.emplace_back(std::move(key), JsonValue());
      if (absl::Status s = Value(value.object.back().second, depth + 1); !s.ok()) return s;
      SkipSpace();
      if (Consume("}")) return absl::OkStatus();
      if (!Consume(",")) return Error("expected , or }");
    }
  }

  absl::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

const JsonValue* JsonValue::Find(absl::string_view key) const {
  for (const auto& [name, member] : object) {
    if (name == key) return &member;
  }
  return nullptr;
}

absl::StatusOr<JsonValue> ParseJson(absl::string_view text) { return Parser(text).Document(); }

std::string TypeName(const JsonValue& value) {
  switch (value.type) {
    case JsonValue::Type::kNull:
      return "null";
    case JsonValue::Type::kBool:
      return "boolean";
    case JsonValue::Type::kNumber:
      return value.integral ? "integer" : "number";
    case JsonValue::Type::kString:
      return "string";
    case JsonValue::Type::kArray:
      return "array";
    case JsonValue::Type::kObject:
      return "object";
  }
  return "?";
}

}  // namespace tickbench::testing
