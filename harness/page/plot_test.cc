#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/page/gnuplot.h"
#include "harness/page/study_plot.h"
#include "harness/page/sweep_plot.h"
#include "platform/no_spawn.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteText(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

bool Exists(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0;
}

std::string FreshDirectory() {
  std::string pattern = ::testing::TempDir() + "/plot_test.XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  EXPECT_NE(mkdtemp(name.data()), nullptr);
  return name.data();
}

int FilesIn(const std::string& directory) {
  int count = 0;
  DIR* dir = opendir(directory.c_str());
  if (dir == nullptr) return -1;
  while (dirent* entry = readdir(dir)) {
    count += std::string(entry->d_name) != "." && std::string(entry->d_name) != "..";
  }
  closedir(dir);
  return count;
}

// mkdir -p of the directory holding `path`.
void MakeParents(const std::string& path) {
  for (size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    mkdir(path.substr(0, slash).c_str(), 0700);
  }
}

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

bool GnuplotOnPath() {
  for (absl::string_view dir : absl::StrSplit(getenv("PATH") ? getenv("PATH") : "", ':')) {
    if (access(absl::StrCat(dir, "/gnuplot").c_str(), X_OK) == 0) return true;
  }
  return false;
}

analysis::Sweep SmallSweep(const std::string& value_name, const std::string& unit) {
  analysis::Sweep sweep;
  sweep.value_name = value_name;
  sweep.unit = unit;
  for (double size : {32.0, 64.0, 128.0})
    sweep.points.push_back({size, {1000 + size, 1100 + size}});
  return sweep;
}

analysis::Step StepAt(double before, double after) {
  analysis::Step step;
  step.size_before = before;
  step.size_after = after;
  return step;
}

StudyCell CellFor(const std::string& clock) {
  StudyCell cell;
  cell.clock = clock;
  cell.histogram = {5, 3, 1};
  return cell;
}

// Strings that each would run a command or break a line if they reached gnuplot raw.
std::vector<std::string> HostileStrings(const std::string& marker) {
  return {"a\nb",
          "it's",
          "say \"hi\"",
          "back\\slash\\",
          absl::StrCat("x'\n!touch ", marker, "\n'"),
          absl::StrCat("x\n!touch ", marker, "\n"),
          absl::StrCat("`touch ", marker, "`"),
          absl::StrCat("$(touch ", marker, ")"),
          "@macro",
          absl::StrCat("\r\t\x01\x7f", "end")};
}

// Fails unless `script` shows no trace of a user string getting through unfiltered.
void ExpectHarmlessScript(const std::string& script) {
  for (absl::string_view bad : {"!", "`", "\"", "\\", "@", "$(", "\r", "\t", "\x01", "\x7f"}) {
    EXPECT_FALSE(absl::StrContains(script, bad)) << "'" << bad << "' in:\n" << script;
  }
  for (absl::string_view line : absl::StrSplit(script, '\n', absl::SkipEmpty())) {
    EXPECT_TRUE(absl::StartsWith(line, "set ") || absl::StartsWith(line, "plot ") ||
                absl::StartsWith(line, "unset "))
        << "a line no command of ours starts: " << line;
    // Quotes pair up on every line: no string runs over into the next. ('' is a quote
    // inside a string, counted twice.)
    EXPECT_EQ(std::count(line.begin(), line.end(), '\'') % 2, 0) << line;
  }
  // The only files it names are the fixed ones.
  EXPECT_THAT(script, HasSubstr("set output 'plot.svg'\n"));
  std::vector<absl::string_view> pieces = absl::StrSplit(script, "set output");
  EXPECT_EQ(pieces.size(), 2u);
}

TEST(PlotTest, WritesTheDataAndAnSvgThatNamesItsAxes) {
  const analysis::Sweep sweep = SmallSweep("averaged_rtt_ns", "ns");
  const std::string svg = ::testing::TempDir() + "/sweep.svg";
  const absl::Status status = PlotSweep(svg, sweep, {StepAt(64, 128)}, "test sweep");
  if (status.code() == absl::StatusCode::kFailedPrecondition) {
    GTEST_SKIP() << "gnuplot is not installed: " << status.message();
  }
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_THAT(Slurp(PlotDataPath(svg)), HasSubstr("128 1.228"));  // us, run 2
  const std::string text = Slurp(svg);
  EXPECT_THAT(text, HasSubstr("<svg"));
  EXPECT_THAT(text, HasSubstr("</svg>"));
  EXPECT_THAT(text, HasSubstr("message size (bytes)"));
  EXPECT_THAT(text, HasSubstr("round-trip time (us)"));
  EXPECT_THAT(text, HasSubstr("test sweep"));
  EXPECT_THAT(text, HasSubstr("jump 64-128"));
}

TEST(PlotTest, DataPathReplacesTheSuffix) {
  EXPECT_EQ(PlotDataPath("/tmp/a.svg"), "/tmp/a.dat");
  EXPECT_EQ(PlotDataPath("plot"), "plot.dat");
}

