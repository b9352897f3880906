// --transport=mpi end to end under mpirun: rank 0 measures, rank 1 echoes, blocking and
// busy-polled; a silent peer rank ends a receive at its timeout; ranks sharing a CPU hand
// over without a scheduler's slice; any other number of ranks is refused. Wide bounds only: the
// ranks share two CPUs with whatever else runs.
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "harness/json/json_reader.h"
#include "tests/mpi/mpirun_runner.h"

namespace tickbench {
namespace {

using ::tickbench::testing::HarnessResult;
using ::tickbench::testing::RunHarnessUnder;
using ::tickbench::testing::RunUnderMpirun;

// The runs of a JSON sweep, checked to be valid mpi runs of `size` bytes with an averaged
// RTT between 100 ns and 10 ms and a per-iteration p50 no more than the p99.
void ExpectValidMpiRuns(const HarnessResult& result, double size) {
  ASSERT_EQ(result.exit_code, 0) << result.err;
  absl::StatusOr<harness::JsonValue> json = harness::ParseJson(result.out);
  ASSERT_TRUE(json.ok()) << json.status() << result.out;
  const harness::JsonValue* runs = json->Get("results");
  ASSERT_NE(runs, nullptr);
  ASSERT_EQ(runs->items.size(), 2u);
  for (const harness::JsonValue& run : runs->items) {
    EXPECT_EQ(harness::StringAt(run, "transport"), "mpi");
    EXPECT_EQ(harness::NumberAt(run, "", "size_bytes"), size);
    EXPECT_EQ(harness::NumberAt(run, "", "timed_trips"), 2000);
    const double rtt = harness::NumberAt(run, "averaged", "rtt_ns");
    EXPECT_GT(rtt, 100);
    EXPECT_LT(rtt, 10e6);
    EXPECT_LE(harness::NumberAt(run, "per_iteration", "p50_ns"),
              harness::NumberAt(run, "per_iteration", "p99_ns"));
  }
}

TEST(MpiTransportTest, TwoRanksMeasureRoundTripsBlocking) {
  ExpectValidMpiRuns(RunUnderMpirun(2,
                                    "--transport=mpi --sizes=1000 --iterations=2000 --runs=2 "
                                    "--format=json --quiet"),
                     1000);
}

TEST(MpiTransportTest, TwoRanksMeasureRoundTripsBusyPolled) {
  ExpectValidMpiRuns(RunUnderMpirun(2,
                                    "--transport=mpi --sizes=64 --iterations=2000 --runs=2 "
                                    "--busy_poll --format=json --quiet"),
                     64);
}

// The contract's bound: a peer rank that goes silent (it stops echoing after 500 messages)
// ends the measuring rank's receive with DeadlineExceeded after its timeout, not a wait for
// ever.
TEST(MpiTransportTest, SilentPeerRankEndsTheReceiveWithinItsTimeout) {
  const HarnessResult result =
      RunUnderMpirun(2,
                     "--transport=mpi --sizes=64 --iterations=2000 --runs=1 --warmup=10 "
                     "--peer_stop_after=500 --receive_timeout=50ms --format=csv",
                     60);
  EXPECT_NE(result.exit_code, 0) << result.err;
  EXPECT_NE(result.exit_code, 124) << "timed out: " << result.err;  // timeout(1)'s code
  EXPECT_TRUE(absl::StrContains(result.out + result.err,
                                "DEADLINE_EXCEEDED: mpi: no message from rank 1 within 50ms"))
      << result.out << result.err;
}

// A blocking receive that waits long yields the CPU (after its first 4096 empty tests): two
// ranks on one CPU, with Open MPI not told to yield, hand over in far less than the
// scheduler's slice two spinning ranks would take (milliseconds a round trip).
TEST(MpiTransportTest, RanksSharingOneCpuHandOverWithoutWaitingForTheScheduler) {
  const HarnessResult result = RunHarnessUnder(
      "taskset -c 0 mpirun --allow-run-as-root --bind-to none --mca btl self,vader -np 2",
      "--transport=mpi --sizes=64 --iterations=300 --runs=2 --warmup=10 --format=json --quiet", 60);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  absl::StatusOr<harness::JsonValue> json = harness::ParseJson(result.out);
  ASSERT_TRUE(json.ok()) << json.status() << result.out;
  const harness::JsonValue* runs = json->Get("results");
  ASSERT_NE(runs, nullptr);
  for (const harness::JsonValue& run : runs->items) {
    EXPECT_LT(harness::NumberAt(run, "per_iteration", "p50_ns"), 4e6);
  }
}

TEST(MpiTransportTest, OtherThanTwoRanksIsRefusedNamingTheMatrix) {
  const HarnessResult result = RunUnderMpirun(3, "--transport=mpi --sizes=64");
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_TRUE(absl::StrContains(result.err, "--transport=mpi measures between two ranks"))
      << result.err;
  EXPECT_TRUE(absl::StrContains(result.err, "--experiment=matrix")) << result.err;
}

}  // namespace
}  // namespace tickbench
