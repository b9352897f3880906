#include "harness/plot.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

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
  EXPECT_THAT(Slurp(PlotDataPath(svg)), HasSubstr("128 1.228"));  // us, run 2
  if (status.code() == absl::StatusCode::kFailedPrecondition) {
    GTEST_SKIP() << "gnuplot is not installed: " << status.message();
  }
  ASSERT_TRUE(status.ok()) << status;
  const std::string text = Slurp(svg);
  EXPECT_THAT(text, HasSubstr("<svg"));
  EXPECT_THAT(text, HasSubstr("</svg>"));
  EXPECT_THAT(text, HasSubstr("message size (bytes)"));
  EXPECT_THAT(text, HasSubstr("averaged_rtt_ns (us)"));
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
    // The data's comment lines stay one line each: 2 comments, 6 runs, 3 medians.
    int lines = 0;
    for (absl::string_view line : absl::StrSplit(job.data, '\n', absl::SkipEmpty())) {
      ++lines;
      EXPECT_TRUE(absl::StartsWith(line, "#") || absl::ascii_isdigit(line[0])) << line;
    }
    EXPECT_EQ(lines, 2 + 6 + 3);
  }
}

TEST(GnuplotScriptTest, ClockNamesReachTheStudyScriptOnlyFiltered) {
  std::vector<StudyCell> cells;
  for (const std::string& hostile : HostileStrings("/nonexistent/marker"))
    cells.push_back(CellFor(hostile));
  const GnuplotJob job = StudyHistogramJob(cells);
  ExpectHarmlessScript(job.script);
  for (const std::string& hostile : HostileStrings("/nonexistent/marker")) {
    EXPECT_THAT(job.script, HasSubstr(absl::StrCat("set title '", GnuplotSafeText(hostile),
                                                   "' noenhanced\nplot 'plot.dat' index")));
  }
  for (absl::string_view line : absl::StrSplit(job.data, '\n', absl::SkipEmpty())) {
    EXPECT_TRUE(absl::StartsWith(line, "#") || absl::ascii_isdigit(line[0])) << line;
  }
  // Our own title keeps its apostrophe, doubled.
  EXPECT_THAT(job.script, HasSubstr("each clock''s resolution"));
}

// The marker check below is meaningful: a script that does reach gnuplot's shell escape
// leaves the marker.
TEST(GnuplotRunTest, ControlAShellEscapeInTheScriptLeavesTheMarker) {
  if (!GnuplotOnPath()) GTEST_SKIP() << "gnuplot is not installed";
  const std::string directory = FreshDirectory();
  const std::string marker = directory + "/marker";
  GnuplotJob job = SweepPlotJob(SmallSweep("v", "ns"), {}, "t");
  job.script = absl::StrCat("!touch '", marker, "'\n", job.script);
  EXPECT_TRUE(RunGnuplotJob(directory + "/p.svg", job).ok());
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
  Install(absl::StrCat("cat > '", out, "/seen_script'\npwd -P > '", out, "/seen_pwd'\nls > '", out,
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
  EXPECT_TRUE(Exists(out + "/p.dat"));
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

}  // namespace
}  // namespace tickbench::harness