TEST(GnuplotSafeTextTest, KeepsTheWhitelistAndReplacesEverythingElse) {
  const std::string kept = "Az09 .,:;-_/()+=%#[] 5 \xC2\xB5s";
  EXPECT_EQ(GnuplotSafeText(kept), kept);
  EXPECT_EQ(GnuplotSafeText("a\nb'c\"d\\e!f@g$h`i{j}k^l&m~n*o<p>q|r?s\x01t\x7f"),
            "a?b?c?d?e?f?g?h?i?j?k?l?m?n?o?p?q?r?s?t?");
  // One '?' per UTF-8 character; a stray continuation byte or a lone 0xC2 is one byte.
  EXPECT_EQ(GnuplotSafeText("caf\xC3\xA9 \xE2\x82\xAC"), "caf? ?");
  EXPECT_EQ(GnuplotSafeText("\xB5\xC2"), "??");
}

TEST(GnuplotScriptTest, UserStringsReachTheSweepScriptOnlyFiltered) {
  for (const std::string& hostile : HostileStrings("/nonexistent/marker")) {
    SCOPED_TRACE(hostile);
    const GnuplotJob job = SweepPlotJob(SmallSweep(hostile, hostile), {StepAt(64, 128)}, hostile);
    ExpectHarmlessScript(job.script);
    EXPECT_FALSE(absl::StrContains(job.script, "touch /nonexistent/marker\n"));
    EXPECT_THAT(job.script, HasSubstr(absl::StrCat("set title '", GnuplotSafeText(hostile), "'")));
    EXPECT_THAT(job.script, HasSubstr("plot 'plot.dat' index 0"));
    // The data's comment lines stay one line each: 4 comments, 6 runs, 3 means, and one
    // empty row each for the fit and the values beyond the range (there are none).
    int lines = 0;
    for (absl::string_view line : absl::StrSplit(job.data, '\n', absl::SkipEmpty())) {
      ++lines;
      EXPECT_TRUE(absl::StartsWith(line, "#") || absl::ascii_isdigit(line[0])) << line;
    }
    EXPECT_EQ(lines, 4 + 6 + 3 + 2);
  }
}

TEST(GnuplotScriptTest, ClockNamesReachTheStudyScriptOnlyFiltered) {
  std::vector<StudyCell> cells;
  for (const std::string& hostile : HostileStrings("/nonexistent/marker"))
    cells.push_back(CellFor(hostile));
  const GnuplotJob job = StudyHistogramJob(cells);
  ExpectHarmlessScript(job.script);
  for (const std::string& hostile : HostileStrings("/nonexistent/marker")) {
    EXPECT_THAT(job.script,
                HasSubstr(absl::StrCat("set title '", GnuplotSafeText(hostile), " at 0 B'")));
  }
  for (absl::string_view line : absl::StrSplit(job.data, '\n', absl::SkipEmpty())) {
    EXPECT_TRUE(absl::StartsWith(line, "#") || absl::ascii_isdigit(line[0])) << line;
  }
  EXPECT_THAT(job.script, HasSubstr("' noenhanced\nset xlabel 'reading, in ticks of T = 1us"));
}

// The marker check below is meaningful: a script that does reach gnuplot's shell escape
// leaves the marker.
TEST(GnuplotRunTest, AShellEscapeInTheScriptRunsNothing) {
  if (!GnuplotOnPath()) GTEST_SKIP() << "gnuplot is not installed";
  if (!platform::NewProcessBlockAvailable()) {
    GTEST_SKIP() << "no seccomp filters here (an emulator): the whitelist alone guards";
  }
  // A script that got past the whitelist: gnuplot's ! and system() would run a shell.
  const std::string directory = FreshDirectory();
  const std::string marker = directory + "/marker";
  GnuplotJob job = SweepPlotJob(SmallSweep("v", "ns"), {}, "t");
  job.script = absl::StrCat("!touch '", marker, "'\n", job.script);
  EXPECT_TRUE(RunGnuplotJob(directory + "/p.svg", job).ok());  // the plot is still drawn
  EXPECT_THAT(Slurp(directory + "/p.svg"), HasSubstr("</svg>"));
  job.script = absl::StrCat("x = system('touch ", marker, "')\n", job.script);
  EXPECT_FALSE(RunGnuplotJob(directory + "/p2.svg", job).ok());  // gnuplot stops there
  EXPECT_FALSE(Exists(marker));
}

TEST(GnuplotRunTest, ControlWithoutTheFilterAShellEscapeRuns) {
  // The control for the test above: gnuplot does run `!cmd` when nothing stops it, so that
  // test can fail.
  if (!GnuplotOnPath()) GTEST_SKIP() << "gnuplot is not installed";
  const std::string directory = FreshDirectory();
  const std::string marker = directory + "/marker";
  const std::string script = absl::StrCat(directory, "/s.gp");
  {
    std::ofstream out(script);
    out << "!touch '" << marker << "'\n";
  }
  ASSERT_EQ(std::system(absl::StrCat("gnuplot '", script, "' 2>/dev/null").c_str()), 0);
  EXPECT_TRUE(Exists(marker));
}

