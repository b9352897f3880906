#include "harness/output/terminal_text.h"

#include <unistd.h>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

TEST(TerminalTextTest, KeepsPrintableAsciiAndPrintingUtf8) {
  EXPECT_EQ(TerminalText("Intel(R) Xeon(R) @ 2.10GHz"), "Intel(R) Xeon(R) @ 2.10GHz");
  EXPECT_EQ(TerminalText("r\xc3\xa9seau 5 \xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80"),
            "r\xc3\xa9seau 5 \xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80");
}

TEST(TerminalTextTest, EscapesEveryControlByteAndTheBackslash) {
  EXPECT_EQ(TerminalText("a\x1b[31mb"), "a\\x1b[31mb");
  EXPECT_EQ(TerminalText("\r\n\t\b\x7f"), "\\x0d\\x0a\\x09\\x08\\x7f");
  EXPECT_EQ(TerminalText(std::string("nul\0byte", 8)), "nul\\x00byte");
  EXPECT_EQ(TerminalText("a\\x1b"), "a\\\\x1b");  // not to be read as an escape
}

TEST(TerminalTextTest, EscapesC1ControlsRawOrInUtf8) {
  EXPECT_EQ(TerminalText("\x9b"
                         "31m"),
            "\\x9b31m");
  EXPECT_EQ(TerminalText("\xc2\x9b"
                         "31m"),
            "\\xc2\\x9b31m");                         // U+009B, CSI
  EXPECT_EQ(TerminalText("\xc2\x85"), "\\xc2\\x85");  // U+0085, next line
}

TEST(TerminalTextTest, EscapesBidirectionalOverridesAndIsolates) {
  EXPECT_EQ(TerminalText("a\xe2\x80\xae"
                         "b"),
            "a\\xe2\\x80\\xaeb");  // U+202E
  EXPECT_EQ(TerminalText("a\xe2\x81\xa6"
                         "b"),
            "a\\xe2\\x81\\xa6b");  // U+2066
}

TEST(TerminalTextTest, EscapesBytesThatAreNotUtf8) {
  EXPECT_EQ(TerminalText("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(TerminalText("\xc3"), "\\xc3");                    // cut short
  EXPECT_EQ(TerminalText("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
  EXPECT_EQ(TerminalText("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(TerminalText("\xe2\x82"
                         "A"),
            "\\xe2\\x82"
            "A");  // a continuation missing
}

// Not a terminal (a pipe): 0 columns, so that nothing is cut.
TEST(TerminalTextTest, ColumnsOfAPipeAreZero) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  EXPECT_EQ(TerminalColumns(fds[0]), 0u);
  EXPECT_EQ(TerminalColumns(fds[1]), 0u);
  close(fds[0]);
  close(fds[1]);
}

}  // namespace
}  // namespace tickbench::harness
