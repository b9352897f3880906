#include "harness/report/study_report.h"

#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/output/text_wrap.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

StudyCell Cell(const std::string& clock, size_t size) {
  StudyCell c;
  c.clock = clock;
  c.clock_name = clock;
  c.size_bytes = size;
  c.runs = 4;
  c.iterations = 1000;
  c.resolution_ns = 1e7;
  c.truth_ns = 1.3e6;
  c.averaged_ns = 1.3e6;
  c.per_iteration.mean = 1.3e6;
  c.per_iteration.sd = 3.36e6;
  c.per_iteration.zero_fraction = 0.87;
  c.histogram.assign(16, 0);
  c.histogram[0] = 3480;
  c.histogram[1] = 520;
  c.prediction_applies = true;
  c.prediction.f = 0.13;
  c.observed.share_above_n = 0.13;
  c.verdict = {true, true, true};
  c.summary = clock + " summary";
  return c;
}

TEST(StudyTableTest, AClocksNChosenPerSizeIsShownAsARange) {
  std::vector<StudyCell> cells = {Cell("tick:10ms", 32), Cell("tick:10ms", 4096)};
  cells[0].iterations = 35685;
  cells[1].iterations = 40122;
  EXPECT_THAT(FormatStudyTable(cells), HasSubstr("35685 to 40122 round trips (N chosen per size)"));
  cells[1].iterations = 35685;
  EXPECT_THAT(FormatStudyTable(cells), HasSubstr("35685 round trips x"));
}

TEST(StudyReportTest, TableHasARowPerSizeTheHistogramsAndTheWords) {
  const std::vector<StudyCell> cells = {Cell("tick:10ms", 32), Cell("tick:10ms", 1024)};
  const std::string wide = FormatStudyTable(cells, TableWidth::kWide);
  // The truth at the digits of the averaged figure: T/N over 4 runs is 2.5 us, whole us.
  EXPECT_THAT(wide, testing::ContainsRegex("\n +32 \\| +1300 "));
  EXPECT_THAT(wide, testing::ContainsRegex("\n +1024 \\| +1300 "));
  EXPECT_THAT(wide, HasSubstr("0.130/0.130 agrees"));
  const std::string table = FormatStudyTable(cells);
  EXPECT_THAT(table, testing::ContainsRegex("\n +32 +1300 \\|"));
  EXPECT_THAT(table, testing::ContainsRegex("\n +1024 +1300 \\|"));
  EXPECT_THAT(table, testing::ContainsRegex("\\| agrees\n"));
  EXPECT_THAT(table, HasSubstr("0:3480 1:520"));
  EXPECT_THAT(table, HasSubstr("tick:10ms summary"));
}

TEST(StudyReportTest, TheTableEscapesClockNamesAndWordsForTheTerminal) {
  StudyCell c = Cell("tick:10ms", 32);
  c.clock_name = "cpu \x1b]0;title\x07";
  c.summary = "";
  c.error = "run 1: \x1b[2J";
  for (const TableWidth width : {TableWidth::kNarrow, TableWidth::kWide}) {
    const std::string table = FormatStudyTable({c}, width);
    EXPECT_THAT(table, Not(HasSubstr("\x1b"))) << table;
    EXPECT_THAT(table, Not(HasSubstr("\x07"))) << table;
    EXPECT_THAT(table, HasSubstr("cpu \\x1b]0;title\\x07"));
    EXPECT_THAT(table, HasSubstr("tick:10ms: run 1: \\x1b[2J"));
  }
}

