#include "harness/engine/progress_meter.h"

#include <dirent.h>

#include <algorithm>
#include <string>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;

TEST(ProgressMeterTest, LineSaysWhereItIsWhatIsDoneAndWhatIsLeft) {
  // 2 sizes x 3 runs; 2 runs done in 4 s: run 2's first size next, 4 runs left at 2 s each.
  EXPECT_EQ(ProgressMeter::Line({32, 512}, 3, 1000, 2, absl::Seconds(4)),
            "progress: 32 B, run 2 of 3: 2 of 6 runs, 2000 round trips, elapsed 4s, ETA 8s");
  EXPECT_THAT(ProgressMeter::Line({32, 512}, 3, 1000, 0, absl::Milliseconds(1234)),
              HasSubstr("32 B, run 1 of 3: 0 of 6 runs, 0 round trips, elapsed 1.2s, ETA ?"));
  // Done: the last size and run, nothing left.
  EXPECT_THAT(ProgressMeter::Line({32, 512}, 3, 10, 6, absl::Seconds(90)),
              HasSubstr("512 B, run 3 of 3: 6 of 6 runs, 60 round trips, elapsed 1m30s, ETA 0"));
  // Run until known: within the first rounds as before, then what it waits for.
  EXPECT_THAT(ProgressMeter::Line({32, 512}, 3, 10, 2, absl::Seconds(4), "each size within ±2%"),
              HasSubstr("ETA 8s"));
  EXPECT_EQ(ProgressMeter::Line({32, 512}, 3, 10, 9, absl::Seconds(4), "each size within ±2%"),
            "progress: 9 of at least 6 runs, 90 round trips, elapsed 4s; adding runs until each "
            "size within ±2%");
}

// A wall clock the test moves by hand, and what the meter wrote.
struct Fixture {
  absl::Time now = absl::UnixEpoch();
  std::string text;
  ProgressMeter::Options Options(bool terminal) {
    ProgressMeter::Options options;
    options.terminal = terminal;
    options.interval = absl::Seconds(1);
    options.now = [this] { return now; };
    return options;
  }
  std::function<void(absl::string_view)> Sink() {
    return [this](absl::string_view s) { text.append(s.data(), s.size()); };
  }
  size_t Lines() const { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }
};

TEST(ProgressMeterTest, NothingBeforeTheFirstIntervalAndNoTwoLinesCloserThanIt) {
  Fixture f;
  ProgressMeter meter(f.Sink(), f.Options(false), {64}, 10, 5);
  f.now += absl::Milliseconds(999);
  meter.RunDone();
  EXPECT_EQ(f.text, "") << "nothing within the first interval";
  f.now += absl::Milliseconds(1);
  meter.RunDone();
  EXPECT_EQ(f.text,
            "progress: 64 B, run 3 of 10: 2 of 10 runs, 10 round trips, elapsed 1s, "
            "ETA 4s\n");
  f.now += absl::Milliseconds(600);
  meter.RunDone();
  EXPECT_EQ(f.Lines(), 1u) << "0.6 s after the last line: none";
  f.now += absl::Milliseconds(400);
  meter.RunDone();
  EXPECT_EQ(f.Lines(), 2u) << "a whole interval after it: the next";
  EXPECT_THAT(f.text, HasSubstr("4 of 10 runs, 20 round trips, elapsed 2s"));
  EXPECT_EQ(f.text.find('\r'), std::string::npos);
}

TEST(ProgressMeterTest, ARunLongerThanTheIntervalShowsItsLineWhenItEnds) {
  Fixture f;
  ProgressMeter meter(f.Sink(), f.Options(false), {64, 128}, 1, 1000);
  f.now += absl::Seconds(30);  // one long run: nothing is written while it lasts
  EXPECT_EQ(f.text, "");
  meter.RunDone();
  EXPECT_EQ(f.text,
            "progress: 128 B, run 1 of 1: 1 of 2 runs, 1000 round trips, elapsed 30s, "
            "ETA 30s\n");
}

