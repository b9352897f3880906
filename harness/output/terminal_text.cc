#include "harness/output/terminal_text.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdint>

#include "absl/strings/str_format.h"

namespace tickbench::harness {
namespace {

// The length of the well-formed UTF-8 character at the start of `text` (2 to 4 bytes),
// and its code point; 0 when the bytes there are not one.
int Utf8Character(absl::string_view text, uint32_t& code_point) {
  const unsigned char lead = static_cast<unsigned char>(text[0]);
  int length = 0;
  uint32_t minimum = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, code_point = lead & 0x1F, minimum = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, code_point = lead & 0x0F, minimum = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, code_point = lead & 0x07, minimum = 0x10000;
  } else {
    return 0;
  }
  if (text.size() < static_cast<size_t>(length)) return 0;
  for (int i = 1; i < length; ++i) {
    const unsigned char next = static_cast<unsigned char>(text[i]);
    if ((next & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (next & 0x3F);
  }
  const bool surrogate = code_point >= 0xD800 && code_point <= 0xDFFF;
  if (code_point < minimum || code_point > 0x10FFFF || surrogate) return 0;
  return length;
}

// A character a terminal prints and does nothing else with.
bool Prints(uint32_t code_point) {
  if (code_point < 0xA0) return false;                             // C1 controls
  if (code_point >= 0x202A && code_point <= 0x202E) return false;  // bidirectional overrides
  if (code_point >= 0x2066 && code_point <= 0x2069) return false;  // bidirectional isolates
  return true;
}

}  // namespace

TextPiece FirstTextPiece(absl::string_view text) {
  const unsigned char c = static_cast<unsigned char>(text[0]);
  if (c < 0x80) {
    const bool prints = c >= 0x20 && c < 0x7F;
    return {text.substr(0, 1), prints ? TextUnit::kPrinting : TextUnit::kControl, c};
  }
  uint32_t code_point = 0;
  const int length = Utf8Character(text, code_point);
  if (length == 0) return {text.substr(0, 1), TextUnit::kInvalidByte, c};
  return {text.substr(0, length), Prints(code_point) ? TextUnit::kPrinting : TextUnit::kControl,
          code_point};
}

std::string TerminalText(absl::string_view text) {
  std::string safe;
  safe.reserve(text.size());
  ForEachTextUnit(text, [&safe](absl::string_view bytes, TextUnit kind, uint32_t) {
    if (kind == TextUnit::kPrinting) {
      if (bytes == "\\") {
        safe += "\\\\";
      } else {
        safe.append(bytes.data(), bytes.size());
      }
      return;
    }
    // A control or a byte that is not UTF-8: each of its bytes escaped.
    for (const char b : bytes)
      absl::StrAppendFormat(&safe, "\\x%02x", static_cast<unsigned char>(b));
  });
  return safe;
}

size_t TerminalColumns(int fd) {
  if (!isatty(fd)) return 0;
  winsize size{};
  if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) return 80;
  return size.ws_col;
}

}  // namespace tickbench::harness