TEST(GnuplotRunTest, HostilePathsAndTitlesRunNothingAndLandExactlyWhereNamed) {
  if (!GnuplotOnPath()) GTEST_SKIP() << "gnuplot is not installed";
  const std::string directory = FreshDirectory();
  const std::string scratch = FreshDirectory();
  ScopedEnv tmpdir("TMPDIR", scratch);
  const std::string marker = directory + "/marker";
  // Directories and a file name with quotes, backslash, backquote, $( and newlines: all
  // legal on Linux.
  const std::string svg =
      absl::StrCat(directory, "/a'\"\\`$(\n!touch ", marker, "\n/p\n!touch ", marker, "\n.svg");
  MakeParents(svg);
  for (const std::string& hostile : HostileStrings(marker)) {
    SCOPED_TRACE(hostile);
    const absl::Status status =
        PlotSweep(svg, SmallSweep(hostile, "ns"), {StepAt(64, 128)}, hostile);
    EXPECT_FALSE(Exists(marker));
    EXPECT_TRUE(status.ok()) << status;
    EXPECT_THAT(Slurp(svg), HasSubstr("</svg>"));
    EXPECT_THAT(Slurp(PlotDataPath(svg)), HasSubstr("128 1.228"));
    EXPECT_EQ(FilesIn(scratch), 0);  // the private directory is gone
    unlink(svg.c_str());

    const std::string study_svg = absl::StrCat(directory, "/s", hostile, ".svg");
    MakeParents(study_svg);
    const absl::Status study =
        PlotStudyHistograms(study_svg, {CellFor(hostile), CellFor("tick:1ms")});
    EXPECT_FALSE(Exists(marker));
    EXPECT_TRUE(study.ok()) << study;
    EXPECT_THAT(Slurp(study_svg), HasSubstr("</svg>"));
    EXPECT_EQ(FilesIn(scratch), 0);
  }
}

TEST(GnuplotRunTest, RefusesASymbolicLinkAsThePlot) {
  if (!GnuplotOnPath()) GTEST_SKIP() << "gnuplot is not installed";
  const std::string directory = FreshDirectory();
  ASSERT_EQ(symlink("elsewhere.svg", (directory + "/p.svg").c_str()), 0);
  const absl::Status status = PlotSweep(directory + "/p.svg", SmallSweep("v", "ns"), {}, "t");
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_FALSE(Exists(directory + "/elsewhere.svg"));
}

// A stand-in gnuplot, a shell script, for what real gnuplot cannot be made to do on demand.
class FakeGnuplotTest : public ::testing::Test {
 protected:
  void Install(const std::string& body) {
    bin_ = FreshDirectory();
    ASSERT_FALSE(absl::StrContains(bin_, '\''));
    std::ofstream(bin_ + "/gnuplot") << "#!/bin/sh\n" << body;
    ASSERT_EQ(chmod((bin_ + "/gnuplot").c_str(), 0755), 0);
    path_.emplace("PATH",
                  absl::StrCat(bin_, ":", getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin"));
    scratch_ = FreshDirectory();
    tmpdir_.emplace("TMPDIR", scratch_);
  }

  std::string bin_;
  std::string scratch_;
  std::optional<ScopedEnv> path_;
  std::optional<ScopedEnv> tmpdir_;
};

TEST_F(FakeGnuplotTest, GetsTheScriptOnStandardInputInAPrivateDirectory) {
  const std::string out = FreshDirectory();
  // Shell builtins only: gnuplot runs under a filter that refuses new processes, so the
  // stand-in may start no cat or ls of its own.
  Install(absl::StrCat("while IFS= read -r line; do printf '%s\\n' \"$line\"; done > '", out,
                       "/seen_script'\npwd -P > '", out,
                       "/seen_pwd'\nfor f in *; do echo \"$f\"; done > '", out,
                       "/seen_files'\necho drawn > plot.svg\n"));
  const GnuplotJob job = SweepPlotJob(SmallSweep("v", "ns"), {}, "t");
  ASSERT_TRUE(RunGnuplotJob(out + "/p.svg", job).ok());
  EXPECT_EQ(Slurp(out + "/seen_script"), job.script);
  char* real_scratch = realpath(scratch_.c_str(), nullptr);
  ASSERT_NE(real_scratch, nullptr);
  EXPECT_THAT(Slurp(out + "/seen_pwd"),
              ::testing::StartsWith(absl::StrCat(real_scratch, "/tickbench-plot.")));
  free(real_scratch);
  EXPECT_THAT(Slurp(out + "/seen_files"), HasSubstr("plot.dat"));
  EXPECT_EQ(Slurp(out + "/p.svg"), "drawn\n");
  EXPECT_EQ(Slurp(out + "/p.dat"), job.data);
  EXPECT_EQ(FilesIn(scratch_), 0);
}

TEST_F(FakeGnuplotTest, AHungGnuplotIsKilledAfterTheTimeout) {
  Install("exec sleep 60\n");
  const std::string out = FreshDirectory();
  const absl::Time start = absl::Now();
  const absl::Status status = RunGnuplotJob(
      out + "/p.svg", SweepPlotJob(SmallSweep("v", "ns"), {}, "t"), absl::Milliseconds(200));
  const absl::Duration took = absl::Now() - start;
  EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded) << status;
  EXPECT_GE(took, absl::Milliseconds(200));
  EXPECT_LT(took, absl::Seconds(20));  // not the 60 s of the sleep
  EXPECT_FALSE(Exists(out + "/p.svg"));
  EXPECT_FALSE(Exists(out + "/p.dat"));  // no data without its plot
  EXPECT_EQ(FilesIn(scratch_), 0);
}

TEST_F(FakeGnuplotTest, AFailingGnuplotWritesNoPlotAndLeavesNothingBehind) {
  Install("echo partial > plot.svg\nexit 3\n");
  const std::string out = FreshDirectory();
  const absl::Status status =
      RunGnuplotJob(out + "/p.svg", SweepPlotJob(SmallSweep("v", "ns"), {}, "t"));
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr("exit status 3"));
  EXPECT_FALSE(Exists(out + "/p.svg"));
  EXPECT_EQ(FilesIn(scratch_), 0);
}