TEST(ProgressMeterTest, OnATerminalOneLineIsRewrittenAndClearedAtTheEnd) {
  Fixture f;
  {
    ProgressMeter meter(f.Sink(), f.Options(true), {64}, 12, 5);
    for (int i = 0; i < 12; ++i) {
      f.now += absl::Milliseconds(500);
      meter.RunDone();
    }
  }
  EXPECT_EQ(f.text.find('\n'), std::string::npos) << f.text;
  EXPECT_EQ(std::count(f.text.begin(), f.text.end(), '\r'), 6 + 2) << f.text;
  EXPECT_EQ(f.text.front(), '\r');
  EXPECT_EQ(f.text.back(), '\r') << "cleared: the results start at the line's beginning";
  EXPECT_THAT(f.text, HasSubstr("progress: 64 B, run 3 of 12: 2 of 12 runs"));
  // "10 of 12" is as wide as "12 of 12": a shorter line is padded over the longer one.
  EXPECT_THAT(f.text, HasSubstr("12 of 12 runs, 60 round trips, elapsed 6s, ETA 0"));
}

// The threads of this process, from /proc/self/task.
int Threads() {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return -1;
  int count = 0;
  while (const dirent* entry = readdir(dir)) count += entry->d_name[0] != '.';
  closedir(dir);
  return count;
}

TEST(ProgressMeterTest, TheMeterStartsNoThread) {
  const int before = Threads();
  ASSERT_GE(before, 1) << "no /proc/self/task";
  ProgressMeter meter([](absl::string_view) {}, {}, {64}, 3, 5);
  meter.RunDone();
  EXPECT_EQ(Threads(), before) << "a thread beside the measuring one makes every system call "
                                  "of the process dearer";
}

// The issue this guards: a result row written while the progress line stands is appended
// to it. Clear() erases the line on a terminal and the next update starts a fresh one
// (no padding to the old width); elsewhere it writes nothing.
TEST(ProgressMeterTest, ClearErasesTheLineBeforeOtherOutput) {
  Fixture f;
  ProgressMeter meter(f.Sink(), f.Options(true), {64}, 10, 5);
  f.now += absl::Seconds(1);
  meter.RunDone();
  const std::string line =
      "progress: 64 B, run 2 of 10: 1 of 10 runs, 5 round trips, elapsed 1s, ETA 9s";
  ASSERT_EQ(f.text, "\r" + line);
  f.text.clear();
  meter.Clear();
  EXPECT_EQ(f.text, "\r" + std::string(line.size(), ' ') + "\r");
  f.text.clear();
  meter.Clear();
  EXPECT_EQ(f.text, "") << "nothing to clear twice";
  f.now += absl::Seconds(1);
  meter.RunDone();
  EXPECT_EQ(f.text.find(' ', f.text.size() - 1), std::string::npos) << "no padding: " << f.text;
  Fixture plain;
  ProgressMeter log(plain.Sink(), plain.Options(false), {64}, 10, 5);
  plain.now += absl::Seconds(1);
  log.RunDone();
  const std::string before = plain.text;
  log.Clear();
  EXPECT_EQ(plain.text, before);
}

// On a terminal of 40 columns a line is cut to 39 characters: it never wraps, so that the
// next update rewrites all of it.
TEST(ProgressMeterTest, LineNeverWiderThanTheTerminal) {
  Fixture f;
  ProgressMeter::Options options = f.Options(true);
  options.columns = 40;
  ProgressMeter meter(f.Sink(), options, {64}, 10, 5);
  for (int i = 0; i < 3; ++i) {
    f.now += absl::Seconds(1);
    meter.RunDone();
  }
  size_t widest = 0, at = 0;
  while (at < f.text.size()) {
    const size_t next = f.text.find('\r', at + 1);
    widest = std::max(widest, (next == std::string::npos ? f.text.size() : next) - at - 1);
    if (next == std::string::npos) break;
    at = next;
  }
  EXPECT_EQ(widest, 39u) << f.text;
}

}  // namespace
}  // namespace tickbench::harness
