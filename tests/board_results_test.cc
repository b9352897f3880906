// The host's harness reads what the board prints: a board result (its CSV from the
// emulated Cortex-M3 under -icount, checked in with a note on how it was made, and held to
// what the board prints today by //board:study_icount_test) goes through the host's
// --analyze and --plot as a host study's CSV does, because the board uses the host's
// column names (core/study_report.h).
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/json/json_reader.h"
#include "tests/harness_runner.h"

namespace {

using ::testing::HasSubstr;
using tickbench::harness::JsonValue;
using tickbench::harness::ParseJson;
using tickbench::testing::HarnessResult;
using tickbench::testing::ReadWholeFile;
using tickbench::testing::RunHarness;

constexpr char kBoardCsv[] = "board/testdata/study_systick_10ms.csv";
constexpr int kSizes = 11;  // the board's default sizes, 32 to 4096 B

// The fixture's own truth_ns column, row by row (its '#' lines skipped): what the analysis
// must read back.
std::vector<double> FixtureTruths() {
  std::vector<double> truths;
  int column = -1;
  for (absl::string_view line : absl::StrSplit(ReadWholeFile(kBoardCsv), '\n', absl::SkipEmpty())) {
    if (line[0] == '#') continue;
    const std::vector<std::string> cells = absl::StrSplit(line, ',');
    if (column < 0) {
      for (size_t i = 0; i < cells.size(); ++i) {
        if (cells[i] == "truth_ns") column = static_cast<int>(i);
      }
      EXPECT_GE(column, 0) << line;
      if (column < 0) return truths;
      continue;
    }
    truths.push_back(std::stod(cells[column]));
  }
  return truths;
}

// --analyze=kBoardCsv --analyze_column=COLUMN --format=json, parsed; its points by size.
std::vector<std::pair<double, double>> AnalyzedMeans(const std::string& column) {
  const HarnessResult r = RunHarness(
      absl::StrCat("--analyze=", kBoardCsv, " --analyze_column=", column, " --format=json"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  absl::StatusOr<JsonValue> json = ParseJson(r.out);
  EXPECT_TRUE(json.ok()) << json.status() << "\n" << r.out;
  std::vector<std::pair<double, double>> means;
  if (!json.ok()) return means;
  const JsonValue* value_column = json->Get("value_column");
  EXPECT_TRUE(value_column != nullptr && value_column->text == column) << r.out;
  const JsonValue* points = json->Get("points");
  if (points == nullptr) return means;
  for (const JsonValue& point : points->items) {
    const JsonValue* size = point.Get("size_bytes");
    const JsonValue* mean = point.Get("mean");
    if (size != nullptr && mean != nullptr) means.emplace_back(size->number, mean->number);
  }
  return means;
}

TEST(BoardResultsTest, AnalyzeReadsTheBoardsTruth) {
  const auto means = AnalyzedMeans("truth_ns");
  ASSERT_EQ(means.size(), static_cast<size_t>(kSizes));
  const std::vector<double> truths = FixtureTruths();
  ASSERT_EQ(truths.size(), static_cast<size_t>(kSizes));
  EXPECT_EQ(means.front().first, 32);
  EXPECT_DOUBLE_EQ(means.front().second, truths.front());  // the file's first row
  EXPECT_EQ(means.back().first, 4096);
  EXPECT_DOUBLE_EQ(means.back().second, truths.back());
}

// The averaged figure read by a 10 ms SysTick over 4 runs x 1000 round trips is a whole
// number of ticks over 4000: the analysis sees the board's tick, not some other column.
TEST(BoardResultsTest, AnalyzeReadsTheBoardsAveragedFigureInWholeTicks) {
  const auto means = AnalyzedMeans("averaged_ns");
  ASSERT_EQ(means.size(), static_cast<size_t>(kSizes));
  for (const auto& [size, mean] : means) {
    const double quanta = mean / 2500.0;  // 10 ms / (4 x 1000)
    EXPECT_NEAR(quanta, std::round(quanta), 1e-9) << size << " B: " << mean;
    EXPECT_GT(mean, 0) << size;
  }
}

TEST(BoardResultsTest, PlotDrawsTheBoardsCsv) {
  const std::string svg = ::testing::TempDir() + "/board.svg";
  const std::string dat = ::testing::TempDir() + "/board.dat";
  const HarnessResult r =
      RunHarness(absl::StrCat("--analyze=", kBoardCsv, " --analyze_column=truth_ns --plot=", svg));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // The data file is written with its plot, not without: no gnuplot, no pair.
  if (r.err.find("gnuplot is not installed") != std::string::npos) {
    GTEST_SKIP() << "gnuplot is not installed: " << r.err;
  }
  // Its first block, the points, has a line per size (in us) after its header.
  const std::string data = ReadWholeFile(dat);
  const std::string points = data.substr(0, data.find("\n\n"));
  int rows = 0;
  for (absl::string_view line : absl::StrSplit(points, '\n', absl::SkipEmpty())) {
    if (line[0] != '#') ++rows;
  }
  EXPECT_EQ(rows, kSizes) << data;
  const std::vector<double> truths = FixtureTruths();
  ASSERT_EQ(truths.size(), static_cast<size_t>(kSizes));
  // In us, as gnuplot's data are written (6 significant digits).
  EXPECT_THAT(points, HasSubstr(absl::StrFormat("\n32 %g 1\n", truths.front() / 1e3))) << data;
  EXPECT_THAT(points, HasSubstr(absl::StrFormat("\n4096 %g 1", truths.back() / 1e3))) << data;
  EXPECT_THAT(ReadWholeFile(svg), HasSubstr("<svg")) << r.err;
}

}  // namespace
