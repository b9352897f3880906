// Text for a terminal: widths counted in characters (UTF-8 code points, each one column:
// the tables print "±" and "µ", never wide or combining characters), padding by those
// widths, and word wrapping of prose at a column limit.
#ifndef HARNESS_OUTPUT_TEXT_WRAP_H_
#define HARNESS_OUTPUT_TEXT_WRAP_H_

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace tickbench::harness {

// The lines of a table for people fit this many columns (--wide aside).
inline constexpr size_t kTableColumns = 100;

// Characters in `text` (UTF-8 code points; continuation bytes do not count).
size_t DisplayWidth(absl::string_view text);

// `text` padded with spaces to `width` characters: on the left (right-aligned) or on the
// right (left-aligned). Text already as wide or wider is returned unchanged.
std::string PadLeft(absl::string_view text, size_t width);
std::string PadRight(absl::string_view text, size_t width);

// Each line of `text` wrapped at `width` characters on spaces: a continuation line starts
// with the line's own leading spaces plus `hanging` more. A word longer than a line stays
// whole on a line of its own. Lines end in '\n' as they did (a last line without one
// stays without).
std::string WrapText(absl::string_view text, size_t width = kTableColumns, size_t hanging = 0);

}  // namespace tickbench::harness

#endif  // HARNESS_OUTPUT_TEXT_WRAP_H_
