// The mpi endpoint's contract clauses that need a peer rank which breaks the protocol,
// something the harness's own echo rank never does (transport/mpi/mpi_transport.h):
//   * a message of another length than the buffer is DataLoss, shorter (by the count
//     received) or longer (MPI's truncation, the message consumed), in each way of
//     receiving: MPI_Recv (no timeout), the persistent request tested until done (a
//     timeout) and busy polling; the next message of the right length is received whole;
//   * a receive into another buffer gets its own request, the last two buffers' are kept,
//     and a buffer whose request was dropped for a third gets a new one.
//
// The binary is its own pair of ranks: run by bazel, each test starts `mpirun -np 2` of
// this same binary. Under mpirun (OMPI_COMM_WORLD_RANK set), rank 1 sends a fixed script of
// messages with the endpoint's Send() and rank 0 receives them with Receive(), printing a
// line per receive: "MODE SENT_BYTES STATUS_CODE CONTENT" (CONTENT "whole" when the bytes
// are the ones sent, "-" when the receive failed).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "platform/mpi/mpi_world.h"
#include "tests/harness_runner.h"
#include "transport/mpi/mpi_transport.h"

namespace tickbench {
namespace {

constexpr int kBuffer = 16, kOther = 32, kThird = 24;

struct Step {
  const char* mode;  // blocking, bounded or busy
  int sent;          // bytes rank 1 sends
  int buffer;        // bytes rank 0 receives into: kBuffer, kOther or kThird (each its own)
};

// Rank 1 sends each step's bytes in order; rank 0 receives each into its buffer.
const std::vector<Step>& Script() {
  static const std::vector<Step> script = {
      {"blocking", kBuffer, kBuffer}, {"blocking", 10, kBuffer},     {"blocking", 30, kBuffer},
      {"blocking", kBuffer, kBuffer}, {"bounded", kBuffer, kBuffer}, {"bounded", 10, kBuffer},
      {"bounded", 30, kBuffer},       {"bounded", kBuffer, kBuffer}, {"bounded", kOther, kOther},
      {"bounded", kBuffer, kBuffer},  {"bounded", kThird, kThird},   {"bounded", kOther, kOther},
      {"bounded", kBuffer, kBuffer},  {"busy", kBuffer, kBuffer},    {"busy", 10, kBuffer},
      {"busy", 30, kBuffer},          {"busy", kBuffer, kBuffer},
  };
  return script;
}

// The bytes of a message of `n`: step `i`'s, so that a stale buffer shows.
std::vector<char> Bytes(int n, int i) {
  std::vector<char> bytes(n);
  for (int k = 0; k < n; ++k) bytes[k] = static_cast<char>(i * 37 + k);
  return bytes;
}

int RunRank() {
  absl::StatusOr<platform::MpiWorld> world = platform::JoinMpiWorld();
  if (!world.ok() || world->size != 2) {
    std::fprintf(stderr, "needs mpirun -np 2: %s\n",
                 world.ok() ? "another size" : std::string(world.status().message()).c_str());
    return 2;
  }
  const std::vector<Step>& script = Script();
  if (world->rank == 1) {
    transport::MpiEndpoint to_zero(0);
    for (size_t i = 0; i < script.size(); ++i) {
      const std::vector<char> bytes = Bytes(script[i].sent, static_cast<int>(i));
      if (absl::Status sent = to_zero.Send(absl::MakeConstSpan(bytes)); !sent.ok()) {
        std::fprintf(stderr, "rank 1: %s\n", sent.ToString().c_str());
        return 1;
      }
    }
    return 0;
  }
  transport::MpiEndpoint from_one(1);
  std::vector<char> buffer(kBuffer), other(kOther), third(kThird);
  for (size_t i = 0; i < script.size(); ++i) {
    const Step& step = script[i];
    const std::string mode = step.mode;
    if (!from_one
             .SetReceiveTimeout(mode == "blocking" ? absl::InfiniteDuration() : absl::Seconds(20))
             .ok() ||
        !from_one.SetBusyPoll(mode == "busy").ok()) {
      return 1;
    }
    std::vector<char>& into = step.buffer == kBuffer  ? buffer
                              : step.buffer == kOther ? other
                                                      : third;
    const absl::Status received = from_one.Receive(absl::MakeSpan(into));
    if (!received.ok()) std::fprintf(stderr, "%s\n", received.ToString().c_str());
    const std::string content = !received.ok()                                  ? "-"
                                : into == Bytes(step.sent, static_cast<int>(i)) ? "whole"
                                                                                : "stale";
    std::printf("%s %d %s %s\n", step.mode, step.sent,
                absl::StatusCodeToString(received.code()).c_str(), content.c_str());
  }
  std::fflush(stdout);
  return 0;
}

// Rank 0's lines from one mpirun of this binary.
std::vector<std::string> RankZeroLines() {
  const std::string dir = ::testing::TempDir();
  const std::string out = dir + "/ranks_out.txt", err = dir + "/ranks_err.txt";
  const int status = std::system(
      absl::StrCat("timeout 120 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader "
                   "-np 2 /proc/",
                   getpid(), "/exe >", out, " 2>", err)
          .c_str());
  EXPECT_EQ(status, 0) << testing::ReadWholeFile(err);
  return absl::StrSplit(testing::ReadWholeFile(out), '\n', absl::SkipEmpty());
}

TEST(MpiEndpointTest, AMessageOfAnotherLengthIsDataLossInEveryWayOfReceiving) {
  const std::vector<std::string> lines = RankZeroLines();
  ASSERT_EQ(lines.size(), Script().size());
  for (const char* mode : {"blocking", "bounded", "busy"}) {
    SCOPED_TRACE(mode);
    const auto line = [&](int k) {
      int seen = 0;
      for (size_t i = 0; i < lines.size(); ++i) {
        if (absl::StartsWith(lines[i], absl::StrCat(mode, " ")) && seen++ == k) return lines[i];
      }
      return std::string();
    };
    EXPECT_EQ(line(0), absl::StrCat(mode, " 16 OK whole"));
    EXPECT_EQ(line(1), absl::StrCat(mode, " 10 DATA_LOSS -"));  // shorter: by its count
    EXPECT_EQ(line(2), absl::StrCat(mode, " 30 DATA_LOSS -"));  // longer: MPI truncates
    EXPECT_EQ(line(3), absl::StrCat(mode, " 16 OK whole"));     // and the next one is whole
  }
}

// Two buffers keep their requests; a third takes the place of the older one, which is
// made again when its buffer comes back.
TEST(MpiEndpointTest, EachBufferGetsItsOwnRequestAndEveryOneWorksAgainAfterOthers) {
  const std::vector<std::string> lines = RankZeroLines();
  ASSERT_EQ(lines.size(), Script().size());
  EXPECT_EQ(lines[8], "bounded 32 OK whole");
  EXPECT_EQ(lines[9], "bounded 16 OK whole");
  EXPECT_EQ(lines[10], "bounded 24 OK whole");
  EXPECT_EQ(lines[11], "bounded 32 OK whole");
  EXPECT_EQ(lines[12], "bounded 16 OK whole");
}

}  // namespace
}  // namespace tickbench

int main(int argc, char** argv) {
  if (std::getenv("OMPI_COMM_WORLD_RANK") != nullptr) return tickbench::RunRank();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
