#include "harness/report/sweep_report.h"

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "analysis/csv/csv_sweep_reader.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/engine/no_figure.h"
#include "harness/output/text_wrap.h"
#include "harness/report/readings/run_readings.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::vector<RunRecord> TwoRuns() {
  std::vector<RunRecord> records;
  for (int run = 1; run <= 2; ++run) {
    RunRecord r;
    r.transport = "unix_stream";
    r.clock = "tick:20ms";
    r.reference_clock = "rdtsc";
    r.size_bytes = 1024;
    r.run = run;
    r.iterations = r.completed = r.timed_trips = 1000;
    r.averaged_rtt_ns = run == 1 ? 10'000 : 20'000;
    r.throughput_bytes_per_s = 2.0 * 1024 * 1e9 / r.averaged_rtt_ns;
    r.per_iteration_ns.mean = r.averaged_rtt_ns;
    r.per_iteration_ns.zero_fraction = 0.5;
    r.has_reference = true;
    r.reference_averaged_rtt_ns = 15'000;
    records.push_back(r);
  }
  return records;
}

// One run of `size` on a clock of resolution `resolution_ns`, its averaged RTT and p50
// `rtt_ns` with a p50 interval of half-width `p50_half_ns`.
RunRecord RunOn(size_t size, int run, double resolution_ns, double rtt_ns, double p50_half_ns) {
  RunRecord r;
  r.transport = "sim";
  r.clock = "virtual";
  r.size_bytes = size;
  r.run = run;
  r.iterations = r.completed = r.timed_trips = 1000;
  r.averaged_rtt_ns = r.per_iteration_ns.mean = r.per_iteration_ns.p50 = r.per_iteration_ns.p99 =
      rtt_ns;
  r.throughput_bytes_per_s = 2.0 * size * 1e9 / rtt_ns;
  r.resolution_ns = resolution_ns;
  r.quantum_ns = resolution_ns / 1000;
  r.per_iteration_p50_ci95 = {rtt_ns, rtt_ns - p50_half_ns, rtt_ns + p50_half_ns};
  r.per_iteration_p50_ci95.valid = true;
  return r;
}

// Issue 32: p50 "15.5790" over "17.30" in one column, and "28.00 - ?" for a figure read on
// a 4 us grid. A column keeps the decimals of its first row (two significant digits of a
// half-width, never finer than the clock's grid); a figure has the digits its grid allows.
TEST(SweepReportTest, AColumnKeepsItsFirstRowsDecimalsAndAFigureItsGridsDigits) {
  const std::vector<RunRecord> column = {RunOn(64, 1, 1, 15579, 0.4), RunOn(64, 2, 1, 15579, 0.4),
                                         RunOn(128, 1, 1, 17300, 40), RunOn(128, 2, 1, 17300, 40)};
  const std::string table = FormatTable(column, TableStyle::kRttMicros);
  // p50 and p99: the 1 ns grid's 3 decimals in us (the half-width 0.4 ns would give 4), and
  // the second row at its column's, not at its own 2 ("17.30").
  EXPECT_THAT(table, HasSubstr("  15.579  15.579 ")) << table;
  EXPECT_THAT(table, HasSubstr("  17.300  17.300 ")) << table;
  const std::string coarse = FormatTable({RunOn(64, 1, 4e6, 28000, 0)}, TableStyle::kRttMicros);
  EXPECT_THAT(coarse, HasSubstr("     28 - ")) << coarse;  // T/N = 4 us: no decimals
  EXPECT_THAT(coarse, Not(HasSubstr("28.00"))) << coarse;
}

// Issue 32: a per-iteration mean's interval of -72292 to 297042 ns in the JSON where the
// size's interval was clipped at 0. A time's interval is clipped at 0 in every output.
TEST(SweepReportTest, ATimesIntervalIsClippedAtZeroInCsvAndJson) {
  std::vector<RunRecord> records = TwoRuns();
  for (RunRecord& r : records) {
    r.per_iteration_mean_ci95 = {112374.92, -72291.9, 297041.7};
    r.per_iteration_mean_ci95.valid = true;
  }
  const std::string json = FormatJson(RunContext{}, records, "sweep");
  EXPECT_THAT(json, HasSubstr("\"mean_ns_ci95\":[0,297041.7]")) << json;
  EXPECT_THAT(json, Not(HasSubstr("-72291"))) << json;
  const std::string csv = FormatCsv(records);
  EXPECT_THAT(csv, HasSubstr(",0.000,297041.700,")) << csv;
  EXPECT_THAT(csv, Not(HasSubstr("-72291"))) << csv;
}

