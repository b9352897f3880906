#include "fuzz/fuzz_text.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

namespace tickbench::fuzz {

bool HasControlOrHighByte(absl::string_view text) {
  for (const char c : text) {
    const unsigned char byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f) return true;
  }
  return false;
}

bool HasControlByte(absl::string_view text) {
  for (const char c : text) {
    const unsigned char byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n') || byte == 0x7f) return true;
  }
  return false;
}

bool PrintsNonFinite(absl::string_view text) {
  auto letter = [&](size_t i) {
    return i < text.size() && absl::ascii_isalpha(static_cast<unsigned char>(text[i]));
  };
  for (size_t i = 0; i + 3 <= text.size(); ++i) {
    const absl::string_view word = text.substr(i, 3);
    if (!absl::EqualsIgnoreCase(word, "nan") && !absl::EqualsIgnoreCase(word, "inf")) continue;
    if ((i == 0 || !letter(i - 1)) && !letter(i + 3)) return true;
  }
  return false;
}

}  // namespace tickbench::fuzz
