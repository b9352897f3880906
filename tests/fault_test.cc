// Faults end cleanly: lost datagrams are counted, a dead peer ends the run with exit code
// 1 and the results so far on disk, a signal stops the sweep with 130/143. Each case runs
// the binary under `timeout`, so none can hang the suite.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/json/json_reader.h"
#include "tests/harness_runner.h"

namespace {

using ::testing::HasSubstr;

using tickbench::harness::JsonValue;
using tickbench::harness::ParseJson;
using tickbench::testing::HarnessPath;
using tickbench::testing::HarnessResult;
using tickbench::testing::ReadWholeFile;

HarnessResult RunHarness(const std::string& args) {
  return tickbench::testing::RunHarness(args, "", 60);
}

int Count(const std::string& text, const std::string& needle) {
  int count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++count;
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
  const HarnessResult r = RunHarness(
      absl::StrCat("--transport=unix_stream --sizes=64,128 --iterations=100 --runs=2 --warmup=0 "
                   "--peer_stop_after=250 --format=json --output=",
                   output));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("size 64 bytes, run 2"));
  EXPECT_THAT(r.err, HasSubstr("round trip 51 of 100"));
  const std::string written = ReadWholeFile(output);
  EXPECT_EQ(Count(written, R"("run":)"), 3) << written;  // two whole runs and the third
  EXPECT_THAT(written, HasSubstr(R"("completed":50)"));
  // The console keeps its table of the same runs; the JSON goes to the file only.
  EXPECT_THAT(r.out, HasSubstr("per-iteration, us")) << r.out;
  EXPECT_THAT(r.out, Not(HasSubstr(R"("run":)"))) << r.out;
}

// A harness started with `args`, its stdout to `out_path`, stderr to `err_path`.
pid_t Spawn(const std::vector<std::string>& args, const std::string& out_path,
            const std::string& err_path) {
  const pid_t child = fork();
  if (child != 0) return child;
  if (freopen(out_path.c_str(), "w", stdout) == nullptr ||
      freopen(err_path.c_str(), "w", stderr) == nullptr) {
    _exit(126);
  }
  std::vector<char*> argv;
  std::string name = "harness";
  argv.push_back(name.data());
  std::vector<std::string> copies = args;
  for (std::string& arg : copies) argv.push_back(arg.data());
  argv.push_back(nullptr);
  execv(HarnessPath().c_str(), argv.data());
  _exit(127);
}

struct Ended {
  bool exited = false;  // false: still running after the bound, and then killed
  int exit_code = -1;
  double seconds = 0;  // from the call to the child's end
};

// Waits at most `bound_seconds` for `child`; kills it (and says so) if it runs on.
Ended WaitBounded(pid_t child, double bound_seconds) {
  const auto start = std::chrono::steady_clock::now();
  Ended ended;
  while (true) {
    int status = 0;
    const pid_t done = waitpid(child, &status, WNOHANG);
    ended.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (done == child) {
      ended.exited = WIFEXITED(status);
      ended.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      return ended;
    }
    if (ended.seconds > bound_seconds) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return ended;  // exited == false
    }
    usleep(10'000);
  }
}

// Sends `signal_number` to a harness `warm_seconds` after its start (well into its
// measurement) and returns how it ended, timed from the signal.
Ended SignalDuringRun(const std::vector<std::string>& args, double warm_seconds, int signal_number,
                      const std::string& name, std::string* out = nullptr,
                      std::string* err = nullptr) {
  const std::string out_path = ::testing::TempDir() + "/" + name + ".out";
  const std::string err_path = ::testing::TempDir() + "/" + name + ".err";
  const pid_t child = Spawn(args, out_path, err_path);
  EXPECT_GT(child, 0);
  usleep(static_cast<useconds_t>(warm_seconds * 1e6));
  EXPECT_EQ(kill(child, signal_number), 0);
  const Ended ended = WaitBounded(child, 20);
  std::printf("%s: ended %.3f s after signal %d\n", name.c_str(), ended.seconds, signal_number);
  if (out != nullptr) *out = ReadWholeFile(out_path);
  if (err != nullptr) *err = ReadWholeFile(err_path);
  return ended;
}

