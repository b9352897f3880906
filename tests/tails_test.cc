// Tails and raw readings end to end, on the binary: --percentiles pooled over runs equal a
// computation by hand on the --raw file of the same run (which pins both), --raw has a line
// for every reading, bad --percentiles and --raw are refused, and a sweep's table rows
// appear on standard output as each size finishes, not at the end.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "harness/json/json_reader.h"
#include "tests/harness_runner.h"

namespace tickbench::testing {
namespace {

using harness::JsonValue;
using harness::ParseJson;

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return absl::StrCat(dir != nullptr ? dir : ".", "/", name);
}

// Type 7, as R's and NumPy's default.
double Quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (position - below) * (values[above] - values[below]);
}

double NumberOf(const JsonValue& object, const std::string& key) {
  const JsonValue* v = object.Get(key);
  return v != nullptr && v->kind == JsonValue::Kind::kNumber ? v->number : NAN;
}

TEST(Tails, PooledPercentilesAreThoseOfTheRawReadings) {
  const std::string json_path = TempPath("tails.json"), raw_path = TempPath("raw.csv");
  // 3 sizes x 3 runs x 300 round trips, one datagram in 13 dropped by the peer.
  const HarnessResult r = RunHarness(absl::StrCat(
      "--transport=sim --sim_fixed=20us --sim_jitter=exponential --sim_jitter_scale=3us "
      "--sizes=64,512,1024 --runs=3 --iterations=300 --peer_drop_every=13 "
      "--percentiles=50,99.9,1 --format=json --quiet --output=",
      json_path, " --raw=", raw_path));
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // Every reading once: size, run, index, measured, reference, valid, attempt.
  const std::string raw = ReadWholeFile(raw_path);
  ASSERT_TRUE(
      absl::StartsWith(raw, "size_bytes,run,index,measured_ns,reference_ns,valid,attempt\n"))
      << raw.substr(0, 200);
  std::map<int64_t, std::vector<double>> valid_by_size;
  int64_t rows = 0, faulty = 0;
  for (absl::string_view line : absl::StrSplit(raw, '\n', absl::SkipEmpty())) {
    if (absl::StartsWith(line, "size_bytes")) continue;
    const std::vector<std::string> cells = absl::StrSplit(line, ',');
    ASSERT_EQ(cells.size(), 7u) << line;
    ++rows;
    int64_t size = 0;
    double measured = 0, reference = 0;
    ASSERT_TRUE(absl::SimpleAtoi(cells[0], &size)) << line;
    ASSERT_TRUE(absl::SimpleAtod(cells[3], &measured)) << line;
    ASSERT_TRUE(absl::SimpleAtod(cells[4], &reference)) << line;  // sim: virtual reference
    if (cells[5] == "1") {
      valid_by_size[size].push_back(measured);
    } else {
      ++faulty;
    }
  }

  absl::StatusOr<JsonValue> json = ParseJson(ReadWholeFile(json_path));
  ASSERT_TRUE(json.ok()) << json.status();
  int64_t lost = 0, after_fault = 0;
  for (const JsonValue& result : json->Get("results")->items) {
    lost += static_cast<int64_t>(NumberOf(*result.Get("faults"), "lost"));
    after_fault += static_cast<int64_t>(NumberOf(*result.Get("faults"), "after_fault"));
  }
  EXPECT_GT(lost, 0);
  EXPECT_GT(after_fault, 0);
  // Every planned round trip has its line; the lost ones' lines say valid 0, and so do
  // those of the clean trips right after a fault, left out as a warm-up's are.
  EXPECT_EQ(rows, 3 * 3 * 300);
  EXPECT_EQ(faulty, lost + after_fault);

  const JsonValue* pooled = json->Get("pooled_percentiles");
  ASSERT_NE(pooled, nullptr);
  ASSERT_EQ(pooled->items.size(), 3u);
  for (const JsonValue& p : pooled->items) {
    const int64_t size = static_cast<int64_t>(NumberOf(p, "size_bytes"));
    const std::vector<double>& values = valid_by_size[size];
    EXPECT_EQ(NumberOf(p, "readings"), static_cast<double>(values.size())) << size;
    EXPECT_EQ(NumberOf(p, "runs"), 3) << size;
    for (const auto& [name, q] :
         {std::pair<std::string, double>{"p50_ns", 0.5}, {"p99_9_ns", 0.999}, {"p1_ns", 0.01}}) {
      const double expected = Quantile(values, q);
      EXPECT_NEAR(NumberOf(p, name), expected, 1e-6 * expected) << size << " " << name;
      const JsonValue* ci = p.Get(name + "_ci95");
      ASSERT_NE(ci, nullptr);
      ASSERT_EQ(ci->items.size(), 2u);
      EXPECT_LE(ci->items[0].number, NumberOf(p, name));
      EXPECT_GE(ci->items[1].number, NumberOf(p, name));
    }
    // Pooled, not the mean of the runs' medians: with exponential jitter the two differ.
    EXPECT_GT(NumberOf(p, "p99_9_ns"), NumberOf(p, "p50_ns"));
  }
}

