// One CSV field (RFC 4180): text holding a comma, a double quote, a CR or a LF is put in
// double quotes, each double quote in it doubled; other text is written as it is. The one
// quoting of every CSV the program writes. Text from outside the program that may reach a
// terminal is made safe first (TerminalText, terminal_text.h): this adds no escaping of
// its own.
#ifndef HARNESS_OUTPUT_CSV_FIELD_H_
#define HARNESS_OUTPUT_CSV_FIELD_H_

#include <string>

#include "absl/strings/string_view.h"

namespace tickbench::harness {

std::string CsvField(absl::string_view text);

// Text from outside the program (an error, a clock's spec, a host's name) as one CSV field:
// CsvField(TerminalText(text)), so that no control, bidirectional override or byte that is
// not UTF-8 reaches the file or the terminal it is printed on, and no line break splits a
// record.
std::string CsvText(absl::string_view text);

}  // namespace tickbench::harness

#endif  // HARNESS_OUTPUT_CSV_FIELD_H_
