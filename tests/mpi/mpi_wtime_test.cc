// --clock=mpi_wtime as users run it: the study over the mpi transport under mpirun, timed
// by MPI_Wtime against the reference clock, with MPI's own account of the clock (MPI_Wtick,
// MPI_WTIME_IS_GLOBAL) in the report's context.
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "harness/json/json_reader.h"
#include "tests/mpi/mpirun_runner.h"

namespace tickbench {
namespace {

using ::tickbench::testing::HarnessResult;
using ::tickbench::testing::RunUnderMpirun;

TEST(MpiWtimeTest, TheStudyRunsWithItAndTheContextSaysWhatMpiClaims) {
  const HarnessResult result =
      RunUnderMpirun(2,
                     "--experiment=study --transport=mpi --clocks=mpi_wtime --sizes=64 "
                     "--iterations=2000 --runs=3 --format=json --quiet");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  absl::StatusOr<harness::JsonValue> json = harness::ParseJson(result.out);
  ASSERT_TRUE(json.ok()) << json.status();
  const harness::JsonValue* clocks = json->Get("context")->Get("clocks");
  ASSERT_NE(clocks, nullptr);
  bool described = false;
  for (const harness::JsonValue& clock : clocks->items) {
    if (harness::StringAt(clock, "spec") != "mpi_wtime") continue;
    described = true;
    const std::string notes = harness::StringAt(clock, "notes");
    EXPECT_TRUE(absl::StrContains(notes, "MPI_Wtick")) << notes;
    EXPECT_TRUE(absl::StrContains(notes, "MPI_WTIME_IS_GLOBAL")) << notes;
    EXPECT_TRUE(absl::StrContains(notes, "rank 0 of 2")) << notes;
    EXPECT_EQ(notes.find('\0'), std::string::npos);
    // Observed, not claimed: at least a nanosecond, at most a millisecond.
    EXPECT_GE(harness::NumberAt(clock, "", "observed_resolution_ns"), 1);
    EXPECT_LE(harness::NumberAt(clock, "", "observed_resolution_ns"), 1e6);
    EXPECT_GT(harness::NumberAt(clock, "", "read_cost_ns"), 0);
  }
  EXPECT_TRUE(described);
  const harness::JsonValue* cells = json->Get("results");
  ASSERT_NE(cells, nullptr);
  ASSERT_EQ(cells->items.size(), 1u);
  const harness::JsonValue& cell = cells->items[0];
  EXPECT_EQ(harness::StringAt(cell, "clock"), "mpi_wtime");
  // A fine clock's averaged figure agrees with the reference over the same pass.
  const harness::JsonValue* averaged = cell.Get("averaged");
  ASSERT_NE(averaged, nullptr);
  EXPECT_TRUE(averaged->Get("within_bound") != nullptr && averaged->Get("within_bound")->boolean);
  EXPECT_GT(harness::NumberAt(cell, "averaged", "rtt_ns"), 100);
}

}  // namespace
}  // namespace tickbench
