#include "harness/output/text_wrap.h"

#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

TEST(TextWrapTest, WidthCountsCharactersNotBytes) {
  EXPECT_EQ(DisplayWidth("± 4.4 µs"), 8u);
  EXPECT_EQ(std::string("± 4.4 µs").size(), 10u);
  EXPECT_EQ(PadLeft("± 1", 6), "   ± 1");
  EXPECT_EQ(PadRight("µs", 4), "µs  ");
  EXPECT_EQ(PadLeft("toolong", 3), "toolong");
}

TEST(TextWrapTest, WrapsAtTheLimitWithAHangingIndent) {
  const std::string text = "  one two three four five six seven eight nine ten\nshort\n";
  const std::string wrapped = WrapText(text, 20, 2);
  EXPECT_EQ(wrapped,
            "  one two three four\n"
            "    five six seven\n"
            "    eight nine ten\n"
            "short\n");
  for (absl::string_view line : absl::StrSplit(wrapped, '\n')) {
    EXPECT_LE(DisplayWidth(line), 20u) << line;
  }
}

TEST(TextWrapTest, KeepsLongWordsWholeAndCountsUtf8AsOneColumn) {
  EXPECT_EQ(WrapText("a abcdefghijkl b", 5), "a\nabcdefghijkl\nb");
  // Nine "±±" words of 2 characters (4 bytes): 3 a line at 8 columns.
  std::string text;
  for (int i = 0; i < 9; ++i) text += "±± ";
  const std::vector<std::string> lines = absl::StrSplit(WrapText(text, 8), '\n');
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "±± ±± ±±");
}

TEST(TextWrapTest, ShortLinesAreUnchanged) {
  EXPECT_EQ(WrapText("a b\n\n  c\n", 100), "a b\n\n  c\n");
  EXPECT_EQ(WrapText("", 100), "");
}

}  // namespace
}  // namespace tickbench::harness
