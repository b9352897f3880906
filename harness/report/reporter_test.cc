#include "harness/report/reporter.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/report/study_report.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// What a reporter wrote to each stream.
struct Captured {
  std::string out;
  std::string err;
  ReportStreams streams() {
    return {[this](absl::string_view t) { out.append(t.data(), t.size()); },
            [this](absl::string_view t) { err.append(t.data(), t.size()); }};
  }
};

std::vector<RunRecord> Records() {
  std::vector<RunRecord> records;
  for (size_t size : {32, 1024}) {
    RunRecord r;
    r.transport = "sim";
    r.clock = "virtual";
    r.reference_clock = "virtual";
    r.size_bytes = size;
    r.run = 1;
    r.iterations = r.completed = r.timed_trips = 100;
    r.averaged_rtt_ns = 20'000 + static_cast<double>(size);
    r.throughput_bytes_per_s = 2.0 * static_cast<double>(size) * 1e9 / r.averaged_rtt_ns;
    r.per_iteration_ns.mean = r.averaged_rtt_ns;
    r.has_reference = true;
    r.reference_averaged_rtt_ns = r.averaged_rtt_ns;
    records.push_back(r);
  }
  return records;
}

StudyCell Cell() {
  StudyCell c;
  c.clock = c.clock_name = "tick:10ms";
  c.size_bytes = 64;
  c.runs = 1;
  c.iterations = 100;
  c.resolution_ns = 1e7;
  c.truth_ns = 2e4;
  c.histogram.assign(16, 0);
  c.histogram[0] = 100;
  return c;
}

RunContext Context() {
  RunContext context;
  context.system.hostname = "testhost";
  context.system.cpu_model = "Test CPU";
  context.settings.push_back(Setting{"iterations", "integer", "100", true});
  return context;
}

ExperimentHeader Header() {
  ExperimentHeader header;
  header.experiment = "sweep";
  header.transport = "sim";
  header.simulated = true;
  header.sizes = 2;
  header.runs = 1;
  header.iterations = 100;
  return header;
}

constexpr char kAnalysis[] = "\nSteps in the averaged RTT: none\n";

// Drives a reporter through a sweep as the sweep command does.
std::string ReportSweep(OutputFormat format, Captured& captured) {
  std::unique_ptr<Reporter> reporter = MakeReporter(format, captured.streams());
  reporter->ReportContext(Context(), Header());
  reporter->ReportRuns(Records(), TableStyle::kRttMicros);
  reporter->ReportAnalysis(kAnalysis);
  return reporter->Finalize();
}

TEST(FormatContextHeaderTest, EndsWithTheExperimentLine) {
  const std::string header = FormatContextHeader(Context(), Header());
  EXPECT_THAT(header, StartsWith("# tickbench "));
  EXPECT_THAT(header, HasSubstr(" on testhost, "));
  EXPECT_TRUE(
      absl::EndsWith(header,
                     "# experiment sweep over sim (simulated, virtual time): 2 sizes x 1 run x 100 "
                     "round trips\n"))
      << header;
}

TEST(FormatContextHeaderTest, SaysWhereRunsAreAddedOrNIsChosen) {
  ExperimentHeader h = Header();
  h.runs = 4;
  h.runs_added = true;
  EXPECT_THAT(FormatContextHeader(Context(), h),
              HasSubstr(": 2 sizes x 4+ runs (more until precise) x 100 round trips\n"));
  h.runs_added = false;
  h.iterations = 1000;
  h.iterations_chosen = true;
  EXPECT_THAT(FormatContextHeader(Context(), h),
              HasSubstr("x 4 runs x N round trips chosen per cell (at least 1000)\n"));
}

TEST(ReporterTest, TablePutsContextResultsAndAnalysisOnStdoutInOrder) {
  Captured captured;
  const std::string results = ReportSweep(OutputFormat::kTable, captured);
  EXPECT_EQ(results, FormatTable(Records(), TableStyle::kRttMicros) + kAnalysis);
  EXPECT_EQ(captured.out, FormatContextHeader(Context(), Header()) + results);
  EXPECT_EQ(captured.err, "");
}

TEST(ReporterTest, CsvOpensWithTheContextAsCommentLines) {
  Captured captured;
  const std::string results = ReportSweep(OutputFormat::kCsv, captured);
  EXPECT_EQ(results, FormatContextHeader(Context(), Header()) +
                         FormatSettingsComment(Context().settings) +
                         FormatCsv(Records(), DefaultPercentiles()));
  EXPECT_EQ(captured.out, results);
  EXPECT_EQ(captured.err, kAnalysis);
}

TEST(ReporterTest, CsvWithoutContextPutsOnlyTheRowsOnStdout) {
  Captured captured;
  std::unique_ptr<Reporter> reporter =
      MakeReporter(OutputFormat::kCsv, captured.streams(), /*csv_context=*/false);
  reporter->ReportContext(Context(), Header());
  reporter->ReportRuns(Records(), TableStyle::kRttMicros);
  reporter->ReportAnalysis(kAnalysis);
  const std::string results = reporter->Finalize();
  EXPECT_EQ(results, FormatCsv(Records(), DefaultPercentiles()));
  EXPECT_EQ(captured.out, results);
  const std::vector<std::string> lines = absl::StrSplit(results, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 3u);  // the header and one row per run
  EXPECT_THAT(lines[2], StartsWith("sim,virtual,virtual,1024,1,"));
  EXPECT_EQ(captured.err, FormatContextHeader(Context(), Header()) + kAnalysis);
}