TEST(SweepReportTest, TableAggregatesRunsPerSize) {
  const std::string table = FormatTable(TwoRuns(), TableStyle::kThroughput);
  // Round trips of 10 and 20 us: the pooled RTT 15 us, SD 7.07, t(0.975, 1) = 12.706, so
  // f = exp(12.706 x 5 / 15) = 69 on the log scale; the throughput 2048 B / 15 us = 136533
  // KB/s within the same factor, its digits from the shorter side (136533 - 136533 / 69).
  // It was the mean of the runs' throughputs, 150000 ± 650000: an interval 4 times wider
  // than its value, reaching below 0, for a figure that disagreed with the RTT column.
  EXPECT_THAT(table, HasSubstr(" 140000 ×÷ 69 "));
  EXPECT_THAT(FormatTable(TwoRuns(), TableStyle::kThroughput, TableWidth::kWide),
              HasSubstr("140000 ×÷ 69"));
  EXPECT_THAT(table, HasSubstr("KB/s"));
  const std::string rtt = FormatTable(TwoRuns(), TableStyle::kRttMillis, TableWidth::kWide);
  EXPECT_THAT(rtt, HasSubstr("0.015 ×÷ 69"));  // 10 and 20 us pooled, in ms
  // Narrow: one unit, us for these 10 and 20 us round trips, whatever the style.
  const std::string narrow = FormatTable(TwoRuns(), TableStyle::kRttMillis);
  EXPECT_THAT(narrow, HasSubstr("15 ×÷ 69 "));
  // A narrow interval is "± its longer side".
  std::vector<RunRecord> close = TwoRuns();
  close[1].averaged_rtt_ns = 10'100;
  close[1].throughput_bytes_per_s = 2048 / 10.1e-6;
  EXPECT_THAT(FormatTable(close, TableStyle::kRttMicros),
              ::testing::ContainsRegex("10\\.0[0-9]* ± 0\\.[0-9]+ "));
}

TEST(SweepReportTest, UnresolvedFiguresAreMarkedWithTheRoundTripsThatWouldResolveThem) {
  std::vector<RunRecord> records = TwoRuns();
  for (RunRecord& r : records) {
    r.averaged_rtt_ns = 20'000;  // both runs read one quantum: SD 0
    r.quantum_ns = 20'000;       // 20 ms / 1000
    r.averaged_unresolved = true;
    r.round_trips_to_resolve = 133334;
  }
  const std::string table = FormatTable(records, TableStyle::kRttMicros);
  // The interval is not a point: the floor for 2 identical runs of one quantum.
  EXPECT_THAT(table, ::testing::ContainsRegex("20 ×÷ [0-9]+ \\?"));  // "?" after the interval
  EXPECT_THAT(FormatTable(records, TableStyle::kRttMicros, TableWidth::kWide),
              ::testing::ContainsRegex("20 \\? +×÷ [0-9]+"));  // --wide: as it was
  // The note wrapped at 100 columns, its continuation indented.
  EXPECT_THAT(table, HasSubstr("1024 B: ? unresolved: T/N is over 10% of the RTT; N >= 100 T/d = "
                               "133334 round trips would resolve\n      it to 1%"));
  records[0].throughput_note = "not computable: the clock read the whole loop as 0";
  EXPECT_THAT(FormatTable(records, TableStyle::kThroughput),
              HasSubstr("1024 B: throughput not computable"));
  const std::string csv = FormatCsv(records);
  EXPECT_THAT(csv, HasSubstr(",averaged_quantum_ns,averaged_unresolved,round_trips_to_resolve,"));
  EXPECT_THAT(csv, HasSubstr(",20000,1,133334,"));
}

