// A minimal streaming JSON writer: objects, arrays, strings (escaped), numbers (NaN and
// infinities become null, which JSON cannot otherwise express), booleans.
#ifndef HARNESS_JSON_JSON_WRITER_H_
#define HARNESS_JSON_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace tickbench::harness {

class JsonWriter {
 public:
  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  // Inside an object, every value is preceded by its key.
  void Key(absl::string_view key);
  void String(absl::string_view value);
  void Number(double value);
  void Integer(int64_t value);
  void Bool(bool value);

  // A member at once: Key(key) then the value.
  void StringField(absl::string_view key, absl::string_view value) {
    Key(key);
    String(value);
  }
  void NumberField(absl::string_view key, double value) {
    Key(key);
    Number(value);
  }
  void IntegerField(absl::string_view key, int64_t value) {
    Key(key);
    Integer(value);
  }
  void BoolField(absl::string_view key, bool value) {
    Key(key);
    Bool(value);
  }

  const std::string& text() const { return text_; }

 private:
  void BeforeValue();
  std::string text_;
  // One entry per open container: whether it has a member already (for the commas).
  std::vector<bool> has_member_;
  bool after_key_ = false;
};

// `value` written exactly, for JSON and CSV: a whole number below 2^53 as an integer
// ("1234567", never "1.23457e+06"), anything else in the fewest significant digits that
// read back to the same double ("1.0000259203", "0.1"); "nan", "inf" or "-inf" where not
// finite (the caller writes its own "no figure" there).
std::string ExactNumber(double value);

// `value` as a JSON string literal, quotes included, always valid UTF-8 whatever `value`
// holds (ForEachTextUnit, harness/output/terminal_text.h): " and \ escaped; tab, LF and CR
// as \t \n \r; every other control (C0, DEL, C1 such as U+009B, the bidirectional
// overrides and isolates such as U+202E) as \uXXXX, which reads back as the character but
// puts no raw control in the file; a byte that is not UTF-8 as \ufffd.
std::string JsonQuote(absl::string_view value);

}  // namespace tickbench::harness

#endif  // HARNESS_JSON_JSON_WRITER_H_