// Files may grow to `bytes` in this scope (RLIMIT_FSIZE, soft limit): a write past it
// fails with EFBIG, as one on a full file system fails with ENOSPC. SIGXFSZ is ignored
// meanwhile, so that the write fails instead of the process. A child may raise its own
// soft limit again (`ulimit -S -f unlimited`): the hard limit stays.
class ScopedFileSizeLimit {
 public:
  explicit ScopedFileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &old_);
    old_handler_ = signal(SIGXFSZ, SIG_IGN);
    rlimit limit = old_;
    limit.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~ScopedFileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old_);
    signal(SIGXFSZ, old_handler_);
  }

 private:
  rlimit old_;
  sighandler_t old_handler_;
};

// A stand-in gnuplot that draws a plot of about 1 MiB, past a limit of 64 KiB (builtins
// only: gnuplot may start no process).
constexpr char kLargePlotGnuplot[] =
    "ulimit -S -f unlimited\n"
    "line=0\n"
    "for i in 1 2 3 4 5 6 7 8 9; do line=$line$line; done\n"  // 512 bytes, no subshell
    "i=0\n"
    "while [ $i -lt 2048 ]; do printf '%s\\n' \"$line\"; i=$((i + 1)); done > plot.svg\n";

TEST_F(FakeGnuplotTest, APlotThatCannotBeWrittenLeavesTheOldPairUntouched) {
  Install(kLargePlotGnuplot);
  const std::string out = FreshDirectory();
  WriteText(out + "/p.svg", "old svg\n");
  WriteText(out + "/p.dat", "old dat\n");
  absl::Status status;
  {
    ScopedFileSizeLimit limit(64 << 10);  // the data fits; the plot does not
    status = RunGnuplotJob(out + "/p.svg", SweepPlotJob(SmallSweep("v", "ns"), {}, "t"));
  }
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()), HasSubstr("p.svg"));
  EXPECT_THAT(PlotFailure(out + "/p.svg", status), HasSubstr("/p.svg and "));
  EXPECT_THAT(PlotFailure(out + "/p.svg", status), HasSubstr("/p.dat are as they were"));
  EXPECT_EQ(Slurp(out + "/p.svg"), "old svg\n");
  EXPECT_EQ(Slurp(out + "/p.dat"), "old dat\n");
  EXPECT_EQ(FilesIn(out), 2);  // no temporary left behind
  EXPECT_EQ(FilesIn(scratch_), 0);
}

TEST_F(FakeGnuplotTest, AFailedGnuplotLeavesTheOldPairUntouched) {
  Install("exit 3\n");
  const std::string out = FreshDirectory();
  WriteText(out + "/p.svg", "old svg\n");
  WriteText(out + "/p.dat", "old dat\n");
  EXPECT_FALSE(RunGnuplotJob(out + "/p.svg", SweepPlotJob(SmallSweep("v", "ns"), {}, "t")).ok());
  EXPECT_EQ(Slurp(out + "/p.svg"), "old svg\n");
  EXPECT_EQ(Slurp(out + "/p.dat"), "old dat\n");
  EXPECT_EQ(FilesIn(out), 2);
}

TEST(GnuplotRunTest, WithoutGnuplotTheOldPairIsUntouched) {
  const std::string bin = FreshDirectory();  // a PATH with no gnuplot in it
  ScopedEnv path("PATH", bin);
  const std::string out = FreshDirectory();
  WriteText(out + "/p.svg", "old svg\n");
  WriteText(out + "/p.dat", "old dat\n");
  const absl::Status status =
      RunGnuplotJob(out + "/p.svg", SweepPlotJob(SmallSweep("v", "ns"), {}, "t"));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr("gnuplot is not installed"));
  EXPECT_EQ(Slurp(out + "/p.svg"), "old svg\n");
  EXPECT_EQ(Slurp(out + "/p.dat"), "old dat\n");
}

}  // namespace
}  // namespace tickbench::harness

