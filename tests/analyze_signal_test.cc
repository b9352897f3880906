// Issue 46, case 2: --analyze with --explain on a 10,000-size table answered SIGINT after
// 9-40 s (the analysis checked no stop request); now 130 / 143 within a second, nothing
// printed on standard output.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "tests/harness_runner.h"

namespace tickbench::testing {
namespace {

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return absl::StrCat(dir != nullptr ? dir : ".", "/", name);
}

// 10,000 sizes, a line with one jump and a little deterministic scatter.
std::string BigTable() {
  const std::string path = TempPath("big.csv");
  std::ofstream out(path);
  out << "size_bytes,rtt_ns\n";
  for (int i = 1; i <= 10000; ++i) {
    const double value = 20000 + 0.5 * i + (i > 4096 ? 3000 : 0) + (i * 7919 % 101) - 50;
    out << i * 16 << "," << absl::StrFormat("%.1f", value) << "\n";
  }
  return path;
}

// Whether process `pid` has a handler for `signal` (its SigCgt mask in /proc).
bool Catches(pid_t pid, int signal) {
  const std::string status = ReadWholeFile(absl::StrCat("/proc/", pid, "/status"));
  const size_t at = status.find("SigCgt:");
  if (at == std::string::npos) return false;
  const unsigned long long mask = std::strtoull(status.c_str() + at + 7, nullptr, 16);
  return (mask >> (signal - 1)) & 1;
}

TEST(AnalyzeSignal, ExplainOnTenThousandSizesAnswersWithinASecond) {
  const std::string table = BigTable();
  const std::string flag = absl::StrCat("--analyze=", table);
  for (const int signal : {SIGINT, SIGTERM}) {
    for (const int delay_ms : {300, 1500}) {
      const std::string out = TempPath("signal_out.txt");
      const pid_t child = fork();
      ASSERT_GE(child, 0);
      if (child == 0) {
        if (!freopen(out.c_str(), "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(99);
        execl(HarnessPath().c_str(), "harness", flag.c_str(), "--explain",
              static_cast<char*>(nullptr));
        _exit(98);
      }
      for (int i = 0; i < 1000 && !Catches(child, signal); ++i) usleep(10'000);
      usleep(delay_ms * 1000);
      ASSERT_EQ(kill(child, signal), 0);
      const auto sent = std::chrono::steady_clock::now();
      int status = 0;
      while (waitpid(child, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() - sent > std::chrono::seconds(60)) {
          kill(child, SIGKILL);
          waitpid(child, &status, 0);
          FAIL() << "still running 60 s after the signal";
        }
        usleep(5'000);
      }
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
      std::printf("signal %d after %d ms: exited in %.3f s\n", signal, delay_ms, seconds);
      ASSERT_TRUE(WIFEXITED(status));
      EXPECT_EQ(WEXITSTATUS(status), 128 + signal);
      EXPECT_LT(seconds, 3.0) << "1 s is the promise; 3 s allows a loaded 2-core machine";
      EXPECT_EQ(ReadWholeFile(out), "") << "no half an analysis";
    }
  }
}

}  // namespace
}  // namespace tickbench::testing
