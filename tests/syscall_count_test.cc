// The system calls of a round trip, client and echo peer, against the bare loop's
// (bench/bare_loop.cc) on every transport, blocking and busy-polled: the harness must add
// none of its own.
//
// How they are counted: each binary runs under `strace -f -ff` (one trace file per
// thread) twice, with N1 and N2 timed round trips; a call's count per round trip is the
// difference between the two runs divided by N2 - N1, so that start-up, set-up and
// shut-down cancel out. The client is the traced process and its threads, the peer the
// process it forks. Counted: every system call; busy-polled, except those that failed
// with EAGAIN: a busy-polled receive repeats its non-blocking read until data comes, a
// varying number of times, and what a round trip costs is the calls that did something.
// Rates below 0.1 per round trip are left out: a shut-down that polls for the peer's
// exit every millisecond makes a few calls more or less from run to run (20 more in 400
// busy-polled round trips were seen: 0.05), not per round trip.
//
// No difference is allowed, the pipe's included: a pipe has no receive timeout in the
// kernel (no SO_RCVTIMEO), and the harness always sets one, so its pipe client bounds
// its blocking read with a periodic timer armed once per run (transport/io/read_watchdog.h),
// whose few ticks a run stay under the 0.1 a round trip counted.
//
// The same calls can still cost more: a thread beside the loop makes each dearer. A
// second test reads the client's trace for the threads it starts: none before the peer's
// fork, none until its last round trip.
//
// A rate per round trip cannot see a periodic signal or timer whose ticks are rarer than
// one in ten round trips, nor a timer the kernel arms inside a call. A third test lists,
// from the same traces, every timer call, socket timeout and signal of client and peer
// with the user's defaults: beyond the bare loop's, only the client's declared receive
// bound may appear.
//
// Skipped, with the reason, where strace is missing or may not trace (no ptrace).
// Timing is not asserted here: bench/bare_compare.sh measures it.
#include <dirent.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tests/harness_runner.h"

namespace {

using tickbench::testing::HarnessPath;
using tickbench::testing::ReadWholeFile;

// Calls per run, by role ("client", "peer") and system call name.
using Counts = std::map<std::string, std::map<std::string, double>>;

std::string BareLoopPath() {
  return absl::StrCat(std::getenv("TEST_SRCDIR"), "/", std::getenv("TEST_WORKSPACE"),
                      "/bench/bare_loop");
}

int Shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Why strace cannot count here, or "" when it can.
std::string StraceUnavailable() {
#if defined(__SANITIZE_ADDRESS__) || defined(TICKBENCH_UBSAN)
  // The sanitizers' runtimes make system calls of their own (and LeakSanitizer refuses to
  // run under ptrace): counting is for the plain build, which `bazel test //...` runs.
  return "built with a sanitizer, whose runtime makes system calls of its own";
#endif
  if (Shell("command -v strace >/dev/null 2>&1") != 0) {
    return "strace is not installed (tools/setup.sh installs it)";
  }
  if (Shell("strace -f -o /dev/null true >/dev/null 2>&1") != 0) {
    return "strace cannot trace here (ptrace not permitted)";
  }
  return "";
}

std::vector<std::string> TraceFiles(const std::string& dir) {
  std::vector<std::string> files;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* entry = readdir(d)) {
      const std::string name = entry->d_name;
      if (name.rfind("tr.", 0) == 0) files.push_back(name);
    }
    closedir(d);
  }
  return files;
}

// Marks a call that failed with EAGAIN: counted apart, not compared.
constexpr char kEagain[] = "/EAGAIN";

// Leaves out the calls that failed with EAGAIN.
std::map<std::string, double> Compared(const std::map<std::string, double>& calls) {
  std::map<std::string, double> compared;
  for (const auto& [call, rate] : calls) {
    if (!absl::EndsWith(call, kEagain)) compared[call] = rate;
  }
  return compared;
}