TEST(SweepReportTest, CsvHasOneRowPerRunAndTheDocumentedColumns) {
  const std::string csv = FormatCsv(TwoRuns());
  std::vector<std::string> lines = absl::StrSplit(csv, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(std::vector<std::string>(absl::StrSplit(lines[0], ',')).size(),
            std::vector<std::string>(absl::StrSplit(lines[1], ',')).size());
  EXPECT_THAT(lines[0], HasSubstr("size_bytes"));
  EXPECT_THAT(lines[1], HasSubstr("unix_stream,tick:20ms,rdtsc,1024,1,"));
}

TEST(SweepReportTest, JsonCarriesContextAndResults) {
  RunContext context;
  context.system.cpu_model = "Test CPU";
  const std::string json = FormatJson(context, TwoRuns(), "unix_throughput");
  EXPECT_THAT(json, HasSubstr(R"("cpu":"Test CPU")"));
  EXPECT_THAT(json, HasSubstr(R"("averaged":{"rtt_ns":10000,)"));
  EXPECT_THAT(json, HasSubstr(R"("reference":{"averaged_rtt_ns":15000,)"));
  EXPECT_THAT(json, HasSubstr(R"("zero_fraction":0.5)"));
}

// A run's per-iteration intervals, where it has them, in the JSON and CSV; empty where not.
TEST(SweepReportTest, PerIterationIntervalsAreWrittenWhereARunHasThem) {
  std::vector<RunRecord> records = TwoRuns();
  timing::ConfidenceInterval mean;
  mean.valid = true;
  mean.low = 9'500;
  mean.high = 10'500;
  records[0].per_iteration_mean_ci95 = mean;
  timing::ConfidenceInterval p99 = mean;
  p99.low = 30'000;
  p99.high = 41'000.25;
  records[0].per_iteration_p99_ci95 = p99;
  timing::ConfidenceInterval sd = mean;
  sd.low = 0;
  sd.high = 812.5;
  records[0].per_iteration_sd_ci95 = sd;
  const std::string json = FormatJson(RunContext{}, records, "sweep");
  EXPECT_THAT(json, HasSubstr(R"("mean_ns_ci95":[9500,10500],"sd_ns_ci95":[0,812.5],)"
                              R"("p50_ns_ci95":[],"p99_ns_ci95":[30000,41000.25])"));
  EXPECT_THAT(json,
              HasSubstr(R"("mean_ns_ci95":[],"sd_ns_ci95":[],"p50_ns_ci95":[],"p99_ns_ci95":[])"));
  const std::string csv = FormatCsv(records);
  EXPECT_THAT(csv, HasSubstr(",zero_fraction,per_iteration_mean_ns_ci95_low,"
                             "per_iteration_mean_ns_ci95_high,per_iteration_p50_ns_ci95_low,"
                             "per_iteration_p50_ns_ci95_high,per_iteration_p99_ns_ci95_low,"
                             "per_iteration_p99_ns_ci95_high,reference_averaged_rtt_ns,"));
  EXPECT_THAT(csv, HasSubstr(",0.500000,9500.000,10500.000,,,30000.000,41000.250,15000.000,"));
  EXPECT_THAT(csv, HasSubstr(",0.500000,,,,,,,15000.000,"));
  // The SD's interval follows p90 (empty where there is none), then the size's columns.
  EXPECT_THAT(csv, HasSubstr(",per_iteration_p90_ns,per_iteration_sd_ns_ci95_low,"
                             "per_iteration_sd_ns_ci95_high,size_averaged_rtt_ns,"));
  EXPECT_THAT(csv, HasSubstr(",0.000,812.500,15000.000,"));
  EXPECT_THAT(csv, HasSubstr(",0.000,,,15000.000,"));
}

TEST(SweepReportTest, EachSizeCarriesItsAveragedFiguresWithTheirIntervals) {
  std::vector<RunRecord> records(3);
  for (int i = 0; i < 3; ++i) {
    RunRecord& r = records[i];
    r.transport = "sim";
    r.size_bytes = 1000;
    r.run = i + 1;
    r.iterations = r.completed = r.timed_trips = 1000;
    r.averaged_rtt_ns = 10000 + 100 * i;  // 10000, 10100, 10200: mean 10100, SD 100
    r.throughput_bytes_per_s = 2000 / (r.averaged_rtt_ns * 1e-9);
    r.quantum_ns = 1;
  }
  // t(0.975; 2 df) = 4.3027, standard error 100 / sqrt(3), on the log scale: f =
  // exp(4.3027 x 57.735 / 10100) = 1.024901, 10100 / f = 9854.62 to 10100 f = 10351.49.
  const std::string json = FormatJson(RunContext{}, records, "sweep");
  EXPECT_THAT(json, HasSubstr(R"("sizes":[{"size_bytes":1000,"runs":3,"valid_runs":3,)"));
  EXPECT_THAT(json, HasSubstr(R"("averaged_rtt_ns":10100,"averaged_rtt_ns_ci95":[9854.6)"));
  EXPECT_THAT(json, HasSubstr(R"("throughput_bytes_per_s_ci95":[)"));
  EXPECT_THAT(json, HasSubstr(R"("relative_half_width":0.0249)"));
  const std::string csv = FormatCsv(records);
  EXPECT_THAT(csv, HasSubstr(",10100.000,9854.6"));
  EXPECT_THAT(csv, HasSubstr(",10351.4"));
}

TEST(SweepReportTest, ARunWithoutAFigureShowsWhatWasLostNeverANumber) {
  std::vector<RunRecord> records = TwoRuns();
  for (RunRecord& r : records) {  // both runs of 1024 B had nothing left to time
    r.timed_trips = 0;
    r.completed = 1000;
    r.integrity.lost = 1000;
    MarkUnmeasured(r);  // as the engine leaves such a run (harness/engine/no_figure.h)
  }
  records[1].attempt = 2;
  RunRecord other = TwoRuns()[0];
  other.size_bytes = 64;
  records.push_back(other);
  const std::string table = FormatTable(records, TableStyle::kRttMicros);
  const size_t row = table.find("\n    1024");
  for (TableWidth width : {TableWidth::kNarrow, TableWidth::kWide}) {
    const std::string t = FormatTable(records, TableStyle::kRttMicros, width);
    EXPECT_THAT(t, ::testing::ContainsRegex("\n +1024 +0 +lost 2000 +- +\\| no valid run")) << t;
  }
  ASSERT_NE(row, std::string::npos) << table;
  const std::string line = table.substr(row + 1, table.find('\n', row + 1) - row - 1);
  EXPECT_THAT(line, HasSubstr("lost 2000"));
  EXPECT_THAT(line, HasSubstr("no valid run"));
  for (const char* figure : {"10.00", "20.00", "15.00"}) {  // the invalid runs' figures
    EXPECT_THAT(line, ::testing::Not(HasSubstr(figure)));
  }
  const std::string json = FormatJson(RunContext{}, records, "sweep");
  EXPECT_THAT(json, HasSubstr(R"("valid":false)"));
  EXPECT_THAT(json, HasSubstr(R"("averaged":{"rtt_ns":null,)"));
  EXPECT_THAT(json, HasSubstr(R"("per_iteration":{"mean_ns":null,"sd_ns":null,)"));
  EXPECT_THAT(json, HasSubstr(R"("reference":{"averaged_rtt_ns":null,)"));
  EXPECT_THAT(json, HasSubstr(R"("loss_rate":1)"));
  // The CSV reads back as the valid runs only: the invalid ones' figures are empty.
  const std::string csv = FormatCsv(records);
  absl::StatusOr<analysis::Sweep> sweep = analysis::ParseSweepCsv(csv, {});
  ASSERT_TRUE(sweep.ok()) << sweep.status();
  ASSERT_EQ(sweep->points.size(), 1u);
  EXPECT_EQ(sweep->points[0].size_bytes, 64);
  std::vector<std::string> lines = absl::StrSplit(csv, '\n', absl::SkipEmpty());
  const size_t columns = std::vector<std::string>(absl::StrSplit(lines[0], ',')).size();
  for (const std::string& line : lines) {
    EXPECT_EQ(std::vector<std::string>(absl::StrSplit(line, ',')).size(), columns) << line;
  }
}

TEST(SweepReportTest, TableStatesTheLossRateAndTheTimeoutInForce) {
  std::vector<RunRecord> records = TwoRuns();
  records[0].integrity.lost = 10;
  records[0].receive_timeout_ns = 250'000'000;
  records[1].receive_timeout_ns = 300'000'000;
  const std::string table = FormatTable(records, TableStyle::kRttMicros);
  EXPECT_THAT(table, HasSubstr("0.50"));  // 10 lost of 2000 round trips: 0.50%
  EXPECT_THAT(table,
              HasSubstr("Receive timeout in force for the timed round trips: 250ms to 300ms"));
}

// The table's lines (the footer's prose left out: it starts at "Averaged figures").
std::vector<std::string> TableLines(const std::string& table) {
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(table, '\n', absl::SkipEmpty())) {
    if (absl::StartsWith(line, "Averaged figures")) break;
    if (absl::StrContains(line, " B: ")) break;  // the notes
    lines.emplace_back(line);
  }
  return lines;
}

