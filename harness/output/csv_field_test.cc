#include "harness/output/csv_field.h"

#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

TEST(CsvFieldTest, PlainTextIsWrittenAsItIs) {
  EXPECT_EQ(CsvField("alpha-1.example"), "alpha-1.example");
  EXPECT_EQ(CsvField(""), "");
}

TEST(CsvFieldTest, ACommaQuoteOrLineBreakIsQuotedWithQuotesDoubled) {
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(CsvField("cr\r"), "\"cr\r\"");
}

// Text from outside the program: no control, C1, bidirectional override or byte that is
// not UTF-8 reaches the CSV raw, and no line break splits its record.
TEST(CsvTextTest, UntrustedTextIsMadeSafeThenQuoted) {
  EXPECT_EQ(CsvText("peer \x9b"
                    "31m,\xe2\x80\xae\n"),
            "\"peer \\x9b31m,\\xe2\\x80\\xae\\x0a\"");
  EXPECT_EQ(CsvText("plain"), "plain");
}

}  // namespace
}  // namespace tickbench::harness
