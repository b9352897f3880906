// Text from outside the program (the host's, CPU's and kernel's names, a clock's name, a
// peer's address) made safe for a terminal. The one escaping function of every renderer
// whose output may reach a terminal (the context lines, the tables); HTML and JSON have
// their own escaping.
#ifndef HARNESS_OUTPUT_TERMINAL_TEXT_H_
#define HARNESS_OUTPUT_TERMINAL_TEXT_H_

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace tickbench::harness {

// `text` with nothing a terminal acts on: printable ASCII and well-formed UTF-8 characters
// that print (U+00A0 and up: "µ" stays "µ") are kept; every other byte is written as
// \xNN: control bytes (C0 such as ESC, CR, LF, BS; DEL), C1 controls (U+0080..U+009F,
// CSI among them, raw or in UTF-8), the bidirectional overrides and isolates (U+202A..
// U+202E, U+2066..U+2069, which reorder what follows on the line) and bytes that are not
// UTF-8. A backslash becomes \\, so that an escape in the result always means one.
std::string TerminalText(absl::string_view text);

// The width in columns of the terminal on file descriptor `fd` (TIOCGWINSZ); 80 for a
// terminal that does not say; 0 where `fd` is not a terminal.
size_t TerminalColumns(int fd);

}  // namespace tickbench::harness

#endif  // HARNESS_OUTPUT_TERMINAL_TEXT_H_