// Where a line's '|' are, in characters (UTF-8 code points).
std::vector<size_t> Separators(const std::string& line) {
  std::vector<size_t> at;
  size_t column = 0;
  for (char c : line) {
    if (c == '|') at.push_back(column);
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++column;
  }
  return at;
}

// Records of every kind a table shows: two runs with an interval, an unresolved size, a
// size with nothing timed; `rtt_ns` a round trip.
std::vector<RunRecord> MixedRecords(double rtt_ns) {
  std::vector<RunRecord> records = TwoRuns();
  for (RunRecord& r : records) {
    r.averaged_rtt_ns *= rtt_ns / 15'000;
    r.per_iteration_ns.mean = r.averaged_rtt_ns;
    r.per_iteration_ns.sd = r.per_iteration_ns.p50 = r.per_iteration_ns.p99 = r.averaged_rtt_ns;
    r.reference_averaged_rtt_ns = rtt_ns;
    r.throughput_bytes_per_s = 2.0 * 1024 * 1e9 / r.averaged_rtt_ns;
  }
  for (RunRecord r : TwoRuns()) {
    r.size_bytes = 32;
    r.averaged_rtt_ns = r.reference_averaged_rtt_ns = rtt_ns;
    r.quantum_ns = rtt_ns;
    r.averaged_unresolved = true;
    r.round_trips_to_resolve = 1'000'000;
    r.throughput_bytes_per_s = 2.0 * 32 * 1e9 / rtt_ns;
    records.push_back(r);
    r.size_bytes = 65000;
    r.timed_trips = 0;
    r.integrity.lost = 1000;
    r.attempt = 2;
    records.push_back(r);
  }
  return records;
}

