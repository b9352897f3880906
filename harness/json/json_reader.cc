#include "harness/json/json_reader.h"

#include <cstdlib>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"
#include "platform/stop_signal.h"

namespace tickbench::harness {
namespace {

constexpr int kMaxJsonDepth = 64;

// `code` (at most U+10FFFF) as UTF-8.
void AppendUtf8(unsigned code, std::string& out) {
  if (code < 0x80) {
    out += static_cast<char>(code);
    return;
  }
  if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
  }
  out += static_cast<char>(0x80 | (code & 0x3F));
}

class JsonParser {
 public:
  JsonParser(absl::string_view text, size_t max_values) : text_(text), max_values_(max_values) {}

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
    if (++values_ > max_values_) {
      return Error(absl::StrFormat("more than %d values, the most a file may hold", max_values_));
    }
    if (values_ % 4096 == 0) TICKBENCH_RETURN_IF_STOPPED("reading JSON");
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

  // RFC 8259's number: [-] (0 | [1-9][0-9]*) [. [0-9]+] [(e|E) [+|-] [0-9]+].
  absl::Status ParseNumber(JsonValue& value) {
    const size_t start = pos_;
    Consume("-");
    if (!Consume("0") && SkipDigits() == 0) {
      pos_ = start;
      return Error(start < text_.size() && text_[start] != '-' ? "expected a value"
                                                               : "malformed number");
    }
    bool integral = true;
    if (Consume(".")) {
      integral = false;
      if (SkipDigits() == 0) return Error("malformed number");
    }
    if (Consume("e") || Consume("E")) {
      integral = false;
      if (!Consume("+")) Consume("-");
      if (SkipDigits() == 0) return Error("malformed number");
    }
    const std::string number(text_.substr(start, pos_ - start));
    value.number = std::strtod(number.c_str(), nullptr);
    value.integral = integral;
    value.kind = JsonValue::Kind::kNumber;
    return absl::OkStatus();
  }

  size_t SkipDigits() {
    const size_t start = pos_;
    while (pos_ < text_.size() && absl::ascii_isdigit(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
    return pos_ - start;
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
      if (e == 'u') {
        if (absl::Status s = ParseUnicodeEscape(out); !s.ok()) return s;
        continue;
      }
      const char* const from = "\"\\/bfnrt";
      const char* const to = "\"\\/\b\f\n\r\t";
      const char* const at = std::strchr(from, e);
      if (e == '\0' || at == nullptr) return Error("bad escape in a string");
      out += to[at - from];
    }
    return Error("unterminated string");
  }

  // The four hex digits of a \uXXXX escape; false when they are not there.
  bool ReadHex4(unsigned& code) {
    if (pos_ + 4 > text_.size()) return false;
    code = 0;
    for (int i = 0; i < 4; ++i) {
      const unsigned char h = static_cast<unsigned char>(text_[pos_ + i]);
      if (!absl::ascii_isxdigit(h)) return false;
      code = code * 16 + (absl::ascii_isdigit(h) ? h - '0' : absl::ascii_tolower(h) - 'a' + 10);
    }
    pos_ += 4;
    return true;
  }

  // After "\u": the code point in UTF-8. A high surrogate followed by \uXXXX with a low one
  // is one code point above U+FFFF (RFC 8259, section 7); a surrogate without its pair is
  // U+FFFD, the replacement character.
  absl::Status ParseUnicodeEscape(std::string& out) {
    unsigned code = 0;
    if (!ReadHex4(code)) return Error("bad \\u escape");
    if (code >= 0xD800 && code < 0xDC00) {
      const size_t after_high = pos_;
      unsigned low = 0;
      if (Consume("\\u") && ReadHex4(low) && low >= 0xDC00 && low < 0xE000) {
        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
      } else {
        pos_ = after_high;
        code = 0xFFFD;
      }
    } else if (code >= 0xDC00 && code < 0xE000) {
      code = 0xFFFD;
    }
    AppendUtf8(code, out);
    return absl::OkStatus();
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
  size_t max_values_;
  size_t values_ = 0;
  size_t pos_ = 0;
};

}  // namespace

const JsonValue* JsonValue::Get(absl::string_view key) const {
  for (const auto& [name, value] : members)
    if (name == key) return &value;
  return nullptr;
}

absl::StatusOr<JsonValue> ParseJson(absl::string_view text, size_t max_values) {
  return JsonParser(text, max_values).ParseDocument();
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