// The traced process's own trace file in `dir`: the one that starts with its execve. It
// names the threads the process started (clone with CLONE_THREAD) and the processes it
// forked (without).
std::string MainTraceFile(const std::string& dir) {
  std::string main_file;
  for (const std::string& file : TraceFiles(dir)) {
    if (ReadWholeFile(dir + "/" + file).rfind("execve(", 0) == 0) main_file = file;
  }
  EXPECT_FALSE(main_file.empty()) << "no trace file starts with the execve in " << dir;
  return main_file;
}

// The per-thread trace files of one run, counted by role and call.
// The client's trace files in `dir`: the traced process's own and those of the threads
// it started (clone with CLONE_THREAD); every other file is the peer's.
std::set<std::string> ClientFiles(const std::string& dir) {
  const std::string main_file = MainTraceFile(dir);
  std::set<std::string> client_files = {main_file};
  std::istringstream lines(ReadWholeFile(dir + "/" + main_file));
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("clone", 0) != 0 || line.find("CLONE_THREAD") == std::string::npos) continue;
    const size_t equals = line.rfind("= ");
    int tid = 0;
    if (equals != std::string::npos && absl::SimpleAtoi(line.substr(equals + 2), &tid)) {
      client_files.insert(absl::StrCat("tr.", tid));
    }
  }
  return client_files;
}

Counts CountTrace(const std::string& dir) {
  const std::set<std::string> client_files = ClientFiles(dir);
  Counts counts;
  for (const std::string& file : TraceFiles(dir)) {
    const std::string role = client_files.count(file) ? "client" : "peer";
    std::istringstream lines(ReadWholeFile(dir + "/" + file));
    for (std::string line; std::getline(lines, line);) {
      if (line.empty() || line[0] == '+' || line[0] == '-') continue;  // exits, signals
      const size_t paren = line.find('(');
      if (paren == std::string::npos || paren == 0) continue;
      const bool eagain = line.find("= -1 EAGAIN") != std::string::npos;
      counts[role][absl::StrCat(line.substr(0, paren), eagain ? kEagain : "")] += 1;
    }
  }
  return counts;
}

// Runs `binary args` under strace; returns the directory of its trace files.
std::string TraceInto(const std::string& name, const std::string& binary, const std::string& args) {
  const std::string dir = absl::StrCat(::testing::TempDir(), "/", name);
  Shell(absl::StrCat("rm -rf '", dir, "' && mkdir -p '", dir, "'"));
  const int exit_code = Shell(absl::StrCat("timeout 120 strace -f -ff -o '", dir, "/tr' ", binary,
                                           " ", args, " >'", dir, "/out' 2>'", dir, "/err'"));
  EXPECT_EQ(exit_code, 0) << binary << " " << args << ":\n" << ReadWholeFile(dir + "/err");
  return dir;
}

// Runs `binary args` under strace and counts its calls.
Counts TraceRun(const std::string& name, const std::string& binary, const std::string& args) {
  return CountTrace(TraceInto(name, binary, args));
}

// Per round trip: (counts at n2 - counts at n1) / (n2 - n1), rounded to 0.01, rates
// under 0.1 left out.
Counts PerRoundTrip(const Counts& at_n1, const Counts& at_n2, int n1, int n2) {
  Counts rates;
  for (const auto& [role, calls] : at_n2) {
    for (const auto& [call, count] : calls) {
      double before = 0;
      if (auto r = at_n1.find(role); r != at_n1.end()) {
        if (auto c = r->second.find(call); c != r->second.end()) before = c->second;
      }
      const double rate = std::round((count - before) / (n2 - n1) * 100) / 100;
      if (rate >= 0.1) rates[role][call] = rate;
    }
  }
  return rates;
}

std::string Describe(const std::map<std::string, double>& calls) {
  std::vector<std::string> parts;
  for (const auto& [call, rate] : calls) parts.push_back(absl::StrFormat("%s %.2f", call, rate));
  return parts.empty() ? "(none)" : absl::StrJoin(parts, ", ");
}

