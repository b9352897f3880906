#include "analysis/csv/printed_resolution.h"

#include "gtest/gtest.h"

namespace tickbench::analysis {
namespace {

TEST(PrintedResolutionTest, HalfAUnitOfTheLastDigit) {
  EXPECT_DOUBLE_EQ(PrintedResolution("42"), 0.5);
  EXPECT_DOUBLE_EQ(PrintedResolution("4200"), 0.5);
  EXPECT_DOUBLE_EQ(PrintedResolution("1631.25"), 0.005);
  EXPECT_DOUBLE_EQ(PrintedResolution("-0.010"), 0.0005);
  EXPECT_DOUBLE_EQ(PrintedResolution("+7."), 0.5);
  EXPECT_DOUBLE_EQ(PrintedResolution(".5"), 0.05);
  EXPECT_DOUBLE_EQ(PrintedResolution(" 12.5 "), 0.05);
}

TEST(PrintedResolutionTest, ExponentMovesTheLastDigit) {
  EXPECT_DOUBLE_EQ(PrintedResolution("1.5e3"), 50);
  EXPECT_DOUBLE_EQ(PrintedResolution("15E-1"), 0.05);
  EXPECT_DOUBLE_EQ(PrintedResolution("2.50e+2"), 0.5);
}

TEST(PrintedResolutionTest, UnknownForAnythingButAPlainDecimal) {
  for (const char* text :
       {"", "-", ".", "e5", "1e", "1e+", "0x1p3", "inf", "nan", "1.5x", "1e99999", "12 3"}) {
    EXPECT_EQ(PrintedResolution(text), 0) << text;
  }
}

TEST(IsPlainDecimalTest, SignDigitsPointExponentAndNothingElse) {
  for (const char* text : {"42", "-0.010", "+7.", ".5", " 12.5 ", "1.5e3", "15E-1", "1e99999"}) {
    EXPECT_TRUE(IsPlainDecimal(text)) << text;
  }
  for (const char* text : {"", "-", ".", "e5", "1e", "1e+", "0x10", "0x1p3", "inf", "-infinity",
                           "nan", "1.5x", "12 3", "1,5"}) {
    EXPECT_FALSE(IsPlainDecimal(text)) << text;
  }
}

}  // namespace
}  // namespace tickbench::analysis