TEST(Tails, CsvHasAColumnPerPercentile) {
  const HarnessResult r = RunHarness(
      "--transport=sim --sizes=64 --runs=2 --iterations=50 --percentiles=99.9 --format=csv "
      "--csv_context=false --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, ",p99_9_ns,p99_9_ns_ci95_low,p99_9_ns_ci95_high\n"))
      << r.out;
  EXPECT_FALSE(absl::StrContains(r.out, ",p50_ns,")) << r.out;
}

TEST(Tails, BadPercentilesAndRawAreRefused) {
  for (const char* bad : {"0", "100", "50,abc", "1,2,3,4,5,6,7,8,9,10,11,12,13", "50,50"}) {
    const HarnessResult r =
        RunHarness(absl::StrCat("--transport=sim --sizes=64 --percentiles=", bad));
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_TRUE(absl::StrContains(r.err, "--percentiles")) << r.err;
    EXPECT_TRUE(absl::StrContains(r.err, "allowed")) << r.err;
    EXPECT_EQ(r.out, "") << bad;
  }
  const HarnessResult dash = RunHarness("--transport=sim --sizes=64 --raw=-");
  EXPECT_EQ(dash.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(dash.err, "--raw")) << dash.err;
  const HarnessResult missing =
      RunHarness(absl::StrCat("--transport=sim --sizes=64 --raw=", TempPath("no/such/dir.csv")));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(missing.err, "--raw")) << missing.err;
  EXPECT_EQ(missing.out, "");  // refused before anything was measured
  const HarnessResult study =
      RunHarness("--experiment=study --transport=sim --sizes=64 --percentiles=99");
  EXPECT_EQ(study.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(study.err, "--percentiles")) << study.err;
}

// Starts the binary with its stdout on a pipe; returns the pid and the read end.
pid_t Start(const std::string& args, FILE** out) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    const std::string command = absl::StrCat("exec ", HarnessPath(), " ", args);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  *out = fdopen(fds[0], "r");
  return pid;
}

TEST(Tails, TableRowsAppearAsEachSizeFinishes) {
  // Each round trip waits 2 ms in the peer: a size takes 0.3 s or more, five sizes 1.5 s.
  FILE* out = nullptr;
  const pid_t pid = Start(
      "--transport=unix_stream --sizes=32,64,128,256,512 --iterations=150 --runs=1 --warmup=2 "
      "--peer_reply_delay=2ms --reference_clock=none --quiet 2>/dev/null",
      &out);
  ASSERT_GT(pid, 0);
  ASSERT_NE(out, nullptr);
  char buffer[4096];
  bool header = false, running_at_first_row = false;
  std::string first_row;
  while (std::fgets(buffer, sizeof buffer, out) != nullptr) {
    const std::string line = buffer;
    if (absl::StrContains(line, "size B")) {
      header = true;
      continue;
    }
    if (header && absl::StartsWith(absl::StripLeadingAsciiWhitespace(line), "32 ")) {
      first_row = line;
      int status = 0;
      running_at_first_row = waitpid(pid, &status, WNOHANG) == 0;
      break;
    }
  }
  std::string rest;
  while (std::fgets(buffer, sizeof buffer, out) != nullptr) rest += buffer;
  std::fclose(out);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  ASSERT_FALSE(first_row.empty()) << rest;
  EXPECT_TRUE(running_at_first_row) << "the first row came only when the process had ended";
  // The other rows and the footer follow, once each.
  EXPECT_TRUE(absl::StrContains(rest, "\n     512 ")) << rest;
  EXPECT_TRUE(absl::StrContains(rest, "Averaged figures time the whole loop")) << rest;
  EXPECT_FALSE(absl::StrContains(rest, "size B")) << rest;
}

}  // namespace
}  // namespace tickbench::testing
