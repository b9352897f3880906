#include "harness/json/json_reader.h"

#include <cstdlib>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"

namespace tickbench::harness {
namespace {

constexpr int kMaxJsonDepth = 64;

class JsonParser {
 public:
  explicit JsonParser(absl::string_view text) : text_(text) {}

  absl::StatusOr<JsonValue> ParseDocument() {
    JsonValue value;
    if (absl::Status s = Parse(value, 0); !s.ok()) return s;
    SkipSpace();
    if (pos_ != text_.size()) return Error("text after the JSON value");
    return value;
  }

 private:
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrFormat("not JSON at byte %d: %s", pos_, what));
  }
  void SkipSpace() {
    while (pos_ < text_.size() && absl::ascii_isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  bool Consume(absl::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  absl::Status Parse(JsonValue& value, int depth) {
    if (depth > kMaxJsonDepth) return Error("nested too deeply");
    SkipSpace();
    if (pos_ >= text_.size()) return Error("unexpected end");
    const char c = text_[pos_];
    if (c == '{') return ParseObject(value, depth);
    if (c == '[') return ParseArray(value, depth);
    if (c == '"') {
      value.kind = JsonValue::Kind::kString;
      return ParseString(value.text);
    }
    if (Consume("true") || Consume("false")) {
      value.kind = JsonValue::Kind::kBool;
      value.boolean = text_[pos_ - 1] == 'e' && text_[pos_ - 2] == 'u';
      return absl::OkStatus();
    }
    if (Consume("null")) return absl::OkStatus();
    return ParseNumber(value);
  }

  absl::Status ParseNumber(JsonValue& value) {
    const size_t start = pos_;
    while (pos_ < text_.size() &&
           (absl::ascii_isdigit(static_cast<unsigned char>(text_[pos_])) ||
            absl::string_view("+-.eE").find(text_[pos_]) != absl::string_view::npos)) {
      ++pos_;
    }
    if (pos_ == start) return Error("expected a value");
    const std::string number(text_.substr(start, pos_ - start));
    char* end = nullptr;
    value.number = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size()) {
      pos_ = start;
      return Error("malformed number");
    }
    value.kind = JsonValue::Kind::kNumber;
    return absl::OkStatus();
  }

  absl::Status ParseString(std::string& out) {
    ++pos_;  // the quote
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return absl::OkStatus();
      if (static_cast<unsigned char>(c) < 0x20) return Error("control byte in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) break;
      const char e = text_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          if (pos_ + 4 > text_.size()) return Error("short \\u escape");
          unsigned code = 0;
          for (int i = 0; i < 4; ++i) {
            const char h = text_[pos_++];
            if (!absl::ascii_isxdigit(static_cast<unsigned char>(h)))
              return Error("bad \\u escape");
            code =
                code * 16 + (absl::ascii_isdigit(static_cast<unsigned char>(h))
                                 ? h - '0'
                                 : absl::ascii_tolower(static_cast<unsigned char>(h)) - 'a' + 10);
          }
          // Names and values compared here are ASCII; anything else is kept as '?'.
          out += code < 0x80 ? static_cast<char>(code) : '?';
          break;
        }
        default:
          return Error("bad escape in a string");
      }
    }
    return Error("unterminated string");
  }

  absl::Status ParseArray(JsonValue& value, int depth) {
    value.kind = JsonValue::Kind::kArray;
    ++pos_;
    SkipSpace();
    if (Consume("]")) return absl::OkStatus();
    for (;;) {
      value.items.emplace_back();
      if (absl::Status s = Parse(value.items.back(), depth + 1); !s.ok()) return s;
      SkipSpace();
      if (Consume("]")) return absl::OkStatus();
      if (!Consume(",")) return Error("expected , or ] in an array");
    }
  }

  absl::Status ParseObject(JsonValue& value, int depth) {
    value.kind = JsonValue::Kind::kObject;
    ++pos_;
    SkipSpace();
    if (Consume("}")) return absl::OkStatus();
    for (;;) {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') return Error("expected a member name");
      std::string name;
      if (absl::Status s = ParseString(name); !s.ok()) return s;
      SkipSpace();
      if (!Consume(":")) return Error("expected : after a member name");
      JsonValue member;
      if (absl::Status s = Parse(member, depth + 1); !s.ok()) return s;
      value.members.emplace_back(std::move(name), std::move(member));
      SkipSpace();
      if (Consume("}")) return absl::OkStatus();
      if (!Consume(",")) return Error("expected , or } in an object");
    }
  }

  absl::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

const JsonValue* JsonValue::Get(absl::string_view key) const {
  for (const auto& [name, value] : members)
    if (name == key) return &value;
  return nullptr;
}

absl::StatusOr<JsonValue> ParseJson(absl::string_view text) {
  return JsonParser(text).ParseDocument();
}

double NumberAt(const JsonValue& object, absl::string_view group, absl::string_view key,
                double fallback) {
  const JsonValue* g = group.empty() ? &object : object.Get(group);
  if (g == nullptr) return fallback;
  const JsonValue* v = g->Get(key);
  return v != nullptr && v->kind == JsonValue::Kind::kNumber ? v->number : fallback;
}

std::string StringAt(const JsonValue& object, absl::string_view key) {
  const JsonValue* v = object.Get(key);
  return v != nullptr && v->kind == JsonValue::Kind::kString ? v->text : "";
}

}  // namespace tickbench::harness