TEST(FaultTest, SigtermStopsTheSweepWritesResultsAndReapsThePeer) {
  const std::string output = ::testing::TempDir() + "/signalled.csv";
  const std::string out = ::testing::TempDir() + "/signalled_out.txt";
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (freopen(out.c_str(), "w", stdout) == nullptr ||
        freopen("/dev/null", "w", stderr) == nullptr) {
      _exit(126);
    }
    const std::string output_flag = "--output=" + output;
    execl(HarnessPath().c_str(), "harness", "--transport=unix_stream", "--sizes=32:8192:32",
          "--iterations=2000", "--runs=4", "--format=csv", output_flag.c_str(), nullptr);
    _exit(127);
  }
  usleep(700'000);  // well into the sweep (it takes seconds)
  ASSERT_EQ(kill(child, SIGTERM), 0);
  const Ended ended = WaitBounded(child, 30);
  ASSERT_TRUE(ended.exited) << "still running after 30 s (now killed), or killed by a signal";
  EXPECT_EQ(ended.exit_code, 143);
  const std::string written = ReadWholeFile(output);
  EXPECT_THAT(written, HasSubstr("transport,clock,"));
  EXPECT_GT(Count(written, "\nunix_stream,"), 0) << "some runs were measured before the signal";
  EXPECT_LT(Count(written, "\nunix_stream,"), 1024) << "the sweep stopped early";
  // The echo peer was this process's grandchild; reaped, it no longer exists as a child
  // of anyone we started: no process runs the harness binary now.
  const int leftover =
      std::system(absl::StrCat("pgrep -f '^", HarnessPath(), "' >/dev/null").c_str());
  EXPECT_NE(WEXITSTATUS(leftover), 0) << "a harness process (the peer?) is still running";
}

// "Signals end a run within a second": 1 s is the promise; the bounds below allow a
// loaded 2-core machine 2.5 s, still far below what the old code took (the run's end:
// 25 s for 2M round trips, 1038 s with losses and a 20 s receive timeout).
constexpr double kSignalBoundSeconds = 2.5;

TEST(FaultTest, SigintEndsALongRunWithinASecond) {
  std::string out, err;
  const Ended ended = SignalDuringRun({"--transport=unix_stream", "--sizes=64",
                                       "--iterations=20000000", "--runs=1", "--format=json"},
                                      1.5, SIGINT, "long_run", &out, &err);
  ASSERT_TRUE(ended.exited) << "still running " << ended.seconds << " s after SIGINT";
  EXPECT_EQ(ended.exit_code, 130) << err;
  EXPECT_LT(ended.seconds, kSignalBoundSeconds);
  EXPECT_THAT(out, HasSubstr(R"("results":)")) << "what was measured is printed whole";
}

TEST(FaultTest, SigintEndsATimeoutWaitWithinASecond) {
  // Every datagram lost, each waited for 20 s: the old code answered SIGINT after 1038 s.
  const Ended ended =
      SignalDuringRun({"--transport=udp", "--sizes=64", "--iterations=100", "--runs=1",
                       "--warmup=0", "--peer_drop_every=1", "--receive_timeout=20s"},
                      1.0, SIGINT, "timeout_wait");
  ASSERT_TRUE(ended.exited) << "still running " << ended.seconds << " s after SIGINT";
  EXPECT_EQ(ended.exit_code, 130);
  EXPECT_LT(ended.seconds, kSignalBoundSeconds);
}

TEST(FaultTest, SigtermEndsAStudyWithinASecond) {
  const Ended ended =
      SignalDuringRun({"--experiment=study", "--transport=unix_stream", "--sizes=64",
                       "--iterations=2000000", "--runs=1", "--clocks=clock_gettime:monotonic"},
                      1.5, SIGTERM, "study");
  ASSERT_TRUE(ended.exited) << "still running " << ended.seconds << " s after SIGTERM";
  EXPECT_EQ(ended.exit_code, 143);
  EXPECT_LT(ended.seconds, kSignalBoundSeconds);
}

TEST(FaultTest, ASecondSigintEndsAtOnce) {
  const std::string out_path = ::testing::TempDir() + "/second.out";
  const pid_t child = Spawn({"--transport=udp", "--sizes=64", "--iterations=100", "--warmup=0",
                             "--peer_drop_every=1", "--receive_timeout=20s"},
                            out_path, "/dev/null");
  ASSERT_GT(child, 0);
  usleep(1'000'000);
  // The first asks for a stop (results printed, peer reaped); the second, arriving
  // while that is under way, ends the process at once. Either way: 130, promptly.
  ASSERT_EQ(kill(child, SIGINT), 0);
  ASSERT_EQ(kill(child, SIGINT), 0);
  const Ended ended = WaitBounded(child, 20);
  ASSERT_TRUE(ended.exited);
  EXPECT_EQ(ended.exit_code, 130);
  EXPECT_LT(ended.seconds, kSignalBoundSeconds);
}

