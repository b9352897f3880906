#include "harness/output/csv_field.h"

#include "harness/output/terminal_text.h"

namespace tickbench::harness {

std::string CsvField(absl::string_view text) {
  if (text.find_first_of(",\"\r\n") == absl::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string CsvText(absl::string_view text) { return CsvField(TerminalText(text)); }

}  // namespace tickbench::harness
