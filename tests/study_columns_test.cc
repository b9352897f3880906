// One table of the study's columns (core/study_columns.h), one meaning each, over both
// outputs: the host's study CSV (a simulated study, run here) and the boards' (their
// checked-in results, which //board:study_icount_test and //board/riscv32:study_icount_test
// hold to what the boards print). The names are checked against the table, and the meanings
// where they can be: the bound's terms as the table defines them, row by row, on every
// target.
#include "core/study_columns.h"

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "tests/harness_runner.h"

namespace tickbench::testing {
namespace {

struct Csv {
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  double Number(size_t row, const std::string& column) const {
    return std::stod(rows.at(row).at(column));
  }
};

// A CSV whose '#' lines are skipped.
Csv ParseCsv(const std::string& text) {
  Csv csv;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    if (line[0] == '#') continue;
    std::vector<std::string> cells = absl::StrSplit(line, ',');
    if (csv.header.empty()) {
      csv.header = cells;
      continue;
    }
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < cells.size() && i < csv.header.size(); ++i)
      row[csv.header[i]] = cells[i];
    csv.rows.push_back(row);
  }
  return csv;
}

const char* const kBoardResults[] = {
    "board/testdata/study_systick_10ms.csv",
    "board/riscv32/testdata/study_mtime_tick_10ms.csv",
};

Csv HostStudy() {
  const HarnessResult r = RunHarness(
      "--experiment=study --transport=sim --clocks=tick:10ms,tick:1ms "
      "--sizes=1024,60000 --runs=4 --iterations=200 --format=csv");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return ParseCsv(r.out);
}

TEST(StudyColumnsTest, TheBoardsWriteExactlyTheTable) {
  std::vector<std::string> table;
  for (const core::StudyColumn& column : core::kStudyColumns) table.push_back(column.name);
  for (const char* path : kBoardResults) {
    const Csv csv = ParseCsv(ReadWholeFile(path));
    EXPECT_EQ(csv.header, table) << path;
    EXPECT_FALSE(csv.rows.empty()) << path;
  }
}

TEST(StudyColumnsTest, TheHostWritesEveryColumnTheTableMarksAsItsToo) {
  const Csv host = HostStudy();
  ASSERT_FALSE(host.rows.empty());
  for (const core::StudyColumn& column : core::kStudyColumns) {
    const bool written = host.rows.front().count(column.name) > 0;
    EXPECT_EQ(written, column.host) << column.name << ": " << column.meaning;
  }
}

// The meanings the table gives, checked on every row of every output: the averaged bound's
// terms (T/N, w/N, r/N where the reference's resolution is written) and their sum, the
// error signed, and the worst run's error within the bound wherever every run kept it.
void ExpectTheBoundsMeaning(const Csv& csv, const std::string& label) {
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    const std::string where = label + " row " + std::to_string(i);
    const double n = csv.Number(i, "iterations");
    const double t = csv.Number(i, "resolution_ns");
    // Printed to 3 decimals (the boards) or the host's digits: a relative tolerance.
    const auto near = [&](double a, double b) {
      return std::abs(a - b) <= 1e-3 + 1e-6 * std::abs(b);
    };
    const double quantization = csv.Number(i, "averaged_bound_ns");
    const double pairing = csv.Number(i, "pairing_bound_ns");
    const double reference = csv.Number(i, "reference_bound_ns");
    const double rate = csv.Number(i, "rate_bound_ns");
    EXPECT_TRUE(near(quantization, t / n)) << where << ": averaged_bound_ns is T/N";
    EXPECT_TRUE(near(pairing, csv.Number(i, "pair_skew_ns") / n)) << where;
    if (csv.rows[i].count("reference_resolution_ns") > 0) {
      EXPECT_TRUE(near(reference, csv.Number(i, "reference_resolution_ns") / n)) << where;
    }
    EXPECT_TRUE(near(csv.Number(i, "total_bound_ns"), quantization + pairing + reference + rate))
        << where;
    EXPECT_TRUE(near(csv.Number(i, "averaged_error_ns"),
                     csv.Number(i, "averaged_ns") - csv.Number(i, "truth_ns")))
        << where << ": averaged_error_ns is averaged - truth, signed";
    if (csv.Number(i, "averaged_within_bound") == 1) {
      EXPECT_LE(csv.Number(i, "worst_run_error_ns"), csv.Number(i, "total_bound_ns") * (1 + 1e-9))
          << where;
    }
  }
}

TEST(StudyColumnsTest, TheBoundsTermsMeanTheSameOnEveryTarget) {
  ExpectTheBoundsMeaning(HostStudy(), "host");
  for (const char* path : kBoardResults)
    ExpectTheBoundsMeaning(ParseCsv(ReadWholeFile(path)), path);
}

}  // namespace
}  // namespace tickbench::testing
