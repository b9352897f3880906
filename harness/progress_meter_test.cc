#include "harness/progress_meter.h"

#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "absl/synchronization/mutex.h"
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
}

struct Captured {
  absl::Mutex mutex;
  std::string text;
  std::function<void(absl::string_view)> sink() {
    return [this](absl::string_view s) {
      absl::MutexLock lock(&mutex);
      text.append(s.data(), s.size());
    };
  }
  std::string Get() {
    absl::MutexLock lock(&mutex);
    return text;
  }
};

TEST(ProgressMeterTest, PlainLinesAtMostOncePerIntervalAndNothingBeforeTheFirst) {
  Captured captured;
  {
    ProgressMeter meter(captured.sink(), {false, absl::Milliseconds(100)}, {64}, 10, 5);
    meter.RunDone();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(captured.Get(), "") << "nothing within the first interval";
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  const std::string text = captured.Get();
  const size_t lines = std::count(text.begin(), text.end(), '\n');
  EXPECT_GE(lines, 1u) << text;
  EXPECT_LE(lines, 6u) << text;  // 550 ms at one line per 100 ms at most
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_TRUE(absl::StartsWith(text, "progress: 64 B, run 2 of 10: 1 of 10 runs")) << text;
}

TEST(ProgressMeterTest, OnATerminalOneLineIsRewrittenAndClearedAtTheEnd) {
  Captured captured;
  {
    ProgressMeter meter(captured.sink(), {true, absl::Milliseconds(50)}, {64}, 2, 5);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  const std::string text = captured.Get();
  EXPECT_EQ(text.find('\n'), std::string::npos) << text;
  EXPECT_EQ(text.front(), '\r');
  EXPECT_EQ(text.back(), '\r') << "cleared: the results start at the line's beginning";
  EXPECT_THAT(text, HasSubstr("progress: 64 B, run 1 of 2"));
}

}  // namespace
}  // namespace tickbench::harness
