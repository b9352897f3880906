// A build without MPI (the default) names the mpi transport, the mpi_wtime clock and the
// matrix and refuses them as bad input, saying how to get a build that has them.
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tests/harness_runner.h"

namespace tickbench {
namespace {

TEST(MpiAbsentTest, TheMpiTransportIsRefusedSayingHowToBuildIt) {
  const testing::HarnessResult result = testing::RunHarness("--transport=mpi --sizes=64");
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_TRUE(absl::StrContains(result.err, "--transport=mpi needs a build with Open MPI"))
      << result.err;
  EXPECT_TRUE(absl::StrContains(result.err, "--config=mpi")) << result.err;
  EXPECT_TRUE(result.out.empty()) << result.out;
}

TEST(MpiAbsentTest, TheMpiWtimeClockIsRefusedSayingHowToBuildIt) {
  const testing::HarnessResult result = testing::RunHarness("--clock=mpi_wtime --sizes=64");
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_TRUE(absl::StrContains(result.err, "clock 'mpi_wtime' needs a build with Open MPI"))
      << result.err;
  EXPECT_TRUE(result.out.empty()) << result.out;
}

TEST(MpiAbsentTest, TheMatrixIsRefusedSayingHowToBuildIt) {
  const testing::HarnessResult result = testing::RunHarness("--experiment=matrix");
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_TRUE(absl::StrContains(result.err, "--experiment=matrix needs a build with Open MPI"))
      << result.err;
  EXPECT_TRUE(result.out.empty()) << result.out;
}

}  // namespace
}  // namespace tickbench