struct Case {
  std::string transport;
  bool busy_poll;
};

std::string Name(const Case& c) {
  return absl::StrCat(c.transport, c.busy_poll ? "_busy_poll" : "_blocking");
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) { return Name(info.param); }

void PrintTo(const Case& c, std::ostream* os) { *os << Name(c); }

class SyscallCountTest : public ::testing::TestWithParam<Case> {};

constexpr int kSize = 1024;
constexpr int kWarmup = 20;

TEST_P(SyscallCountTest, RoundTripMakesTheBareLoopsCalls) {
  if (const std::string why = StraceUnavailable(); !why.empty()) GTEST_SKIP() << why;
  const Case& c = GetParam();
  // Busy polling under strace stops at every empty read: fewer round trips.
  const int n1 = c.busy_poll ? 100 : 200, n2 = c.busy_poll ? 500 : 1200;
  const std::string mode = c.busy_poll ? " --busy_poll" : "";
  auto harness = [&](int n) {
    return TraceRun(
        absl::StrCat("harness_", Name(c), "_", n), HarnessPath(),
        absl::StrCat("--experiment=sweep --transport=", c.transport, " --sizes=", kSize,
                     " --runs=1 --iterations=", n, " --warmup=", kWarmup,
                     " --format=csv --clock=clock_gettime --reference_clock=none", mode));
  };
  auto bare = [&](int n) {
    return TraceRun(absl::StrCat("bare_", Name(c), "_", n), BareLoopPath(),
                    absl::StrCat("--transport=", c.transport, " --size=", kSize,
                                 " --iterations=", n, " --warmup=", kWarmup, mode));
  };
  Counts tickbench = PerRoundTrip(harness(n1), harness(n2), n1, n2);
  const Counts reference = PerRoundTrip(bare(n1), bare(n2), n1, n2);
  for (const std::string role : {"client", "peer"}) {
    const std::map<std::string, double> all_ours = tickbench[role];
    const std::map<std::string, double> all_theirs =
        reference.count(role) ? reference.at(role) : std::map<std::string, double>{};
    // Blocking, even a read that found nothing counts: neither side should make one.
    const std::map<std::string, double> ours = c.busy_poll ? Compared(all_ours) : all_ours;
    const std::map<std::string, double> theirs = c.busy_poll ? Compared(all_theirs) : all_theirs;
    std::printf("%s %s: tickbench %s | bare %s\n", Name(c).c_str(), role.c_str(),
                Describe(all_ours).c_str(), Describe(theirs).c_str());
    EXPECT_FALSE(theirs.empty()) << "the bare loop's " << role << " made no calls per trip?";
    EXPECT_EQ(ours, theirs) << role << " per round trip, tickbench: " << Describe(ours)
                            << "; bare loop: " << Describe(theirs);
  }
}

// A second thread alive while the loop runs makes each of its system calls dearer (the
// kernel counts file references while the file table is shared; the C library brackets
// cancellable calls, and a child forked from a threaded process inherits that): the same
// calls, at a higher price. So the client starts no thread before its peer's fork, and
// none until every round trip is done. The progress meter is on (no --quiet).
TEST(SyscallCountThreadsTest, TheClientIsAloneFromThePeersForkToItsLastRoundTrip) {
  if (const std::string why = StraceUnavailable(); !why.empty()) GTEST_SKIP() << why;
  constexpr int kTrips = 300;
  const std::string dir =
      TraceInto("harness_threads", HarnessPath(),
                absl::StrCat("--experiment=sweep --transport=pipe --sizes=", kSize,
                             " --runs=2 --iterations=", kTrips, " --warmup=", kWarmup,
                             " --format=csv --clock=clock_gettime --reference_clock=none"));
  std::istringstream lines(ReadWholeFile(dir + "/" + MainTraceFile(dir)));
  bool forked = false;
  int writes_after_fork = 0;
  for (std::string line; std::getline(lines, line);) {
    const bool thread =
        line.rfind("clone", 0) == 0 && line.find("CLONE_THREAD") != std::string::npos;
    const bool fork = line.rfind("clone", 0) == 0 && !thread;
    if (thread) {
      EXPECT_TRUE(forked) << "a thread before the peer's fork: " << line;
      break;
    }
    if (fork) forked = true;
    if (forked && line.rfind("write(", 0) == 0) ++writes_after_fork;
  }
  EXPECT_TRUE(forked) << "no fork of the echo peer in the trace";
  // The client writes each message once: 2 runs of warm-up and timed trips, and the
  // frames that start each block, all before any thread.
  EXPECT_GE(writes_after_fork, 2 * (kTrips + kWarmup));
}

