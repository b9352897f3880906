#include "harness/cli/size_list.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

using ::testing::ElementsAre;

TEST(SizeListTest, ParsesListsRangesAndSuffixes) {
  EXPECT_THAT(*ParseSizeList("32,512,1024", 65536), ElementsAre(32, 512, 1024));
  EXPECT_THAT(*ParseSizeList("50:200:50", 65536), ElementsAre(50, 100, 150, 200));
  EXPECT_THAT(*ParseSizeList("1, 1k:3k:1k", 65536), ElementsAre(1, 1024, 2048, 3072));
  EXPECT_THAT(*ParseSizeList("10:25:10", 65536), ElementsAre(10, 20));  // stop not on the grid
  EXPECT_EQ(ParseSizeList("50:2000:50", 65507)->size(), 40u);
}

// Issue 46 case 10: 20,000 items were refused as "'64' makes more than 10000 sizes", naming
// one item of many; the message now counts the list, in one short line, ranges included.
TEST(SizeListTest, ATooLongListIsCountedInOneShortLine) {
  std::string many = "64";
  for (int i = 1; i < 20000; ++i) many += ",64";
  absl::StatusOr<std::vector<size_t>> sizes = ParseSizeList(many, 65536);
  ASSERT_FALSE(sizes.ok());
  EXPECT_EQ(sizes.status().message(), "--sizes: the list makes 20000 sizes, more than 10000");
  sizes = ParseSizeList("1:20000:1,32", 65536);
  ASSERT_FALSE(sizes.ok());
  EXPECT_EQ(sizes.status().message(), "--sizes: the list makes 20001 sizes, more than 10000");
  EXPECT_EQ(ParseSizeList(std::string("1:10000:1"), 65536)->size(), kMaxSweepSizes);
}

TEST(SizeListTest, RejectsBadInputNamingTheFlag) {
  for (const char* bad : {"", "0", "32,,64", "abc", "-5", "32:16:4", "1:10", "1:10:0", "1:2:3:4",
                          "1.5", "70000", "1:100000:1", "0x20"}) {
    absl::StatusOr<std::vector<size_t>> sizes = ParseSizeList(bad, 65507);
    ASSERT_FALSE(sizes.ok()) << "accepted '" << bad << "'";
    EXPECT_EQ(sizes.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(sizes.status().message()), ::testing::HasSubstr("--sizes"));
  }
  EXPECT_THAT(std::string(ParseSizeList("70000", 65507).status().message()),
              ::testing::HasSubstr("65507"));
}

TEST(SizeListTest, ANumberTooLargeToParseIsTooLargeNotANonNumber) {
  for (const char* huge : {"99999999999999999999", "18446744073709551616k",
                           "1:99999999999999999999:1", "18014398509481984k", "1099511627777"}) {
    absl::StatusOr<std::vector<size_t>> sizes = ParseSizeList(huge, 65507);
    ASSERT_FALSE(sizes.ok()) << huge;
    const std::string message(sizes.status().message());
    EXPECT_THAT(message, ::testing::HasSubstr("too large")) << huge;
    EXPECT_THAT(message, ::testing::HasSubstr("65507")) << huge;
    EXPECT_THAT(message, ::testing::Not(::testing::HasSubstr("not a whole number"))) << huge;
  }
}

TEST(SizeListTest, EscapesControlBytesOfTheItem) {
  const absl::Status status = ParseSizeList("32,\x1b[2J64", 65507).status();
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()), ::testing::Not(::testing::HasSubstr("\x1b")));
  EXPECT_THAT(std::string(status.message()), ::testing::HasSubstr("\\x1b"));
}

}  // namespace
}  // namespace tickbench::harness
