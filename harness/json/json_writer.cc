#include "harness/json/json_writer.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tickbench::harness {

std::string JsonQuote(absl::string_view value) {
  std::string out = "\"";
  for (char c : value) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          absl::StrAppendFormat(&out, "\\u%04x", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  out += "\"";
  return out;
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_member_.empty()) {
    if (has_member_.back()) text_ += ",";
    has_member_.back() = true;
  }
}

void JsonWriter::BeginObject() {
  BeforeValue();
  text_ += "{";
  has_member_.push_back(false);
}

void JsonWriter::EndObject() {
  text_ += "}";
  has_member_.pop_back();
}

void JsonWriter::BeginArray() {
  BeforeValue();
  text_ += "[";
  has_member_.push_back(false);
}

void JsonWriter::EndArray() {
  text_ += "]";
  has_member_.pop_back();
}

void JsonWriter::Key(absl::string_view key) {
  BeforeValue();
  absl::StrAppend(&text_, JsonQuote(key), ":");
  after_key_ = true;
}

void JsonWriter::String(absl::string_view value) {
  BeforeValue();
  text_ += JsonQuote(value);
}

void JsonWriter::Number(double value) {
  BeforeValue();
  if (!std::isfinite(value)) {
    text_ += "null";
  } else {
    absl::StrAppendFormat(&text_, "%.10g", value);
  }
}

void JsonWriter::Integer(int64_t value) {
  BeforeValue();
  absl::StrAppend(&text_, value);
}

void JsonWriter::Bool(bool value) {
  BeforeValue();
  text_ += value ? "true" : "false";
}

}  // namespace tickbench::harness