TEST(FaultTest, LossesNeverBecomeTheFigure) {
  // Every 100th datagram lost: the old code reported 102 ms for a 10 us round trip, in
  // 52 s. Each lost trip is cut out now; the figure must stay near the loss-free one.
  const auto start = std::chrono::steady_clock::now();
  const HarnessResult lossy = RunHarness(
      "--experiment=sweep --transport=udp --sizes=64 --iterations=500 --runs=3 "
      "--peer_drop_every=100 --format=json");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const HarnessResult clean = RunHarness(
      "--experiment=sweep --transport=udp --sizes=64 --iterations=500 --runs=3 --format=json");
  ASSERT_EQ(lossy.exit_code, 0) << lossy.err;
  ASSERT_EQ(clean.exit_code, 0) << clean.err;
  auto rtts = [](const std::string& json) {
    std::vector<double> values;
    const std::regex rtt(R"re("averaged":\{"rtt_ns":([0-9.eE+-]+))re");
    for (std::sregex_iterator it(json.begin(), json.end(), rtt), end; it != end; ++it) {
      values.push_back(std::stod((*it)[1]));
    }
    return values;
  };
  const std::vector<double> lossy_rtt = rtts(lossy.out), clean_rtt = rtts(clean.out);
  ASSERT_EQ(lossy_rtt.size(), 3u) << lossy.out;
  ASSERT_EQ(clean_rtt.size(), 3u) << clean.out;
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[1];
  };
  // Had a loss's wait (the 250 ms timeout floor) entered the figure, 5 of them in 500
  // round trips would add 2.5 ms to a ~10-100 us round trip: a factor of 25 at least.
  // The issue asks for 2x. On a loaded 2-core VM (other builds running) three pairs of
  // these commands gave ratios of the medians of 0.95, 1.18 and 1.35, one lossy run at
  // 1.9x its clean median: 3x keeps a margin for that noise and still fails the defect
  // by a factor of 8.
  EXPECT_LT(median(lossy_rtt), 3 * median(clean_rtt)) << lossy.out << clean.out;
  const std::regex max_ns(R"re("per_iteration":\{[^}]*"max_ns":([0-9.eE+-]+))re");
  int maxima = 0;
  for (std::sregex_iterator it(lossy.out.begin(), lossy.out.end(), max_ns), end; it != end;
       ++it, ++maxima) {
    EXPECT_LT(std::stod((*it)[1]), 250e6) << "a single reading held a loss's timeout";
  }
  EXPECT_EQ(maxima, 3);
  EXPECT_THAT(lossy.out, HasSubstr(R"("lost":5)"));
  EXPECT_THAT(lossy.out, HasSubstr(R"("valid":true)"));
  EXPECT_THAT(lossy.out, HasSubstr(R"("loss_rate":0.01)"));
  // 15 losses at the 250 ms floor and 3 warm-up losses at its 1 s timeout: 6.75 s of
  // waits, 7.0 s in all on that VM.
  EXPECT_LT(seconds, 10) << "losses must cost bounded waits (7 s is typical)";
}

TEST(FaultTest, WhenEveryDatagramIsLostNoFigureIsPrintedAndTheExitIsOne) {
  const HarnessResult r = RunHarness(
      "--experiment=sweep --transport=udp --sizes=64 --iterations=500 --runs=1 "
      "--peer_drop_every=1 --receive_timeout=100ms");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("no valid run"));
  EXPECT_THAT(r.err, HasSubstr("no valid run"));
  EXPECT_THAT(r.err, HasSubstr("64 bytes (4 attempts"));
  const HarnessResult json = RunHarness(
      "--experiment=sweep --transport=udp --sizes=64 --iterations=500 --runs=1 "
      "--peer_drop_every=1 --receive_timeout=100ms --retries=0 --format=json");
  EXPECT_EQ(json.exit_code, 1) << json.err;
  EXPECT_THAT(json.out, HasSubstr(R"("averaged":{"rtt_ns":null)"));
  EXPECT_THAT(json.out, HasSubstr(R"("valid":false)"));
}

