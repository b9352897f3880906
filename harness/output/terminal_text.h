// Text from outside the program (the host's, CPU's and kernel's names, a clock's name, a
// peer's address) made safe for each format it is written in. ForEachTextUnit is the one
// classification of such text, which every writer's escaping renders in its own format:
//   * a terminal (and CSV, CsvText in csv_field.h): TerminalText below;
//   * JSON: JsonQuote (harness/json/json_writer.h), valid UTF-8 with the controls escaped;
//   * HTML: HtmlEscape (harness/page/report_page.h), the controls as visible \xNN.
// So a C1 control (8-bit CSI 0x9b, raw or as U+009B), a bidirectional override (U+202E)
// or a byte that is not UTF-8 reaches no output raw.
#ifndef HARNESS_OUTPUT_TERMINAL_TEXT_H_
#define HARNESS_OUTPUT_TERMINAL_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace tickbench::harness {

// What each piece of untrusted text is.
enum class TextUnit {
  kPrinting,     // printable ASCII, or a well-formed UTF-8 character that prints (U+00A0
                 // and up, but for the bidirectional controls)
  kControl,      // a well-formed character that is a control: C0 (tab, LF, ESC...), DEL,
                 // C1 (U+0080..U+009F), the bidirectional overrides and isolates
                 // (U+202A..U+202E, U+2066..U+2069, which reorder what follows on the line)
  kInvalidByte,  // one byte that is not part of well-formed UTF-8
};

// One piece of text: its bytes, what it is, and its code point (the byte's value for
// kInvalidByte).
struct TextPiece {
  absl::string_view bytes;
  TextUnit kind;
  uint32_t code_point;
};

// The piece `text` (not empty) starts with.
TextPiece FirstTextPiece(absl::string_view text);

// Calls `unit(bytes, kind, code_point)` with each piece of `text` in order; the pieces'
// bytes make up `text` exactly.
template <typename Unit>
void ForEachTextUnit(absl::string_view text, Unit unit) {
  while (!text.empty()) {
    const TextPiece piece = FirstTextPiece(text);
    unit(piece.bytes, piece.kind, piece.code_point);
    text.remove_prefix(piece.bytes.size());
  }
}

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