TEST(StudyReportTest, CsvAndJsonCarryEveryCell) {
  const std::vector<StudyCell> cells = {Cell("tick:10ms", 32), Cell("tick:20ms", 32)};
  std::vector<std::string> lines = absl::StrSplit(FormatStudyCsv(cells), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(std::vector<std::string>(absl::StrSplit(lines[0], ',')).size(),
            std::vector<std::string>(absl::StrSplit(lines[2], ',')).size());
  const std::string json = FormatStudyJson(RunContext{}, cells);
  EXPECT_THAT(json, HasSubstr(R"("clock":"tick:20ms")"));
  EXPECT_THAT(json, HasSubstr(R"("histogram_ticks":[3480,520,0,)"));
  EXPECT_THAT(json, HasSubstr(R"("predicted_f":0.13)"));
}

// Issue 32: "truth us 1300.00000000" beside "1300.0 ± 8.0": a simulated truth known to a
// picosecond is shown to the digits of the averaged figure it is the truth of.
TEST(StudyReportTest, TheTruthHasTheDigitsOfTheFigureItIsTheTruthOf) {
  StudyCell c = Cell("tick:10ms", 64);
  c.reference_resolution_ns = 1;
  c.truth_ci = {1.3e6, 1.3e6 - 1e-5, 1.3e6 + 1e-5};
  c.truth_ci.valid = true;
  c.averaged_ci = {1.3e6, 1.3e6 - 8e3, 1.3e6 + 8e3};
  c.averaged_ci.valid = true;
  const std::string table = FormatStudyTable({c});
  EXPECT_THAT(table, testing::ContainsRegex("\n +64 +1300 \\| 1300 ± 8 "));
  EXPECT_THAT(table, Not(HasSubstr("1300.0000")));
}

TEST(StudyReportTest, IntervalsInEveryFormat) {
  StudyCell c = Cell("tick:10ms", 32);
  c.averaged_ci.valid = true;
  c.averaged_ci.estimate = 1.3e6;
  c.averaged_ci.low = 1.2956e6;
  c.averaged_ci.high = 1.3044e6;
  c.averaged_unresolved = true;
  const std::string table = FormatStudyTable({c});
  // us: the half-width 4.4 would give a decimal, but the figure's grid is T / (N x runs) =
  // 10 ms / 4000 = 2.5 us: whole us ("1300.0 ± 4.4" before).
  EXPECT_THAT(table, HasSubstr("1300 ± 4 ?"));
  std::vector<std::string> lines = absl::StrSplit(FormatStudyCsv({c}), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 2u);
  const std::vector<std::string> header = absl::StrSplit(lines[0], ',');
  const std::vector<std::string> row = absl::StrSplit(lines[1], ',');
  ASSERT_EQ(header.size(), row.size());
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == "averaged_ns_ci95_low") {
      EXPECT_EQ(row[i], "1.2956e+06");
    }
    if (header[i] == "averaged_ns_ci95_high") {
      EXPECT_EQ(row[i], "1.3044e+06");
    }
    if (header[i] == "averaged_unresolved") {
      EXPECT_EQ(row[i], "1");
    }
    if (header[i] == "truth_ns_ci95_low") {
      EXPECT_EQ(row[i], "");  // no interval: empty
    }
  }
  const std::string json = FormatStudyJson(RunContext{}, {c});
  EXPECT_THAT(json, HasSubstr(R"("rtt_ns_ci95":[1295600,1304400])"));
  EXPECT_THAT(json, HasSubstr(R"("unresolved":true)"));
  EXPECT_THAT(json, HasSubstr(R"("bound_terms_ns":{"quantization":)"));
}

// The SD column carries the digits its interval supports (two of the half-width), and
// the SD's and the theory's intervals are in the CSV and JSON.
TEST(StudyReportTest, SdAndTheoryIntervalsInEveryFormat) {
  StudyCell c = Cell("tick:10ms", 32);
  c.per_iteration.sd = 3.3612e6;
  c.sd_ci.valid = true;
  c.sd_ci.estimate = 3.3612e6;
  c.sd_ci.low = 2.9e6;
  c.sd_ci.high = 4.1e6;  // half-width 600 us: tens of us
  c.predicted.f.valid = true;
  c.predicted.f.estimate = 0.13;
  c.predicted.f.low = 0.125;
  c.predicted.f.high = 0.135;
  c.observed_intervals.share.valid = true;
  c.observed_intervals.share.low = 0.11;
  c.observed_intervals.share.high = 0.15;
  c.observed.share_above_n = 0.1312;
  for (TableWidth width : {TableWidth::kNarrow, TableWidth::kWide}) {
    const std::string table = FormatStudyTable({c}, width);
    EXPECT_THAT(table, HasSubstr(" 3360 "));
    EXPECT_THAT(table, Not(HasSubstr("3361.2")));
  }
  EXPECT_THAT(FormatStudyTable({c}, TableWidth::kWide),
              HasSubstr("0.1300/0.131 agrees"));  // each to its own interval
  // An exact prediction (no width) takes the observed share's digits, not three decimals.
  StudyCell rare = c;
  rare.prediction.f = 0.0005;
  rare.predicted.f.low = rare.predicted.f.high = 0.0005;
  rare.observed.share_above_n = 0.001;
  rare.observed_intervals.share.low = 0.00003;
  rare.observed_intervals.share.high = 0.0056;
  EXPECT_THAT(FormatStudyTable({rare}, TableWidth::kWide), HasSubstr("0.0005/0.0010 agrees"));
  std::vector<std::string> lines = absl::StrSplit(FormatStudyCsv({c}), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 2u);
  const std::vector<std::string> header = absl::StrSplit(lines[0], ',');
  const std::vector<std::string> row = absl::StrSplit(lines[1], ',');
  ASSERT_EQ(header.size(), row.size());
  int found = 0;
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == "per_iteration_sd_ns_ci95_low") found += row[i] == "2.9e+06";
    if (header[i] == "per_iteration_sd_ns_ci95_high") found += row[i] == "4.1e+06";
    if (header[i] == "predicted_f_ci95_low") found += row[i] == "0.125";
    if (header[i] == "observed_f_ci95_high") found += row[i] == "0.15";
    if (header[i] == "predicted_sd_ns_ci95_low") found += row[i].empty();
  }
  EXPECT_EQ(found, 5);
  const std::string json = FormatStudyJson(RunContext{}, {c});
  EXPECT_THAT(json, HasSubstr(R"("sd_ns":3361200,"sd_ns_ci95":[2900000,4100000])"));
  EXPECT_THAT(json, HasSubstr(R"("predicted_f":0.13,"predicted_f_ci95":[0.125,0.135])"));
  EXPECT_THAT(json, HasSubstr(R"("observed_f":0.1312,"observed_f_ci95":[0.11,0.15])"));
  EXPECT_THAT(json, HasSubstr(R"("agrees_by_check":{"share":true,"mean":true,"sd":true})"));
}