TEST(FaultTest, ASilentStreamPeerEndsTheRun) {
  // On a byte stream a missing echo is a fault, not a loss: the stream is out of step.
  const HarnessResult r = RunHarness(
      "--transport=unix_stream --sizes=64 --iterations=20 --runs=1 --warmup=0 "
      "--peer_reply_delay=300ms --receive_timeout=100ms --format=json");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("round trip 1 of 20"));
  EXPECT_THAT(r.out, HasSubstr(R"("lost":0)"));
  EXPECT_THAT(r.out, HasSubstr(R"("completed":0)"));
}

// The pid of a child of `parent` (the forked echo peer), or -1 when it has none.
pid_t ChildOf(pid_t parent) {
  const std::string children =
      ReadWholeFile(absl::StrCat("/proc/", parent, "/task/", parent, "/children"));
  return children.empty() ? -1 : static_cast<pid_t>(std::atol(children.c_str()));
}

TEST(FaultTest, ADatagramPeerStoppedMidRunIsGivenUpOnWithExitOne) {
  // SIGSTOP the udp peer during 2M round trips: every later datagram is lost. Without a
  // bound the run counted 250 ms losses for days; it ends after 8 in a row now, keeping
  // and writing what was measured.
  const std::string output = ::testing::TempDir() + "/stopped_peer.json";
  const std::string out_path = ::testing::TempDir() + "/stopped_peer.out";
  const std::string err_path = ::testing::TempDir() + "/stopped_peer.err";
  const pid_t child = Spawn({"--transport=udp", "--sizes=64", "--iterations=2000000", "--runs=1",
                             "--receive_timeout=250ms", "--format=json", "--output=" + output},
                            out_path, err_path);
  ASSERT_GT(child, 0);
  usleep(1'500'000);  // into the timed round trips
  const pid_t peer = ChildOf(child);
  ASSERT_GT(peer, 0) << "no echo peer found";
  ASSERT_EQ(kill(peer, SIGSTOP), 0);
  const Ended ended = WaitBounded(child, 10);
  kill(peer, SIGKILL);  // if the harness did not reap it (it should have)
  std::printf("stopped peer: the harness ended %.3f s after SIGSTOP\n", ended.seconds);
  ASSERT_TRUE(ended.exited) << "still running 10 s after the peer stopped (now killed)";
  EXPECT_EQ(ended.exit_code, 1);
  const std::string err = ReadWholeFile(err_path);
  EXPECT_THAT(err, HasSubstr("size 64 bytes, run 1"));
  EXPECT_THAT(err, HasSubstr("8 round trips in a row"));
  const std::string written = ReadWholeFile(output);
  EXPECT_THAT(written, HasSubstr("8 round trips in a row"));
  EXPECT_THAT(written, HasSubstr(R"("lost":8)"));
  EXPECT_THAT(written, ::testing::Not(HasSubstr(R"("rtt_ns":null)")))
      << "the trips before the stop are a figure";
}

TEST(FaultTest, WhenEveryDatagramIsLostTheLaterRunsOfTheSizeAreSkipped) {
  // Every datagram lost, 3 runs: 12 attempts of 3 warm-up waits took 37 s; run 1's 4
  // attempts show the size has no chance, and runs 2-3 are skipped (about 12 s).
  const auto start = std::chrono::steady_clock::now();
  const HarnessResult r = RunHarness(
      "--transport=udp --sizes=64 --iterations=500 --runs=3 --peer_drop_every=1 --format=json");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("every datagram lost, 3 runs: %.3f s\n", seconds);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("64 bytes (4 attempts"));
  EXPECT_THAT(r.err, HasSubstr("runs 2-3 of this size not measured"));
  EXPECT_THAT(r.out, HasSubstr("runs 2-3 of this size not measured"));
  EXPECT_EQ(Count(r.out, R"("run":1)"), 4) << r.out;
  EXPECT_EQ(Count(r.out, R"("run":2)"), 0) << r.out;
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr(R"("valid":true)")));
  EXPECT_LT(seconds, 15) << "the old code took 37 s";
}

