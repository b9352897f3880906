#include "harness/cli/hints/near_names.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

using ::testing::ElementsAre;

TEST(NearNamesTest, EditDistanceCountsASwapOfNeighboursAsOne) {
  EXPECT_EQ(EditDistance("study", "studdy"), 1);
  EXPECT_EQ(EditDistance("iteratoins", "iterations"), 1);
  EXPECT_EQ(EditDistance("tsc", "rdtsc"), 2);
}

// Issue 32: values got no suggestion.
TEST(NearNamesTest, ValuesGetTheNamesTheyMayHaveMeant) {
  const std::vector<std::string> experiments = {"unix_throughput", "udp_rtt", "study", "sweep"};
  EXPECT_EQ(DidYouMean("studdy", experiments), "did you mean study?");
  const std::vector<std::string> clocks = {"gettimeofday", "clock_gettime", "rdtsc",
                                           "cntvct",       "tick",          "virtual"};
  EXPECT_EQ(DidYouMean("tsc", clocks), "did you mean rdtsc?");  // part of a name
  const std::vector<std::string> transports = {"unix_stream", "unix_dgram", "udp", "tcp", "pipe"};
  EXPECT_EQ(DidYouMean("unix", transports), "did you mean unix_stream or unix_dgram?");  // prefix
  EXPECT_EQ(DidYouMean("udp", transports), "");  // a name is no mistake
  EXPECT_EQ(DidYouMean("zz", transports), "");
  EXPECT_THAT(NearNames("tcq", transports), ElementsAre("tcp"));
}

TEST(NearNamesTest, AFlagsHintNamesOneFlag) {
  const std::vector<std::string> flags = {"iterations", "sim_fixed", "sim_bsd", "runs"};
  EXPECT_EQ(NearestName("iteratons", flags), "iterations");
  EXPECT_EQ(NearestName("iter", flags), "iterations");
  EXPECT_EQ(NearestName("sim", flags), "sim_bsd");  // the shortest it begins
  EXPECT_EQ(NearestName("xyzzy", flags), "");
}

TEST(NearNamesTest, AStatusGetsTheHintAfterItsMessage) {
  EXPECT_EQ(
      WithDidYouMean(absl::InvalidArgumentError("unknown 'studdy'"), "studdy", {"study"}).message(),
      "unknown 'studdy'; did you mean study?");
  EXPECT_EQ(WithDidYouMean(absl::InvalidArgumentError("bad"), "x", {"study"}).message(), "bad");
}

}  // namespace
}  // namespace tickbench::harness
