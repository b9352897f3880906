#include "harness/cli/flag_hints.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

bool TakesValue(absl::string_view name) { return name == "output" || name == "iterations"; }

std::vector<std::string> Scanned(const std::vector<std::string>& args,
                                 const std::function<bool(absl::string_view)>& takes_value) {
  std::vector<std::string> flags;
  for (const FlagArgument& flag : ScanFlags(args, takes_value))
    flags.push_back(flag.name + (flag.value.has_value() ? "=" + *flag.value : ""));
  return flags;
}

TEST(FlagHintsTest, ScansEveryWayOfWritingAFlagUpToTheEnd) {
  const std::vector<std::string> args = {"--iterations=5", "-noquiet", "pos", "--output",
                                         "-x.csv",         "--wide",   "--",  "--after"};
  EXPECT_THAT(Scanned(args, TakesValue),
              ElementsAre("iterations=5", "noquiet", "output=-x.csv", "wide"));
  EXPECT_THAT(Scanned(args, nullptr),
              ElementsAre("iterations=5", "noquiet", "output", "x.csv", "wide"));
  EXPECT_THAT(Scanned({"--output"}, TakesValue), ElementsAre("output"));
  EXPECT_THAT(Scanned({"--output="}, TakesValue), ElementsAre("output="));
}

// The hints read the command line through the one scan: a value is never taken for a flag.
TEST(FlagHintsTest, HintsSkipTheValuesOfFlags) {
  const std::vector<std::string> names = {"output", "iterations", "quiet"};
  EXPECT_THAT(UnknownFlagHints({"--output", "--iteratons", "--iteratons"}, names, TakesValue),
              ElementsAre(HasSubstr("did you mean --iterations?")));
  EXPECT_THAT(UnknownFlagHints({"--noquiet", "--quite"}, names, TakesValue),
              ElementsAre(HasSubstr("unknown flag --quite; did you mean --quiet?")));
  EXPECT_THAT(NumberValueHints({"--iterations", "1.5"}), ElementsAre(HasSubstr("got '1.5'")));
  EXPECT_THAT(NumberValueHints({"--iterations=1.5", "--", "--iterations=2.5"}),
              ElementsAre(HasSubstr("got '1.5'")));
  EXPECT_THAT(NumberValueHints({"--iterations"}), ElementsAre());
}

}  // namespace
}  // namespace tickbench::harness
