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

}  // namespace
}  // namespace tickbench::harness