// The verdict's fields say what the words say: "not judged" (phases not uniform) is not
// "agrees: true" in the JSON nor 1 in the CSV, though every check's intervals overlap.
TEST(StudyReportTest, VerdictFieldsEqualTheWords) {
  struct Case {
    bool applies, agrees, locked;
    const char* word;
    const char* csv;
    const char* json;
  };
  for (const Case& k :
       {Case{true, true, false, "agrees", "1", R"("verdict":"agrees","agrees":true)"},
        Case{true, false, false, "DISAGREES", "0", R"("verdict":"DISAGREES","agrees":false)"},
        Case{true, true, true, "not judged", "-1", R"("verdict":"not judged","agrees":false)"},
        Case{false, true, false, "n/a", "-1", R"("verdict":"n/a","agrees":false)"}}) {
    StudyCell c = Cell("tick:10ms", 32);
    c.prediction_applies = k.applies;
    c.verdict = {k.agrees, true, true};
    c.phase_locked = k.locked;
    c.phase_tested = k.locked;
    EXPECT_THAT(FormatStudyTable({c}, TableWidth::kWide), HasSubstr(k.word)) << k.word;
    std::vector<std::string> lines = absl::StrSplit(FormatStudyCsv({c}), '\n', absl::SkipEmpty());
    ASSERT_EQ(lines.size(), 2u);
    const std::vector<std::string> header = absl::StrSplit(lines[0], ',');
    const std::vector<std::string> row = absl::StrSplit(lines[1], ',');
    ASSERT_EQ(header.size(), row.size());
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i] == "theory_agrees") EXPECT_EQ(row[i], k.csv) << k.word;
    }
    EXPECT_THAT(FormatStudyJson(RunContext{}, {c}), HasSubstr(k.json)) << k.word;
  }
}

// Where a line's '|' are, in characters (UTF-8 code points).
std::vector<size_t> Separators(absl::string_view line) {
  std::vector<size_t> at;
  size_t column = 0;
  for (char c : line) {
    if (c == '|') at.push_back(column);
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++column;
  }
  return at;
}

// Cells of two clocks, one with an interval, one DISAGREES and one n/a; a long summary;
// round trips of `truth_ns`.
std::vector<StudyCell> MixedCells(double truth_ns) {
  std::vector<StudyCell> cells = {Cell("tick:10ms", 32), Cell("tick:10ms", 65000),
                                  Cell("virtual", 32)};
  for (StudyCell& c : cells) {
    c.truth_ns = c.averaged_ns = c.per_iteration.mean = truth_ns;
    c.averaged_ci.valid = true;
    c.averaged_ci.estimate = truth_ns;
    c.averaged_ci.low = truth_ns * 0.99;
    c.averaged_ci.high = truth_ns * 1.01;
    c.averaged_unresolved = true;
  }
  cells[1].verdict.share_agrees = false;
  cells[2].prediction_applies = false;
  std::string words;
  for (int i = 0; i < 40; ++i) words += "word" + std::to_string(i) + " ";
  cells[0].summary = words;
  return cells;
}