// A full file system, made deterministic: files may not grow past 128 KiB (ulimit -f, in
// 512-byte blocks; SIGXFSZ ignored so that the write fails with EFBIG instead of killing
// the process), and a stand-in gnuplot (shell builtins only, it may start no process)
// raises its own limit again and draws a plot of 1 MiB. The plot's data fits; the plot
// does not.
TEST(FaultTest, APlotThatCannotBeWrittenExitsOneAndLeavesTheOldPair) {
  const std::string dir = ::testing::TempDir() + "/plot_full";
  const std::string bin = dir + "/bin";
  mkdir(dir.c_str(), 0700);
  mkdir(bin.c_str(), 0700);
  {
    FILE* gnuplot = std::fopen((bin + "/gnuplot").c_str(), "w");
    ASSERT_NE(gnuplot, nullptr);
    std::fputs(
        "#!/bin/sh\nulimit -S -f unlimited\nline=0\n"
        "for i in 1 2 3 4 5 6 7 8 9; do line=$line$line; done\n"
        "i=0\nwhile [ $i -lt 2048 ]; do printf '%s\\n' \"$line\"; i=$((i + 1)); done > plot.svg\n",
        gnuplot);
    std::fclose(gnuplot);
    ASSERT_EQ(chmod((bin + "/gnuplot").c_str(), 0755), 0);
  }
  // --analyze draws the sweep's plot from a table: its failure is exit 1 as well.
  const std::string csv = dir + "/table.csv";
  const HarnessResult table = tickbench::testing::RunHarness(
      absl::StrCat("--experiment=sweep --transport=sim --sizes=64:1024:64 --iterations=100 "
                   "--runs=2 --format=csv --output=",
                   csv),
      "", 60);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  const std::string env = absl::StrCat("trap '' XFSZ; ulimit -S -f 256; PATH=", bin, ":$PATH");
  for (const std::string& experiment : {"sweep", "study", "analyze"}) {
    const std::string svg = absl::StrCat(dir, "/", experiment, ".svg");
    const std::string dat = absl::StrCat(dir, "/", experiment, ".dat");
    for (const std::string& path : {svg, dat}) {
      FILE* old = std::fopen(path.c_str(), "w");
      ASSERT_NE(old, nullptr);
      std::fputs("old\n", old);
      std::fclose(old);
    }
    const std::string what =
        experiment == "analyze"
            ? absl::StrCat("--analyze=", csv)
            : absl::StrCat("--experiment=", experiment,
                           " --transport=sim --sizes=64 --iterations=100 --runs=2");
    const HarnessResult r =
        tickbench::testing::RunHarness(absl::StrCat(what, " --plot=", svg), env, 60);
    EXPECT_EQ(r.exit_code, 1) << experiment << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("--plot: ")) << experiment;
    EXPECT_THAT(r.err, HasSubstr("are as they were")) << experiment;
    EXPECT_EQ(ReadWholeFile(svg), "old\n") << experiment;
    EXPECT_EQ(ReadWholeFile(dat), "old\n") << experiment << ": no new data beside the old plot";
  }
}

// The cells of CSV `text`'s data row `row` (0: the first after the header) by column
// name; comment lines (#) and quoting aside (none of these cells is quoted).
std::map<std::string, std::string> CsvRow(const std::string& text, size_t row) {
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    if (!absl::StartsWith(line, "#")) lines.emplace_back(line);
  }
  std::map<std::string, std::string> cells;
  if (lines.size() < row + 2) return cells;
  const std::vector<std::string> names = absl::StrSplit(lines[0], ',');
  const std::vector<std::string> values = absl::StrSplit(lines[row + 1], ',');
  for (size_t i = 0; i < names.size() && i < values.size(); ++i) cells[names[i]] = values[i];
  return cells;
}

// `json`'s member at `path` ("results.0.per_iteration.mean_ns"), or nullptr.
const JsonValue* At(const JsonValue& json, const std::string& path) {
  const JsonValue* at = &json;
  for (absl::string_view key : absl::StrSplit(path, '.')) {
    size_t index = 0;
    if (at->kind == JsonValue::Kind::kArray && absl::SimpleAtoi(key, &index)) {
      at = index < at->items.size() ? &at->items[index] : nullptr;
    } else {
      at = at->Get(key);
    }
    if (at == nullptr) return nullptr;
  }
  return at;
}