TEST(ReporterTest, JsonCarriesTheContextAndTheExperimentInTheDocument) {
  Captured captured;
  const std::string results = ReportSweep(OutputFormat::kJson, captured);
  EXPECT_EQ(results, FormatJson(Context(), Records(), "sweep", DefaultPercentiles()));
  EXPECT_THAT(results, HasSubstr(R"("experiment":"sweep")"));
  EXPECT_THAT(results, HasSubstr(R"("host":"testhost")"));
  EXPECT_THAT(results, Not(HasSubstr("Steps in")));
  EXPECT_EQ(captured.out, results);
  EXPECT_EQ(captured.err, FormatContextHeader(Context(), Header()) + kAnalysis);
}

TEST(ReporterTest, EachFormatReportsStudyCellsWithItsOwnFormatter) {
  const std::vector<StudyCell> cells = {Cell()};
  const std::pair<OutputFormat, std::string> expected[] = {
      {OutputFormat::kTable, FormatStudyTable(cells)},
      {OutputFormat::kCsv, FormatContextHeader(Context(), Header()) +
                               FormatSettingsComment(Context().settings) + FormatStudyCsv(cells)},
      {OutputFormat::kJson, FormatStudyJson(Context(), cells)},
  };
  for (const auto& [format, text] : expected) {
    Captured captured;
    std::unique_ptr<Reporter> reporter = MakeReporter(format, captured.streams());
    reporter->ReportContext(Context(), Header());
    reporter->ReportCells(cells);
    EXPECT_EQ(reporter->Finalize(), text) << static_cast<int>(format);
    EXPECT_TRUE(absl::EndsWith(captured.out, text));
  }
}

TEST(ReporterTest, ATablePrintsEachRowAsItsSizeIsDoneAndTheRestAtTheEnd) {
  Captured captured;
  std::unique_ptr<Reporter> reporter = MakeReporter(OutputFormat::kTable, captured.streams());
  reporter->ReportContext(Context(), Header());
  const std::string context = captured.out;
  reporter->ReportSizeDone(Records(), 32, TableStyle::kRttMicros);
  std::string notes;
  const std::string first = FormatTableHeader(TableStyle::kRttMicros) +
                            FormatTableRow(Records(), 32, TableStyle::kRttMicros, notes);
  EXPECT_EQ(captured.out, context + first);  // at once, before the sweep is over
  reporter->ReportRuns(Records(), TableStyle::kRttMicros);
  const std::string results = reporter->Finalize();
  // The whole table (for --output), each part written once.
  EXPECT_EQ(results, FormatTable(Records(), TableStyle::kRttMicros));
  EXPECT_EQ(captured.out, context + results);
}

// A streamed table's time unit is its first size's: the header is out before the rest is
// measured. --wide keeps today's columns, whatever the unit.
TEST(ReporterTest, AStreamedTableKeepsItsFirstSizesUnit) {
  std::vector<RunRecord> records = Records();
  records[1].averaged_rtt_ns = records[1].reference_averaged_rtt_ns = 25e6;  // 25 ms
  records[1].per_iteration_ns.mean = 25e6;
  for (bool first_is_millis : {false, true}) {
    const size_t first = first_is_millis ? 1024 : 32;
    Captured captured;
    std::unique_ptr<Reporter> reporter = MakeReporter(OutputFormat::kTable, captured.streams());
    reporter->ReportSizeDone(records, first, TableStyle::kRttMicros);
    reporter->ReportRuns(records, TableStyle::kRttMicros);
    const std::string table = reporter->Finalize();
    EXPECT_THAT(table, HasSubstr(first_is_millis ? "averaged, ms" : "averaged, us")) << table;
    EXPECT_THAT(table, Not(HasSubstr(first_is_millis ? "averaged, us" : "averaged, ms")));
    EXPECT_THAT(table, HasSubstr(first_is_millis ? " 0.0200 " : " 25000.00 ")) << table;
  }
  Captured captured;
  std::unique_ptr<Reporter> wide =
      MakeReporter(OutputFormat::kTable, captured.streams(), true, TableWidth::kWide);
  wide->ReportSizeDone(records, 1024, TableStyle::kRttMicros);
  wide->ReportRuns(records, TableStyle::kRttMicros);
  EXPECT_THAT(wide->Finalize(), HasSubstr("| reference, us        |\n"));
}

TEST(ReporterTest, CsvAndJsonWaitForTheWholeSweep) {
  for (OutputFormat format : {OutputFormat::kCsv, OutputFormat::kJson}) {
    Captured captured;
    std::unique_ptr<Reporter> reporter = MakeReporter(format, captured.streams());
    reporter->ReportContext(Context(), Header());
    const std::string before = captured.out;
    reporter->ReportSizeDone(Records(), 32, TableStyle::kRttMicros);
    EXPECT_EQ(captured.out, before);
  }
}

TEST(ReporterTest, NothingReachesStdoutBeforeFinalizeButTheTablesContext) {
  Captured captured;
  std::unique_ptr<Reporter> reporter = MakeReporter(OutputFormat::kCsv, captured.streams());
  reporter->ReportContext(Context(), Header());
  reporter->ReportRuns(Records(), TableStyle::kThroughput);
  EXPECT_EQ(captured.out, "");
  reporter->Finalize();
  EXPECT_TRUE(absl::EndsWith(captured.out, FormatCsv(Records(), DefaultPercentiles())));
}

}  // namespace
}  // namespace tickbench::harness
