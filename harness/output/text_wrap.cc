#include "harness/output/text_wrap.h"

#include <vector>

#include "absl/strings/str_split.h"

namespace tickbench::harness {
namespace {

// One line (no '\n') wrapped into `out`, each piece ending in '\n'.
void WrapLine(absl::string_view line, size_t width, size_t hanging, std::string& out) {
  const size_t indent = line.find_first_not_of(' ');
  if (indent == absl::string_view::npos || DisplayWidth(line) <= width) {
    out.append(line.data(), line.size());
    out += '\n';
    return;
  }
  const std::string first_prefix(indent, ' ');
  const std::string next_prefix(indent + hanging, ' ');
  std::string current = first_prefix;
  size_t current_width = indent;
  bool empty = true;  // no word on `current` yet
  for (absl::string_view word : absl::StrSplit(line.substr(indent), ' ', absl::SkipEmpty())) {
    const size_t w = DisplayWidth(word);
    if (!empty && current_width + 1 + w > width) {
      out += current + '\n';
      current = next_prefix;
      current_width = next_prefix.size();
      empty = true;
    }
    if (!empty) {
      current += ' ';
      ++current_width;
    }
    current.append(word.data(), word.size());
    current_width += w;
    empty = false;
  }
  out += current + '\n';
}

}  // namespace

size_t DisplayWidth(absl::string_view text) {
  size_t width = 0;
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++width;
  }
  return width;
}

std::string PadLeft(absl::string_view text, size_t width) {
  const size_t w = DisplayWidth(text);
  std::string padded(w < width ? width - w : 0, ' ');
  padded.append(text.data(), text.size());
  return padded;
}

std::string PadRight(absl::string_view text, size_t width) {
  const size_t w = DisplayWidth(text);
  std::string padded(text);
  padded.append(w < width ? width - w : 0, ' ');
  return padded;
}

std::string WrapText(absl::string_view text, size_t width, size_t hanging) {
  std::string out;
  const std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i + 1 == lines.size() && lines[i].empty()) break;  // text ended in '\n'
    WrapLine(lines[i], width, hanging, out);
  }
  if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

}  // namespace tickbench::harness
