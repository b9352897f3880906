#include "harness/json/json_writer.h"

#include <cmath>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/output/terminal_text.h"

namespace tickbench::harness {

std::string JsonQuote(absl::string_view value) {
  std::string out = "\"";
  ForEachTextUnit(value, [&out](absl::string_view bytes, TextUnit kind, uint32_t code_point) {
    if (kind == TextUnit::kInvalidByte) {
      out += "\\ufffd";  // JSON text is UTF-8: a byte that is not becomes U+FFFD
    } else if (kind == TextUnit::kControl) {
      switch (code_point) {
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        default:  // C0, DEL, C1 and the bidirectional controls: all below U+10000
          absl::StrAppendFormat(&out, "\\u%04x", code_point);
      }
    } else if (bytes == "\"" || bytes == "\\") {
      absl::StrAppend(&out, "\\", bytes);
    } else {
      out.append(bytes.data(), bytes.size());
    }
  });
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

std::string ExactNumber(double value) {
  if (!std::isfinite(value)) return std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
  if (value == std::floor(value) && std::fabs(value) < 0x1p53) {
    return absl::StrFormat("%.0f", value == 0 ? 0.0 : value);  // no "-0"
  }
  for (int digits = 1; digits < 17; ++digits) {
    const std::string text = absl::StrFormat("%.*g", digits, value);
    if (std::strtod(text.c_str(), nullptr) == value) return text;
  }
  return absl::StrFormat("%.17g", value);
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