// What a run arms or is sent beyond its round trips' calls, by role ("client", "peer"):
// the timer calls (timer_create, timer_settime, setitimer, alarm, timerfd_create,
// timerfd_settime), socket timeouts (setsockopt SO_RCVTIMEO or SO_SNDTIMEO, which arm a
// kernel timer in every receive or send that waits) and the signals delivered ("signal
// SIGNAME"). A periodic signal or a timer per round trip shows here as one of these,
// whatever its rate.
// Whether a traced setsockopt line sets SO_RCVTIMEO or SO_SNDTIMEO to a time other than
// zero: zero clears the timeout (no timer), as an endpoint does when its read watchdog
// takes over the bound. strace shows the value decoded ({tv_sec=0, tv_usec=0}) or as
// the raw bytes ("\0\0..."); either way it is zero when no digit but a 0 is in it.
bool SetsASocketTimeout(const std::string& line) {
  const size_t option = std::min(line.find("SO_RCVTIMEO"), line.find("SO_SNDTIMEO"));
  if (option == std::string::npos) return false;
  const size_t value = line.find(", ", option);
  const size_t length = line.rfind(", ");
  if (value == std::string::npos || length == std::string::npos || length <= value) return true;
  const std::string text = line.substr(value + 2, length - value - 2);
  return text.find_first_of("123456789") != std::string::npos;
}

std::map<std::string, std::set<std::string>> TimersAndSignals(const std::string& dir) {
  static const std::set<std::string> kTimerCalls = {
      "timer_create", "timer_settime", "setitimer", "alarm", "timerfd_create", "timerfd_settime"};
  const std::set<std::string> client_files = ClientFiles(dir);
  std::map<std::string, std::set<std::string>> found;
  for (const std::string& file : TraceFiles(dir)) {
    const std::string role = client_files.count(file) ? "client" : "peer";
    std::istringstream lines(ReadWholeFile(dir + "/" + file));
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("--- SIG", 0) == 0) {
        found[role].insert(absl::StrCat("signal ", line.substr(4, line.find(' ', 4) - 4)));
        continue;
      }
      const std::string call = line.substr(0, line.find('('));
      if (kTimerCalls.count(call)) found[role].insert(call);
      if (call == "setsockopt" && SetsASocketTimeout(line)) {
        found[role].insert(absl::StrCat(
            "setsockopt ", absl::StrContains(line, "SO_RCVTIMEO") ? "SO_RCVTIMEO" : "SO_SNDTIMEO"));
      }
    }
  }
  return found;
}

std::string Describe(const std::set<std::string>& items) {
  return items.empty() ? "(none)" : absl::StrJoin(items, ", ");
}

// strace's name for the read watchdog's signal (transport/io/read_watchdog.h: SIGRTMAX - 1,
// 63 on Linux, which strace counts from the kernel's first real-time signal, 32).
constexpr char kWatchdogSignal[] = "signal SIGRT_31";