// The one rule for figures nothing measured, in every format: a sweep whose peer stops in
// the warm-up, and a study whose first run it stops in (runs=0), have no figure: null in
// JSON, an empty cell in CSV, "-" in the table; never 0.
TEST(FaultTest, FiguresNotMeasuredAreNullInJsonAndEmptyInCsvAndTheTable) {
  const std::string sweep =
      "--transport=sim --sizes=64 --iterations=100 --runs=1 --peer_stop_after=5";
  const std::string study =
      "--experiment=study --transport=sim --sizes=64 --iterations=100 --runs=2 "
      "--clocks=tick:10ms --peer_stop_after=5";
  const HarnessResult sweep_json = RunHarness(sweep + " --format=json");
  const HarnessResult study_json = RunHarness(study + " --format=json");
  EXPECT_EQ(sweep_json.exit_code, 1) << sweep_json.err;
  EXPECT_EQ(study_json.exit_code, 1) << study_json.err;
  absl::StatusOr<JsonValue> swept = ParseJson(sweep_json.out);
  absl::StatusOr<JsonValue> studied = ParseJson(study_json.out);
  ASSERT_TRUE(swept.ok()) << swept.status() << sweep_json.out;
  ASSERT_TRUE(studied.ok()) << studied.status() << study_json.out;
  for (const char* path :
       {"averaged.rtt_ns", "averaged.throughput_bytes_per_s", "averaged.quantum_ns",
        "per_iteration.mean_ns", "per_iteration.sd_ns", "per_iteration.min_ns",
        "per_iteration.p50_ns", "per_iteration.p99_ns", "per_iteration.max_ns",
        "per_iteration.zero_fraction", "reference.averaged_rtt_ns",
        "reference.per_iteration_mean_ns", "reference.per_iteration_p50_ns"}) {
    const JsonValue* value = At(*swept, absl::StrCat("results.0.", path));
    ASSERT_NE(value, nullptr) << path;
    EXPECT_EQ(value->kind, JsonValue::Kind::kNull) << "sweep " << path << ": " << value->number;
  }
  ASSERT_NE(At(*studied, "results.0.runs"), nullptr);
  EXPECT_EQ(At(*studied, "results.0.runs")->number, 0);
  for (const char* path :
       {"reference.rtt_ns", "averaged.rtt_ns", "averaged.error_ns", "per_iteration.mean_ns",
        "per_iteration.sd_ns", "per_iteration.p50_ns", "per_iteration.zero_fraction",
        "per_iteration.truth_ns", "per_iteration.mean_error_ns", "theory.observed_f",
        "probe_effect_ns_per_read"}) {
    const JsonValue* value = At(*studied, absl::StrCat("results.0.", path));
    ASSERT_NE(value, nullptr) << path;
    EXPECT_EQ(value->kind, JsonValue::Kind::kNull) << "study " << path << ": " << value->number;
  }

  const std::map<std::string, std::string> sweep_csv =
      CsvRow(RunHarness(sweep + " --format=csv").out, 0);
  for (const char* column : {"averaged_rtt_ns", "per_iteration_mean_ns", "per_iteration_p50_ns",
                             "zero_fraction", "reference_averaged_rtt_ns", "resolution_ns"}) {
    ASSERT_EQ(sweep_csv.count(column), 1u) << column;
    EXPECT_EQ(sweep_csv.at(column), "") << "sweep " << column;
  }
  const std::map<std::string, std::string> study_csv =
      CsvRow(RunHarness(study + " --format=csv").out, 0);
  ASSERT_EQ(study_csv.count("runs"), 1u);
  EXPECT_EQ(study_csv.at("runs"), "0");
  for (const char* column :
       {"truth_ns", "truth_sd_ns", "averaged_ns", "averaged_error_ns", "per_iteration_mean_ns",
        "per_iteration_sd_ns", "per_iteration_p50_ns", "zero_fraction", "per_iteration_truth_ns",
        "observed_f", "probe_effect_ns_per_read", "mean_bias_ns"}) {
    ASSERT_EQ(study_csv.count(column), 1u) << column;
    EXPECT_EQ(study_csv.at(column), "") << "study " << column;
  }

  // The study's row for 64 B: its size, then no figure, and no 0 standing in for one.
  const HarnessResult study_table = RunHarness(study);
  const std::regex row("\n +64 +([^\n]*)\n");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(study_table.out, match, row)) << study_table.out;
  const std::string cells = match[1];
  EXPECT_EQ(cells.find_first_of("0123456789"), std::string::npos) << cells;
  EXPECT_THAT(cells, HasSubstr("-")) << cells;
}

}  // namespace
