// Faults end cleanly: lost datagrams are counted, a dead peer ends the run with exit code
// 1 and the results so far on disk, a signal stops the sweep with 130/143. Each case runs
// the binary under `timeout`, so none can hang the suite.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <regex>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/harness_runner.h"

namespace {

using ::testing::HasSubstr;

using tickbench::testing::HarnessPath;
using tickbench::testing::HarnessResult;
using tickbench::testing::ReadWholeFile;

HarnessResult RunHarness(const std::string& args) {
  return tickbench::testing::RunHarness(args, "", 60);
}

int Count(const std::string& text, const std::string& needle) {
  int count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

TEST(FaultTest, LostDatagramsAreCountedAndTheRunGoesOn) {
  const HarnessResult r = RunHarness(
      "--transport=udp --sizes=64 --iterations=100 --runs=1 --warmup=0 --peer_drop_every=10 "
      "--receive_timeout=50ms --format=json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(R"("lost":10)"));
  EXPECT_THAT(r.out, HasSubstr(R"("completed":100)"));
}

TEST(FaultTest, StopOnLossEndsTheRunWithExitOne) {
  const HarnessResult r = RunHarness(
      "--transport=udp --sizes=64 --iterations=100 --runs=1 --warmup=0 --peer_drop_every=10 "
      "--receive_timeout=50ms --stop_on_loss --format=json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("size 64 bytes, run 1"));
  EXPECT_THAT(r.err, HasSubstr("round trip 10 of 100"));
  EXPECT_THAT(r.out, HasSubstr(R"("completed":9)"));
}

TEST(FaultTest, APeerThatDiesEndsTheRunAndKeepsWhatWasMeasured) {
  const std::string output = ::testing::TempDir() + "/partial.json";
  const HarnessResult r = RunHarness(absl::StrCat(
      "--transport=unix_stream --sizes=64,128 --iterations=100 --runs=2 --warmup=0 "
      "--peer_stop_after=250 --format=json --output=",
      output));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("size 64 bytes, run 2"));
  EXPECT_THAT(r.err, HasSubstr("round trip 51 of 100"));
  const std::string written = ReadWholeFile(output);
  EXPECT_EQ(Count(written, R"("size_bytes":)"), 3) << written;  // two whole runs and the third
  EXPECT_THAT(written, HasSubstr(R"("completed":50)"));
  EXPECT_EQ(written, r.out) << "the file holds exactly what was printed";
}

TEST(FaultTest, SigtermStopsTheSweepWritesResultsAndReapsThePeer) {
  const std::string output = ::testing::TempDir() + "/signalled.csv";
  const std::string out = ::testing::TempDir() + "/signalled_out.txt";
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (freopen(out.c_str(), "w", stdout) == nullptr || freopen("/dev/null", "w", stderr) == nullptr) {
      _exit(126);
    }
    const std::string output_flag = "--output=" + output;
    execl(HarnessPath().c_str(), "harness", "--transport=unix_stream", "--sizes=32:8192:32",
          "--iterations=2000", "--runs=4", "--format=csv", output_flag.c_str(), nullptr);
    _exit(127);
  }
  usleep(700'000);  // well into the sweep (it takes seconds)
  ASSERT_EQ(kill(child, SIGTERM), 0);
  int status = 0;
  // Bounded wait: 30 s at most.
  for (int i = 0; i < 300 && waitpid(child, &status, WNOHANG) == 0; ++i) usleep(100'000);
  ASSERT_TRUE(WIFEXITED(status)) << "still running or killed by a signal";
  EXPECT_EQ(WEXITSTATUS(status), 143);
  const std::string written = ReadWholeFile(output);
  EXPECT_THAT(written, HasSubstr("transport,clock,"));
  EXPECT_GT(Count(written, "\nunix_stream,"), 0) << "some runs were measured before the signal";
  EXPECT_LT(Count(written, "\nunix_stream,"), 1024) << "the sweep stopped early";
  // The echo peer was this process's grandchild; reaped, it no longer exists as a child
  // of anyone we started: no process runs the harness binary now.
  const int leftover = std::system(absl::StrCat("pgrep -f '^", HarnessPath(), "' >/dev/null").c_str());
  EXPECT_NE(WEXITSTATUS(leftover), 0) << "a harness process (the peer?) is still running";
}

}  // namespace