// The one bound a blocking receive has beyond the bare loop's, as the transports declare
// it (docs/overhead.md, "What the loop does beyond send and receive"): a stream or pipe
// client's read watchdog (a timer armed once per timeout, whose periodic signal a run
// may receive), a datagram client's SO_RCVTIMEO (its timeout tells a lost datagram from
// a late one). The echo peer has none.
std::set<std::string> DeclaredBound(const std::string& transport) {
  if (transport == "udp" || transport == "unix_dgram") return {"setsockopt SO_RCVTIMEO"};
  return {"timer_create", "timer_settime", kWatchdogSignal};
}

class TimersAndSignalsTest : public ::testing::TestWithParam<std::string> {};

// With the user's defaults (no flag but the transport and the round trips), neither the
// client nor the echo peer arms a timer, sets a socket timeout or receives a signal that
// the bare loop does not, except the client's declared receive bound: a new periodic
// signal, timer, or timeout anywhere in either fails here.
TEST_P(TimersAndSignalsTest, TheLoopAndThePeerGainNothingButTheDeclaredBound) {
  if (const std::string why = StraceUnavailable(); !why.empty()) GTEST_SKIP() << why;
  const std::string& transport = GetParam();
  constexpr int kTrips = 2000;
  auto harness = TimersAndSignals(
      TraceInto(absl::StrCat("timers_harness_", transport), HarnessPath(),
                absl::StrCat("--experiment=sweep --transport=", transport, " --sizes=", kSize,
                             " --runs=1 --iterations=", kTrips, " --format=csv")));
  auto bare = TimersAndSignals(TraceInto(
      absl::StrCat("timers_bare_", transport), BareLoopPath(),
      absl::StrCat("--transport=", transport, " --size=", kSize, " --iterations=", kTrips)));
  const std::set<std::string> declared = DeclaredBound(transport);
  for (const std::string role : {"client", "peer"}) {
    std::set<std::string> gained;
    for (const std::string& item : harness[role]) {
      const bool allowed = bare[role].count(item) || (role == "client" && declared.count(item));
      if (!allowed) gained.insert(item);
    }
    std::printf("%s %s: tickbench %s | bare %s\n", transport.c_str(), role.c_str(),
                Describe(harness[role]).c_str(), Describe(bare[role]).c_str());
    EXPECT_TRUE(gained.empty()) << transport << " " << role
                                << " has beyond the bare loop's: " << Describe(gained);
  }
  // --receive_timeout=none is the bare loop's receive: nothing beyond it, client or peer.
  auto unbounded = TimersAndSignals(TraceInto(
      absl::StrCat("timers_none_", transport), HarnessPath(),
      absl::StrCat("--experiment=sweep --transport=", transport, " --sizes=", kSize,
                   " --runs=1 --iterations=", kTrips, " --format=csv --receive_timeout=none")));
  for (const std::string role : {"client", "peer"}) {
    EXPECT_EQ(unbounded[role], bare[role])
        << transport << " " << role << " with --receive_timeout=none: tickbench "
        << Describe(unbounded[role]) << "; bare loop " << Describe(bare[role]);
  }
  // The declared bound is what the client arms: without it the test above would pass
  // for a bound that moved somewhere it does not look.
  for (const std::string& item : declared) {
    if (item == kWatchdogSignal) continue;  // ticks only if the run lasts a period
    EXPECT_TRUE(harness["client"].count(item)) << transport << ": the client did not arm " << item;
  }
}

INSTANTIATE_TEST_SUITE_P(BlockingTransports, TimersAndSignalsTest,
                         ::testing::Values("unix_stream", "unix_dgram", "udp", "tcp", "pipe"));

INSTANTIATE_TEST_SUITE_P(AllTransports, SyscallCountTest,
                         ::testing::Values(Case{"unix_stream", false}, Case{"unix_stream", true},
                                           Case{"unix_dgram", false}, Case{"unix_dgram", true},
                                           Case{"udp", false}, Case{"udp", true},
                                           Case{"tcp", false}, Case{"tcp", true},
                                           Case{"pipe", false}, Case{"pipe", true}),
                         CaseName);

}  // namespace
