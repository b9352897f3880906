#include "core/command_line.h"

#include <cstring>

#include "gtest/gtest.h"

namespace tickbench::core {
namespace {

TEST(CommandLineTest, SplitsAtSpacesInPlace) {
  char line[] = "  prog.elf --clock=systick   --sizes=32,512 ";
  char* args[8];
  ASSERT_EQ(SplitCommandLine(line, args, 8), 3);
  EXPECT_STREQ(args[0], "prog.elf");
  EXPECT_STREQ(args[1], "--clock=systick");
  EXPECT_STREQ(args[2], "--sizes=32,512");
  char empty[] = "";
  EXPECT_EQ(SplitCommandLine(empty, args, 8), 0);
  char many[] = "a b c d";
  EXPECT_EQ(SplitCommandLine(many, args, 2), 4);  // counts all, keeps two
  EXPECT_STREQ(args[1], "b");
}

TEST(CommandLineTest, MatchFlag) {
  const char* value = nullptr;
  EXPECT_TRUE(MatchFlag("--clock=systick", "clock", &value));
  EXPECT_STREQ(value, "systick");
  EXPECT_TRUE(MatchFlag("--help", "help", &value));
  EXPECT_STREQ(value, "");
  EXPECT_FALSE(MatchFlag("--clocks=x", "clock", &value));
  EXPECT_FALSE(MatchFlag("-clock=x", "clock", &value));
  EXPECT_FALSE(MatchFlag("--cl", "clock", &value));
}

TEST(CommandLineTest, Durations) {
  int64_t ns = 0;
  ASSERT_TRUE(ParseDurationNs("10ms", &ns));
  EXPECT_EQ(ns, 10'000'000);
  ASSERT_TRUE(ParseDurationNs("20ms", &ns));
  EXPECT_EQ(ns, 20'000'000);
  ASSERT_TRUE(ParseDurationNs("40ns", &ns));
  EXPECT_EQ(ns, 40);
  ASSERT_TRUE(ParseDurationNs("1.5us", &ns));
  EXPECT_EQ(ns, 1500);
  ASSERT_TRUE(ParseDurationNs("1s", &ns));
  EXPECT_EQ(ns, 1'000'000'000);
  ns = 7;
  for (const char* bad : {"", "10", "ms", "10 ms", "10m", "-1ms", "0ms", "1.5ns", "10ms!",
                          "99999999999999999999s", "1.0000000001s"}) {
    EXPECT_FALSE(ParseDurationNs(bad, &ns)) << bad;
  }
  EXPECT_EQ(ns, 7);  // left alone on failure
}

TEST(CommandLineTest, Counts) {
  int64_t value = 0;
  ASSERT_TRUE(ParseCount("1000", &value));
  EXPECT_EQ(value, 1000);
  for (const char* bad : {"", "-1", "1e3", "12a", "99999999999999999999"}) {
    EXPECT_FALSE(ParseCount(bad, &value)) << bad;
  }
}

TEST(CommandLineTest, SizeLists) {
  int64_t sizes[4] = {};
  int count = 0;
  ASSERT_TRUE(ParseSizeList("32,512,4096", sizes, 4, &count));
  ASSERT_EQ(count, 3);
  EXPECT_EQ(sizes[0], 32);
  EXPECT_EQ(sizes[2], 4096);
  for (const char* bad : {"", "32,", ",32", "32,,64", "0", "32;64", "1,2,3,4,5"}) {
    EXPECT_FALSE(ParseSizeList(bad, sizes, 4, &count)) << bad;
  }
  EXPECT_EQ(count, 3);
}

}  // namespace
}  // namespace tickbench::core