// Narrow: every line within 100 characters, the headers' separators where the rows' are,
// one time unit (ms from 10 ms a round trip), the legend of these columns only; the words
// wrapped with their continuation indented.
TEST(StudyReportTest, NarrowTableFitsOneHundredColumnsAlignedInOneUnit) {
  for (double truth_ns : {1.3e6, 1.3e7}) {
    SCOPED_TRACE(truth_ns);
    const std::string table = FormatStudyTable(MixedCells(truth_ns));
    const std::vector<std::string> lines = absl::StrSplit(table, '\n');
    std::vector<std::string> rows;  // the headers' and rows' lines
    for (const std::string& line : lines) {
      EXPECT_LE(DisplayWidth(line), kTableColumns) << line;
      if (absl::StrContains(line, " | ")) rows.push_back(line);
    }
    ASSERT_EQ(rows.size(), 7u) << table;  // two clocks' two header lines, three rows
    for (const std::string& row : rows) EXPECT_EQ(Separators(row), Separators(rows[0])) << row;
    const bool millis = truth_ns >= 1e7;
    const std::string header = rows[0] + rows[1];
    EXPECT_EQ(absl::StrContains(header, "ms"), millis) << header;
    EXPECT_EQ(absl::StrContains(header, "us"), !millis) << header;
    EXPECT_THAT(table, HasSubstr(millis ? " 13.00 ± 0.13 ?" : " 1300 ± 13 ?"));
    for (const char* verdict : {"| agrees\n", "| DISAGREES\n", "| n/a\n"}) {
      EXPECT_THAT(table, HasSubstr(verdict));
    }
    for (const char* wide_only : {"phase p", "probe", "(sd runs)", "pred/obs", "min"}) {
      EXPECT_THAT(header, Not(HasSubstr(wide_only)));
    }
    EXPECT_THAT(table, Not(HasSubstr("phase p:")));  // the legend: no such column
    EXPECT_THAT(table, Not(HasSubstr("probe:")));
    EXPECT_THAT(table, HasSubstr("zero%: the share of readings that were 0"));
    EXPECT_THAT(table, testing::ContainsRegex("\n  word0 word1 [^\n]*\n    word[0-9]+ "));
  }
}

// --wide: today's columns, and the prose wrapped as in the narrow table.
TEST(StudyReportTest, WideTableKeepsEveryColumnAndWrapsItsProse) {
  const std::string table = FormatStudyTable(MixedCells(1.3e6), TableWidth::kWide);
  // Two header lines laid out as the rows are: the groups, then the columns.
  EXPECT_THAT(table, HasSubstr("| truth, us       | averaged, us             | per-iteration, us"));
  EXPECT_THAT(table, HasSubstr("\nsize B | truth (sd runs) | RTT (95% CI) err% bound% | mean "));
  EXPECT_THAT(table, HasSubstr(" min zero% |"));
  EXPECT_THAT(table, HasSubstr(" f pred/obs verdict"));
  EXPECT_THAT(table, HasSubstr("| phase p | ns/read (read)\n"));
  EXPECT_THAT(table, HasSubstr("phase p: chi-square test"));
  const size_t prose = table.find("\nReadings in ticks");
  ASSERT_NE(prose, std::string::npos);
  for (absl::string_view line : absl::StrSplit(table.substr(prose), '\n')) {
    EXPECT_LE(DisplayWidth(line), kTableColumns) << line;
  }
  EXPECT_THAT(table, testing::ContainsRegex("\n  word0 word1 [^\n]*\n    word[0-9]+ "));
}

// Issue 32: the study's theory column ("0.0020/0.0000 agrees" past its 11 characters) and
// the histogram lines were out of line. Every line of each table (its headers too) has
// its separators at the same offsets, and the histogram's sizes line up.
TEST(StudyReportTest, EveryLineOfATableHasItsColumnsAtTheSameOffsets) {
  StudyCell wide_shares = Cell("tick:10ms:uniqtime-with-a-long-name", 64);
  wide_shares.prediction.f = 0.0020;
  wide_shares.observed.share_above_n = 0.00001;
  const std::vector<StudyCell> cells = {Cell("tick:10ms", 32), Cell("tick:10ms", 1024),
                                        wide_shares};
  for (TableWidth width : {TableWidth::kNarrow, TableWidth::kWide}) {
    const std::string table = FormatStudyTable(cells, width);
    std::vector<size_t> bars;
    for (absl::string_view line : absl::StrSplit(table, '\n')) {
      if (absl::StartsWith(line, "Readings")) break;
      if (!absl::StrContains(line, '|')) continue;
      if (bars.empty()) bars = Separators(line);
      EXPECT_EQ(Separators(line), bars) << line << "\n" << table;
    }
    EXPECT_FALSE(bars.empty()) << table;
    // The histogram's lines: " B: " at one offset.
    const size_t histograms = table.find("Readings in ticks of T");
    std::set<size_t> offsets;
    for (absl::string_view line : absl::StrSplit(table.substr(histograms), '\n')) {
      if (absl::StrContains(line, " B: ")) offsets.insert(line.find(" B: "));
    }
    EXPECT_EQ(offsets.size(), 1u) << table.substr(histograms);
  }
}

}  // namespace
}  // namespace tickbench::harness