// Narrow (the default): every line within 100 characters, the header's separators where
// the rows' are, one time unit in the column names (ms from 10 ms a round trip), no
// wide-only column.
TEST(SweepReportTest, NarrowTableFitsOneHundredColumnsAlignedInOneUnit) {
  for (TableStyle style :
       {TableStyle::kThroughput, TableStyle::kRttMillis, TableStyle::kRttMicros}) {
    for (double rtt_ns : {15'000.0, 15'000'000.0}) {
      SCOPED_TRACE(testing::Message() << "style " << static_cast<int>(style) << ", " << rtt_ns);
      const std::string table = FormatTable(MixedRecords(rtt_ns), style);
      for (absl::string_view line : absl::StrSplit(table, '\n')) {
        EXPECT_LE(DisplayWidth(line), kTableColumns) << line;
      }
      const std::vector<std::string> lines = TableLines(table);
      ASSERT_EQ(lines.size(), 5u) << table;  // two header lines, three sizes
      for (size_t i = 1; i < lines.size(); ++i) {
        EXPECT_EQ(Separators(lines[i]), Separators(lines[0])) << lines[0] << "\n" << lines[i];
      }
      const std::string header = lines[0] + lines[1];
      const bool millis = rtt_ns >= 1e7;
      EXPECT_EQ(absl::StrContains(header, "ms"), millis) << header;
      EXPECT_EQ(absl::StrContains(header, "us"), !millis) << header;
      EXPECT_EQ(absl::StrContains(header, "KB/s"), style == TableStyle::kThroughput) << header;
      EXPECT_THAT(header, Not(HasSubstr("retried")));
      EXPECT_THAT(header, Not(HasSubstr("sd")));
      EXPECT_THAT(table, Not(HasSubstr("retried the runs")));  // the prose: no such column
    }
  }
}

// Issue 32: the --wide table's reference sd was unpadded (and its header wider than the
// segment), shifting lost%/retried/faults. Every line of a wide table, headers too, has
// its separators at the header's offsets, whatever its figures' widths.
TEST(SweepReportTest, WideTableHasItsColumnsAtTheSameOffsetsOnEveryLine) {
  for (TableStyle style :
       {TableStyle::kThroughput, TableStyle::kRttMillis, TableStyle::kRttMicros}) {
    for (double rtt_ns : {15'000.0, 15'000'000.0}) {
      SCOPED_TRACE(testing::Message() << "style " << static_cast<int>(style) << ", " << rtt_ns);
      std::vector<RunRecord> records = MixedRecords(rtt_ns);
      for (RunRecord& r : records) {
        r.reference_per_iteration_ns.sd = 3105.929 * rtt_ns / 15'000;  // "3.105929" unpadded
        r.reference_nanos_per_tick = 0.5;
      }
      const std::string table = FormatTable(records, style, TableWidth::kWide);
      const std::vector<std::string> lines = TableLines(table);
      ASSERT_EQ(lines.size(), 5u) << table;  // two header lines, three sizes
      for (size_t i = 1; i < lines.size(); ++i) {
        EXPECT_EQ(Separators(lines[i]), Separators(lines[0])) << lines[0] << "\n" << lines[i];
      }
      EXPECT_THAT(lines[1], HasSubstr("retried")) << table;
    }
  }
}

// The time unit of a table printed size by size comes from its first size; header, rows
// and footer then make the whole table.
TEST(SweepReportTest, NarrowTableInPartsIsTheWholeTable) {
  const std::vector<RunRecord> records = MixedRecords(15'000'000.0);
  const TimeUnit unit = TableTimeUnit(records);
  EXPECT_EQ(unit, TimeUnit::kMillis);
  EXPECT_EQ(TableTimeUnit(TwoRuns()), TimeUnit::kMicros);
  std::string notes;
  TableDigits digits;  // the columns' decimals, from the first row, shared by the rest
  std::string parts = FormatTableHeader(TableStyle::kRttMicros, TableWidth::kNarrow, unit);
  for (size_t size : {32, 1024, 65000}) {
    parts += FormatTableRow(records, size, TableStyle::kRttMicros, notes, TableWidth::kNarrow, unit,
                            &digits);
  }
  parts += FormatTableFooter(records, notes);
  EXPECT_EQ(parts, FormatTable(records, TableStyle::kRttMicros));
  EXPECT_THAT(parts, HasSubstr("averaged, ms"));
  EXPECT_THAT(parts, HasSubstr("    15 ×÷ 69 "));  // 10 and 20 ms: as the us figures were
}

// --wide: today's columns, the lead in its style's unit, and the prose wrapped.
TEST(SweepReportTest, WideTableKeepsEveryColumnAndWrapsItsProse) {
  for (TableStyle style :
       {TableStyle::kThroughput, TableStyle::kRttMillis, TableStyle::kRttMicros}) {
    const std::string table = FormatTable(MixedRecords(15'000.0), style, TableWidth::kWide);
    EXPECT_THAT(table, HasSubstr("| per-iteration, us "));
    EXPECT_THAT(table, HasSubstr("mean        sd       p50       p99 zero%"));
    EXPECT_THAT(table, HasSubstr("| reference, us "));
    EXPECT_THAT(table, HasSubstr("avg        sd |  lost% retried  faults"));
    EXPECT_THAT(table, HasSubstr(style == TableStyle::kThroughput  ? "throughput"
                                 : style == TableStyle::kRttMillis ? "averaged, ms"
                                                                   : "averaged, us"));
    EXPECT_THAT(table, HasSubstr("retried the runs"));
    const size_t footer = table.find("Averaged figures");
    ASSERT_NE(footer, std::string::npos);
    for (absl::string_view line : absl::StrSplit(table.substr(footer), '\n')) {
      EXPECT_LE(DisplayWidth(line), kTableColumns) << line;
    }
  }
}

}  // namespace
}  // namespace tickbench::harness

namespace tickbench::harness {
namespace {

TEST(SweepReportTest, TheClocksRateAgainstTheReferenceIsReportedInEveryFormat) {
  std::vector<RunRecord> records(2);
  for (int i = 0; i < 2; ++i) {
    RunRecord& r = records[i];
    r.transport = "sim";
    r.size_bytes = 64;
    r.run = i + 1;
    r.iterations = r.completed = r.timed_trips = 1000;
    r.has_reference = true;
    r.reference_averaged_rtt_ns = 1e6;
    r.averaged_rtt_ns = 1e6 + 100;  // +100 ppm
    r.quantum_ns = 10;              // 10 ppm of the reference's 1 ms
  }
  const std::string table = FormatTable(records, TableStyle::kRttMicros);
  EXPECT_THAT(table, HasSubstr("Clock rate against the reference over the 2 runs: 100 ± "));
  EXPECT_THAT(table, HasSubstr("up to ± 10 ppm a run"));
  const std::string json = FormatJson(RunContext{}, records, "sweep");
  EXPECT_THAT(json, HasSubstr(R"("rate":{"runs":2,"ppm":100)"));
  EXPECT_THAT(json, HasSubstr(R"("quantization_bound_ppm":10})"));
  records[0].has_reference = records[1].has_reference = false;
  EXPECT_THAT(FormatTable(records, TableStyle::kRttMicros), Not(HasSubstr("Clock rate")));
}

// Many unresolved sizes: one note for all of them, with the range of sizes and of round
// trips, not one near-identical line per size (a 40-size sweep read by a 20 ms tick gave 40).
TEST(SweepReportTest, ManyUnresolvedSizesShareOneNote) {
  std::vector<RunRecord> records;
  for (size_t size = 50; size <= 2000; size += 50) {
    for (RunRecord r : TwoRuns()) {
      r.size_bytes = size;
      r.averaged_unresolved = true;
      r.round_trips_to_resolve = 100000 - static_cast<int64_t>(size);
      records.push_back(r);
    }
  }
  const std::string table = FormatTable(records, TableStyle::kRttMicros);
  EXPECT_THAT(table, HasSubstr("? unresolved at 40 of 40 sizes (50 to 2000 B): T/N is over 10% "
                               "of the RTT; N >= 100 T/d = 98000 to\n      99950 round trips "
                               "would resolve them to 1%"));
  EXPECT_THAT(table, Not(HasSubstr("50 B: ? unresolved")));
  // Two of them: a line each, as before.
  records.resize(4);
  EXPECT_THAT(FormatTable(records, TableStyle::kRttMicros), HasSubstr("  100 B: ? unresolved"));
}

// "What a person sees": the p99 column printed 0 where the JSON's pooled p99 was 31.6 us,
// rounded to the widest per-run interval (about 1.4 ms). The table's p50 and p99 are the
// pooled ones now, at the digits of their own intervals, and never 0 above 0.
TEST(SweepReportTest, TableQuantilesArePooledAtTheirOwnDigitsAndNeverZero) {
  std::vector<RunRecord> records;
  for (int run = 1; run <= 2; ++run) {
    RunRecord r;
    r.size_bytes = 4096;
    r.run = run;
    r.iterations = r.completed = r.timed_trips = 200;
    r.batch = 1;
    r.averaged_rtt_ns = 10'500;
    r.throughput_bytes_per_s = 2 * 4096 / 10.5e-6;
    r.quantum_ns = 1;
    r.resolution_ns = 1;
    // Readings of 10 us, and 1 in 100 of 31.6 us: the pooled p99 is between the two.
    r.clock_marks.push_back(0);
    for (int i = 0; i < 200; ++i)
      r.clock_marks.push_back(r.clock_marks.back() + (i % 100 == 99 ? 31'600 : 10'000));
    r.faulty_intervals.assign(200, 0);
    r.per_iteration_ns.p50 = 10'000;
    r.per_iteration_ns.p99 = 31'600;
    // A run's own p99 interval as wide as the one that printed 0.
    r.per_iteration_p99_ci95 = {31'600, 0, 1'400'000};
    r.per_iteration_p99_ci95.valid = true;
    records.push_back(r);
  }
  const std::vector<PooledPercentiles> pooled = PoolPercentiles(records, {50, 99});
  const std::string table = FormatTable(records, TableStyle::kRttMicros);
  const std::string p99 = timing::FormatDecimals(pooled[0].values[1].estimate / 1e3, 0);
  // The row's p99 is no 0, at least its p50, and its figure is the pooled one's.
  EXPECT_THAT(table, Not(::testing::ContainsRegex("  10\\.?[0-9]* +0 +0 \\|"))) << table;
  EXPECT_THAT(table, ::testing::ContainsRegex(" 10\\.?[0-9]* +[1-3][0-9]\\.?[0-9]* +[0-9]+ \\|"))
      << table << "pooled p99 " << pooled[0].values[1].estimate;
}

}  // namespace
}  // namespace tickbench::harness