namespace tickbench::harness {
namespace {

// A sweep of 8 sizes with everything a measured sweep brings: the interval, the
// per-iteration median and band, the reference, a fit, two steps and one run far above
// the rest.
struct FullSweep {
  analysis::Sweep sweep;
  SweepPlotExtras extras;
  std::vector<analysis::Step> steps;
};

FullSweep MakeFullSweep() {
  FullSweep f;
  f.sweep.value_name = "averaged_rtt_ns";
  f.sweep.unit = "ns";
  for (int i = 0; i < 8; ++i) {
    const double size = 64.0 * (i + 1);
    const double rtt = 20000 + 10 * size + (i >= 4 ? 3000 : 0);
    f.sweep.points.push_back({size, {rtt - 50, rtt + 50, i == 6 ? 219000.0 : rtt}});
    SweepPlotExtras::Point p;
    p.size_bytes = size;
    p.has_interval = true;
    p.averaged_low_ns = rtt - 200;
    p.averaged_high_ns = rtt + 200;
    p.has_per_iteration = true;
    p.median_ns = rtt - 500;
    p.band_low_ns = rtt - 2000;
    p.band_high_ns = rtt + 4000;
    p.has_reference = true;
    p.reference_ns = rtt - 20;
    f.extras.points.push_back(p);
  }
  f.extras.fit_name = "fixed_chunks(B=256)";
  f.extras.fit = {{64, 20640}, {256, 22560}, {257, 25570}, {512, 28120}};
  f.steps = {StepAt(256, 320), StepAt(320, 384)};
  return f;
}

TEST(SweepPlotJobTest, DrawsEverySeriesWithItsLegendAndARobustRange) {
  const FullSweep f = MakeFullSweep();
  const GnuplotJob job = SweepPlotJob(f.sweep, f.steps, "full", f.extras);
  ExpectHarmlessScript(job.script);
  for (const char* title :
       {"'averaged RTT, each run'", "'averaged RTT, mean of runs with 95% interval'",
        "'per-iteration median (mean over runs)'", "'per-iteration p1..p99 (mean over runs)'",
        "'reference clock, averaged RTT'", "'fit: fixed_chunks(B=256)'",
        "'beyond the y range (drawn at the edge)'"}) {
    EXPECT_THAT(job.script, HasSubstr(absl::StrCat("title ", title))) << job.script;
  }
  EXPECT_THAT(job.script, HasSubstr("yerrorlines"));
  EXPECT_THAT(job.script, HasSubstr("set ylabel 'round-trip time (us)'"));
  EXPECT_THAT(job.script, HasSubstr("set key outside below"));
  // The two steps' labels fit side by side in the top row.
  EXPECT_THAT(job.script, HasSubstr("at 288.0, graph 0.96 left"));
  EXPECT_THAT(job.script, HasSubstr("at 352.0, graph 0.96 left"));
  EXPECT_THAT(job.script, HasSubstr("set xlabel sprintf('message size (bytes)%c', 10)\n"));
  // The range ends well below the 219 us outlier (1.5 x the 95th percentile of what is
  // drawn, about 30 us), which is drawn at the edge with its value kept in the data.
  const size_t at = job.script.find("set yrange [0:");
  ASSERT_NE(at, std::string::npos);
  const double y_max = std::stod(job.script.substr(at + 14));
  EXPECT_GT(y_max, 30.0);  // above the band of the largest size (29.6 us)
  EXPECT_LT(y_max, 60.0);
  EXPECT_THAT(job.data, HasSubstr(absl::StrCat("448 ", absl::StrFormat("%.6g", y_max), " 219\n")));
}

int CountOf(const std::string& text, const std::string& needle) {
  int count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

// The sizes a label covers, as PlaceStepLabels reckons them.
std::pair<double, double> Extent(const StepLabel& label, double span) {
  const double width = label.text.size() * kStepLabelCharWidth * span;
  return label.right_aligned ? std::make_pair(label.x - width, label.x)
                             : std::make_pair(label.x, label.x + width);
}

TEST(StepLabelTest, LabelsInOneRowNeverOverlapAndCloseOnesGoLower) {
  // Steps 32 bytes apart on a 4096-byte sweep: a label (about 18 characters, 500 bytes
  // wide) covers many of them.
  std::vector<analysis::Step> steps;
  for (double at : {480.0, 512.0, 544.0, 2000.0, 4064.0}) steps.push_back(StepAt(at, at + 32));
  const std::vector<StepLabel> labels = PlaceStepLabels(steps, 32, 4096);
  ASSERT_EQ(labels.size(), 5u);
  for (const StepLabel& l : labels) EXPECT_FALSE(l.rotated);
  EXPECT_DOUBLE_EQ(labels[0].height, 0.96);
  EXPECT_DOUBLE_EQ(labels[1].height, 0.91);
  EXPECT_DOUBLE_EQ(labels[2].height, 0.86);
  EXPECT_DOUBLE_EQ(labels[3].height, 0.96);  // far enough right to go back to the top
  EXPECT_TRUE(labels[4].right_aligned);      // would run past the last size
  EXPECT_FALSE(labels[3].right_aligned);
  EXPECT_EQ(labels[0].text, " jump 480-512 ");
  for (size_t i = 0; i < labels.size(); ++i) {
    for (size_t j = i + 1; j < labels.size(); ++j) {
      if (labels[i].height != labels[j].height) continue;
      const auto a = Extent(labels[i], 4064), b = Extent(labels[j], 4064);
      EXPECT_TRUE(a.second < b.first || b.second < a.first) << i << " and " << j;
    }
  }
}

TEST(StepLabelTest, TooManyForTheRowsStandUprightAndNeighboursShareALabel) {
  // Ten steps 64 bytes apart: five rows cannot hold them, so they stand upright; the
  // lines 64 bytes apart are over two characters' width (55 bytes) apart, 32 are not.
  std::vector<analysis::Step> steps;
  for (int i = 0; i < 9; ++i) steps.push_back(StepAt(1000 + 64 * i, 1032 + 64 * i));
  steps.push_back(StepAt(1000 + 64 * 8 + 32, 1032 + 64 * 8 + 32));
  const std::vector<StepLabel> labels = PlaceStepLabels(steps, 32, 4096);
  ASSERT_EQ(labels.size(), 10u);
  for (const StepLabel& l : labels) {
    EXPECT_TRUE(l.rotated);
    EXPECT_DOUBLE_EQ(l.height, 0.98);
  }
  for (int i = 0; i < 9; ++i) EXPECT_FALSE(labels[i].text.empty()) << i;
  EXPECT_EQ(labels[8].text, " jump 1512-1544 + jump 1544-1576 ");
  EXPECT_TRUE(labels[9].text.empty());
  analysis::Sweep sweep;
  sweep.value_name = "averaged_rtt_ns";
  sweep.unit = "ns";
  for (double size = 32; size <= 4096; size += 32) sweep.points.push_back({size, {1000 + size}});
  const GnuplotJob job = SweepPlotJob(sweep, steps, "crowded");
  EXPECT_THAT(job.script, HasSubstr("at 1528.0, graph 0.98 rotate by 90 right"));
  // Ten lines, nine labels.
  EXPECT_EQ(CountOf(job.script, "nohead dt 2 lc rgb 'red'"), 10);
  EXPECT_EQ(CountOf(job.script, "set label "), 9);
}

TEST(SweepPlotJobTest, ExtrasFromRecordsAverageTheRunsAndSkipInvalidOnes) {
  std::vector<RunRecord> records;
  for (int run = 1; run <= 3; ++run) {
    RunRecord r;
    r.size_bytes = 64;
    r.run = run;
    r.timed_trips = 100;
    r.averaged_rtt_ns = 1000 + 10 * run;
    r.quantum_ns = 0.01;
    r.per_iteration_ns.count = 100;
    r.per_iteration_ns.p50 = 900 + run;
    r.per_iteration_ns.min = 700;  // the band is p1..p99: not min
    r.per_iteration_ns.p1 = 800 + run;
    r.per_iteration_ns.p99 = 1500;
    r.has_reference = true;
    r.reference_averaged_rtt_ns = 990;
    records.push_back(r);
  }
  RunRecord invalid;
  invalid.size_bytes = 64;
  invalid.averaged_rtt_ns = 1e9;
  records.push_back(invalid);
  const SweepPlotExtras e = SweepPlotExtrasFromRecords(records);
  ASSERT_EQ(e.points.size(), 1u);
  EXPECT_TRUE(e.points[0].has_interval);
  // 1020 +- t(0.975, 2) 10 / sqrt(3) = 1020 +- 24.8
  EXPECT_NEAR(e.points[0].averaged_low_ns, 995.2, 0.1);
  EXPECT_NEAR(e.points[0].averaged_high_ns, 1044.8, 0.1);
  EXPECT_DOUBLE_EQ(e.points[0].median_ns, 902);
  EXPECT_DOUBLE_EQ(e.points[0].band_low_ns, 802);
  EXPECT_DOUBLE_EQ(e.points[0].band_high_ns, 1500);
  EXPECT_DOUBLE_EQ(e.points[0].reference_ns, 990);
}

StudyCell TickCell() {
  StudyCell cell;
  cell.clock = "tick:10ms";
  cell.size_bytes = 64;
  cell.resolution_ns = 10e6;
  cell.histogram = {0, 0, 30, 70, 0};
  cell.prediction_applies = true;
  cell.prediction.histogram = {0, 0, 32, 68, 0};
  cell.truth_ns = 26.8e6;                // the averaged pass's reference
  cell.per_iteration_truth_ns = 26.5e6;  // the per-iteration pass's: not what the line shows
  cell.averaged_ns = 26.7e6;
  return cell;
}

// Each data column is named once, by what it is and its unit: not "averaged_rtt_ns_us".
TEST(SweepPlotJobTest, DataColumnsNameTheirUnitOnce) {
  EXPECT_THAT(SweepPlotJob(SmallSweep("averaged_rtt_ns", "ns"), {}, "t").data,
              HasSubstr("# size_bytes averaged_rtt_us run\n"));
  // A CSV's rtt_ms is read in ns and drawn in us; a throughput column as the RTT it implies.
  EXPECT_THAT(SweepPlotJob(SmallSweep("rtt_ms", "ns"), {}, "t").data,
              HasSubstr("# size_bytes rtt_us run\n"));
  EXPECT_THAT(SweepPlotJob(SmallSweep("throughput_kb_per_s", "ns"), {}, "t").data,
              HasSubstr("# size_bytes rtt_us run\n"));
  EXPECT_THAT(SweepPlotJob(SmallSweep("throughput", "KB/s"), {}, "t").data,
              HasSubstr("# size_bytes throughput_KB/s run\n"));
  EXPECT_THAT(SweepPlotJob(SmallSweep("averaged_rtt_ns", "ns"), {}, "t").data,
              HasSubstr("# size_bytes fit (us)\n"));
}

TEST(StudyHistogramJobTest, OnePanelPerClockAndSizeInTicksWithTheTheoryAndTheTruth) {
  StudyCell other = TickCell();
  other.size_bytes = 1024;
  const GnuplotJob job = StudyHistogramJob({TickCell(), other});
  ExpectHarmlessScript(job.script);
  EXPECT_THAT(job.script, HasSubstr("set multiplot layout 1,2"));
  EXPECT_THAT(job.script, HasSubstr("set title 'tick:10ms at 64 B'"));
  EXPECT_THAT(job.script, HasSubstr("set title 'tick:10ms at 1024 B'"));
  EXPECT_THAT(job.script, HasSubstr("title 'theory: n or n+1 ticks'"));
  // The truth the averaged estimate is held against in the table: the same pass's, in
  // ticks of T, drawn in front of the bars and labelled.
  EXPECT_THAT(job.script, HasSubstr("title 'truth (reference, averaged pass)'"));
  EXPECT_THAT(job.script, HasSubstr("title 'averaged estimate'"));
  EXPECT_THAT(job.script,
              HasSubstr("set arrow 1 from 2.68, graph 0 to 2.68, graph 1 nohead front"));
  EXPECT_THAT(job.script, HasSubstr("set arrow 2 from 2.67, graph 0"));
  EXPECT_THAT(job.script, HasSubstr("set label 1 'truth 26.8 ms = 2.68 T' at 2.68,"));
  EXPECT_THAT(job.script, HasSubstr("set xlabel 'reading, in ticks of T = 10ms'"));
  // Readings of 2 and 3 ticks, drawn from 1.5 to 3.5 ticks: a tic every tick.
  EXPECT_THAT(job.script, HasSubstr("set xrange [1.5:3.5]\nset xtics 1\n"));
  // Shares per number of ticks: 3 ticks, 70% of readings, 68% predicted.
  EXPECT_THAT(job.data, HasSubstr("\n3 0.7 0.68\n"));
  EXPECT_THAT(job.data, HasSubstr("\n2 0.3 0.32\n"));
  EXPECT_THAT(job.data, HasSubstr("reading_ticks share_of_readings predicted_share"));
}

// A 1.3 ms round trip read by a 10 ms tick: 87% of readings 0 ticks, 13% one. The truth
// (0.13 T) and the estimate stay on an axis of ticks around the two bars, not on one of
// -5000 to 20000 us where they vanished on the bar at 0.
TEST(StudyHistogramJobTest, ATruthBelowOneTickIsMarkedBesideTheBarAtZero) {
  StudyCell cell = TickCell();
  cell.histogram = {870, 130, 0};
  cell.prediction.histogram = {87, 13, 0};
  cell.truth_ns = cell.averaged_ns = 1.3e6;
  cell.truth_ci.estimate = 1.3e6;
  cell.truth_ci.low = 1.29e6;
  cell.truth_ci.high = 1.31e6;
  cell.truth_ci.valid = true;
  const GnuplotJob job = StudyHistogramJob({cell});
  EXPECT_THAT(job.script, HasSubstr("set xrange [-0.5:1.5]\nset xtics 1\n"));
  EXPECT_THAT(job.script, HasSubstr("set arrow 1 from 0.13, graph 0"));
  // Digits of the truth's interval (± 0.01 ms).
  EXPECT_THAT(job.script, HasSubstr("'truth 1.300 ms = 0.1300 T'"));
  EXPECT_THAT(job.script, HasSubstr("set boxwidth 0.5\n"));
}

// A clock of 1 ns against a 25 us round trip: every reading is past the tick histogram's
// last bucket, so the panel bins the readings in time, around the truth.
StudyCell FineCell() {
  StudyCell cell;
  cell.clock = "virtual";
  cell.size_bytes = 64;
  cell.resolution_ns = 1;
  cell.histogram.assign(16, 0);
  cell.histogram.back() = 1000;
  cell.per_iteration.count = 1000;
  cell.per_iteration.min = 24000;
  cell.per_iteration.p1 = 24500;
  cell.per_iteration.p50 = 25000;
  cell.per_iteration.p90 = 25400;
  cell.per_iteration.p99 = 26000;
  cell.per_iteration.max = 90000;
  cell.truth_ns = cell.per_iteration_truth_ns = 25100;
  cell.averaged_ns = 25100;
  return cell;
}

// Parses a time panel's rows "centre share width" from the data's block `index`.
std::vector<std::vector<double>> DataBlock(const std::string& data, int index) {
  std::vector<std::string> blocks = absl::StrSplit(data, "\n\n\n");
  std::vector<std::vector<double>> rows;
  if (index >= static_cast<int>(blocks.size())) return rows;
  for (absl::string_view line : absl::StrSplit(blocks[index], '\n', absl::SkipEmpty())) {
    if (absl::StartsWith(line, "#")) continue;
    std::vector<double> row;
    for (absl::string_view field : absl::StrSplit(line, ' ', absl::SkipEmpty())) {
      row.push_back(std::stod(std::string(field)));
    }
    rows.push_back(row);
  }
  return rows;
}

TEST(StudyHistogramJobTest, AFineClocksReadingsAreBinnedInTimeAroundTheTruth) {
  EXPECT_TRUE(StudyCellBinnedInTime(FineCell()));
  EXPECT_FALSE(StudyCellBinnedInTime(TickCell()));
  const GnuplotJob job = StudyHistogramJob({TickCell(), FineCell()});
  ExpectHarmlessScript(job.script);
  EXPECT_THAT(job.script, HasSubstr("set title 'virtual at 64 B'"));
  EXPECT_THAT(job.script, HasSubstr("index 1 using 1:2:3 with boxes"));
  EXPECT_THAT(job.script, HasSubstr("title 'readings, bins at percentiles'"));
  // Tics for 2.15 us of range: every 0.5 us (at most 5 intervals).
  EXPECT_THAT(job.script, HasSubstr("set xtics 0.5\n"));
  EXPECT_THAT(job.script, HasSubstr("set arrow 1 from 25.1, graph 0"));
  // Bars between the percentiles, in us: 49% in [24.5, 25], 40% in [25, 25.4], ...
  const std::vector<std::vector<double>> rows = DataBlock(job.data, 1);
  ASSERT_EQ(rows.size(), 5u) << job.data;
  const double expected[][3] = {
      {24.25, 0.01, 0.5}, {24.75, 0.49, 0.5}, {25.2, 0.40, 0.4}, {25.7, 0.09, 0.6}, {58, 0.01, 64}};
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(rows[i].size(), 3u);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(rows[i][k], expected[i][k], 1e-9) << i << " " << k;
  }
  // The x range holds p1..p99 and the truth with a margin, not 0 and not the far maximum.
  const size_t at = job.script.rfind("set xrange [");
  ASSERT_NE(at, std::string::npos);
  const double x_low = std::stod(job.script.substr(at + 12));
  const double x_high = std::stod(job.script.substr(job.script.find(':', at) + 1));
  EXPECT_NEAR(x_low, 24.5 - 0.225, 1e-9);
  EXPECT_NEAR(x_high, 26 + 0.225, 1e-9);
}

// A panel is 400 pixels wide: its title, at about 8 pixels a character, fits in 50
// characters for the longest clock specs and sizes (the old titles, "clock, N bytes, T =
// ... us, in ticks of T (last bar: that or more)", ran past the panel and were cut).
TEST(StudyHistogramJobTest, PanelTitlesFitTheirPanel) {
  std::vector<StudyCell> cells;
  for (const char* clock : {"clock_gettime:monotonic_coarse", "tick:20ms:uniqtime", "virtual"}) {
    StudyCell cell = TickCell();
    cell.clock = clock;
    cell.size_bytes = 16 * 1024 * 1024;
    cell.histogram = {0, 0, 0, 10};  // the last, open bar
    cells.push_back(cell);
  }
  cells.push_back(FineCell());
  cells.back().clock = "clock_gettime:monotonic_coarse";
  const GnuplotJob job = StudyHistogramJob(cells);
  int titles = 0;
  for (absl::string_view line : absl::StrSplit(job.script, '\n')) {
    if (!absl::ConsumePrefix(&line, "set title '")) continue;
    ++titles;
    EXPECT_LE(line.find('\''), 50u) << line;
  }
  EXPECT_EQ(titles, 4);
}

TEST(StudyHistogramJobTest, EqualReadingsMakeOneVisibleBarAtTheirValue) {
  StudyCell cell = FineCell();
  timing::Summary& s = cell.per_iteration;
  s.min = s.p1 = s.p50 = s.p90 = s.p99 = s.max = 20003;
  cell.per_iteration_truth_ns = cell.averaged_ns = 20003;
  const GnuplotJob job = StudyHistogramJob({cell});
  const std::vector<std::vector<double>> rows = DataBlock(job.data, 0);
  ASSERT_EQ(rows.size(), 1u) << job.data;
  EXPECT_NEAR(rows[0][0], 20.003, 1e-9);
  EXPECT_NEAR(rows[0][1], 1.0, 1e-9);
  EXPECT_GT(rows[0][2], 0);  // drawn with a width, not as an invisible line
  const size_t at = job.script.rfind("set xrange [");
  EXPECT_LT(std::stod(job.script.substr(at + 12)), 20.003);
  EXPECT_GT(std::stod(job.script.substr(job.script.find(':', at) + 1)), 20.003);
}

// Where gnuplot is installed, the SVG itself holds the legend titles, labels and markers.
TEST(PlotRenderTest, TheSvgsHoldTheirSeriesLabelsAndMarkers) {
  if (!GnuplotOnPath()) GTEST_SKIP() << "gnuplot is not installed";
  const std::string directory = FreshDirectory();
  const FullSweep f = MakeFullSweep();
  const std::string svg = directory + "/sweep.svg";
  ASSERT_TRUE(PlotSweep(svg, f.sweep, f.steps, "full sweep", f.extras).ok());
  const std::string text = Slurp(svg);
  for (const char* expected :
       {"averaged RTT, each run", "averaged RTT, mean of runs with 95% interval",
        "per-iteration median (mean over runs)", "per-iteration p1..p99 (mean over runs)",
        "reference clock, averaged RTT", "fit: fixed_chunks(B=256)",
        "beyond the y range (drawn at the edge)", "round-trip time (us)", "message size (bytes)",
        "jump 256-320", "jump 320-384"}) {
    EXPECT_THAT(text, HasSubstr(expected));
  }
  const std::string study_svg = directory + "/study.svg";
  ASSERT_TRUE(PlotStudyHistograms(study_svg, {TickCell()}).ok());
  const std::string study = Slurp(study_svg);
  for (const char* expected :
       {"tick:10ms at 64 B", "reading, in ticks of T = 10ms", "theory: n or n+1 ticks",
        "truth (reference, averaged pass)", "averaged estimate", "share of readings"}) {
    EXPECT_THAT(study, HasSubstr(expected));
  }
}

}  // namespace
}  // namespace tickbench::harness
