#include "analysis/csv/csv_sweep_reader.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::analysis {
namespace {

using ::testing::HasSubstr;

Sweep Parse(absl::string_view text, const CsvSweepOptions& options = {}) {
  absl::StatusOr<Sweep> sweep = ParseSweepCsv(text, options);
  EXPECT_TRUE(sweep.ok()) << sweep.status();
  return sweep.ok() ? *std::move(sweep) : Sweep{};
}

// The error for `text`, which must be InvalidArgument.
std::string Error(absl::string_view text, const CsvSweepOptions& options = {}) {
  absl::StatusOr<Sweep> sweep = ParseSweepCsv(text, options);
  EXPECT_EQ(sweep.status().code(), absl::StatusCode::kInvalidArgument) << text.substr(0, 80);
  return std::string(sweep.status().message());
}

TEST(ParseSweepCsvTest, PlainTwoColumnsWithoutHeader) {
  const Sweep sweep = Parse("64,1200\n32,1000.5\n64,1210\n");
  ASSERT_EQ(sweep.points.size(), 2u);
  EXPECT_EQ(sweep.points[0].size_bytes, 32);
  EXPECT_EQ(sweep.points[0].values, (std::vector<double>{1000.5}));
  EXPECT_EQ(sweep.points[1].values, (std::vector<double>{1200, 1210}));
  EXPECT_EQ(sweep.value_name, "value");
  EXPECT_EQ(sweep.unit, "");
}

TEST(ParseSweepCsvTest, ResolutionIsHalfTheLastDigitOfTheLeastPreciseRunScaled) {
  const Sweep plain = Parse("64,1200\n32,1000.5\n64,1210.25\n");
  EXPECT_DOUBLE_EQ(plain.points[0].resolution, 0.05);
  EXPECT_DOUBLE_EQ(plain.points[1].resolution, 0.5);  // "1200" is the coarser of the two
  const Sweep kb = Parse("size_bytes,throughput_kb_per_s\n32,42\n64,84.1\n128,\"1.67e2\"\n");
  EXPECT_EQ(kb.unit, "B/s");
  EXPECT_DOUBLE_EQ(kb.points[0].resolution, 500);  // 0.5 kB/s
  EXPECT_DOUBLE_EQ(kb.points[1].resolution, 50);
  EXPECT_DOUBLE_EQ(kb.points[2].resolution, 500);
  const Sweep us = Parse("size,rtt_us\n32,1508.0\n");
  EXPECT_DOUBLE_EQ(us.points[0].resolution, 50);  // 0.05 µs in ns
}

TEST(ParseSweepCsvTest, HeaderCommentsBlankLinesAndCrlf) {
  const Sweep sweep = Parse(
      "# classic table\r\n"
      "\r\n"
      "size , rtt_us\r\n"
      "  # a comment after the header\n"
      "32, 1.5e3\r\n"
      "\n"
      "512,2e3");
  ASSERT_EQ(sweep.points.size(), 2u);
  EXPECT_EQ(sweep.value_name, "rtt_us");
  EXPECT_EQ(sweep.unit, "ns");  // microseconds read in nanoseconds
  EXPECT_EQ(sweep.points[1].values[0], 2e6);
}

// Units from the header: time columns in ns, throughput columns in bytes per second, found
// without naming the column; an unknown unit is refused with the known ones listed.
TEST(ParseSweepCsvTest, UnitsFromTheHeader) {
  struct Case {
    const char* header;
    const char* unit;
    double value;  // of "64,3"
  };
  for (const Case& c : {Case{"size_bytes,rtt_ns", "ns", 3}, Case{"size_bytes,rtt_us", "ns", 3e3},
                        Case{"size_bytes,rtt_ms", "ns", 3e6}, Case{"size_bytes,rtt_s", "ns", 3e9},
                        Case{"size_bytes,throughput_bytes_per_s", "B/s", 3},
                        Case{"size_bytes,throughput_kb_per_s", "B/s", 3e3},
                        Case{"size_bytes,throughput_kib_per_s", "B/s", 3 * 1024.0},
                        Case{"size_bytes,throughput_mb_per_s", "B/s", 3e6},
                        Case{"size,throughput_kb_per_s", "B/s", 3e3}}) {
    absl::StatusOr<Sweep> sweep = ParseSweepCsv(std::string(c.header) + "\n64,3\n");
    ASSERT_TRUE(sweep.ok()) << c.header << ": " << sweep.status();
    EXPECT_EQ(sweep->unit, c.unit) << c.header;
    EXPECT_DOUBLE_EQ(sweep->points[0].values[0], c.value) << c.header;
  }
  // The first column with a known unit, past columns without one.
  EXPECT_EQ(Parse("size_bytes,host,rtt_ms,throughput_kb_per_s\n64,a,1,2\n").value_name, "rtt_ms");
  for (const char* header :
       {"size_bytes,rtt_sec", "size_bytes,throughput_bits_per_s", "size,rtt_min", "size,rtt_usec",
        "size,throughput_mbps", "size,rtt_cycles", "size_bytes,RTT_USEC", "size_bytes,rtt_ticks"}) {
    absl::StatusOr<Sweep> sweep = ParseSweepCsv(std::string(header) + "\n64,3\n");
    ASSERT_FALSE(sweep.ok()) << header;
    EXPECT_EQ(sweep.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(sweep.status().message()), HasSubstr("unknown unit")) << header;
    EXPECT_THAT(std::string(sweep.status().message()), HasSubstr("_kib_per_s")) << header;
  }
  // Names that only contain an underscore are no units.
  EXPECT_EQ(Parse("size,round_trip\n64,3\n").unit, "");
  EXPECT_EQ(Parse("size,rtt_median\n64,3\n").unit, "");
}

TEST(ParseSweepCsvTest, TickbenchResultsWithRuns) {
  const Sweep sweep = Parse(
      "transport,size_bytes,run,iterations,rtt_ns,averaged_rtt_ns\n"
      "\"unix, stream\",64,0,1000,9.5,10.0\n"
      "\"unix, stream\",64,1,1000,9.7,10.5\n"
      "\"unix, stream\",32,0,1000,8.0,9.0\n");
  EXPECT_EQ(sweep.value_name, "averaged_rtt_ns");
  EXPECT_EQ(sweep.unit, "ns");
  ASSERT_EQ(sweep.points.size(), 2u);
  EXPECT_EQ(sweep.points[0].values, (std::vector<double>{9.0}));
  EXPECT_EQ(sweep.points[1].values, (std::vector<double>{10.0, 10.5}));
}

TEST(ParseSweepCsvTest, RunsWithoutAFigureAreNoDataPoints) {
  // A retried attempt (valid 0, empty figure) and its retry with the same run number.
  const Sweep sweep = Parse(
      "size_bytes,run,averaged_rtt_ns,attempt,valid\n"
      "64,1,,1,0\n"
      "64,1,10.0,2,1\n"
      "32,1,9.0,1,1\n");
  ASSERT_EQ(sweep.points.size(), 2u);
  EXPECT_EQ(sweep.points[1].values, (std::vector<double>{10.0}));
  // Without a valid column, an empty figure is an error as before.
  EXPECT_FALSE(ParseSweepCsv("size_bytes,run,averaged_rtt_ns\n64,1,\n", {}).ok());
}

TEST(ParseSweepCsvTest, DefaultAndChosenValueColumns) {
  const char* text = "size_bytes,value,rtt_ns,throughput_bytes_per_second\n64,1,2,3\n";
  EXPECT_EQ(Parse(text).value_name, "rtt_ns");  // preferred over "value"
  CsvSweepOptions options;
  options.value_column = "throughput_bytes_per_second";
  const Sweep sweep = Parse(text, options);
  EXPECT_EQ(sweep.unit, "B/s");
  EXPECT_EQ(sweep.points[0].values[0], 3);
  EXPECT_EQ(Parse("size_bytes,value\n64,7\n").points[0].values[0], 7);
}

TEST(ParseSweepCsvTest, QuotesWithEscapedQuotes) {
  const Sweep sweep = Parse("name,size_bytes,rtt_ns\n\"say \"\"hi\"\", twice\",64,5\n");
  EXPECT_EQ(sweep.points[0].values[0], 5);
}

TEST(ParseSweepCsvTest, NonNumericField) {
  EXPECT_EQ(Error("32,1000\n64,fast\n"), "line 2: value 'fast' is not a number");
  EXPECT_EQ(Error("size,rtt_ns\n32,1\nabc,2\n"), "line 3: size 'abc' is not a number");
}

TEST(ParseSweepCsvTest, WrongNumberOfFields) {
  EXPECT_EQ(Error("32,1000\n64,1,2\n"), "line 2: expected 2 fields, found 3");
  EXPECT_EQ(Error("size_bytes,run,rtt_ns\n# c\n64,0\n"), "line 3: expected 3 fields, found 2");
  EXPECT_EQ(Error("32,1000,5\n"), "line 1: expected 2 fields, found 3");
}

TEST(ParseSweepCsvTest, NegativeOrZeroSize) {
  EXPECT_EQ(Error("32,1\n-64,1\n"), "line 2: size -64 is not positive");
  EXPECT_EQ(Error("0,1\n"), "line 1: size 0 is not positive");
}

TEST(ParseSweepCsvTest, NanAndInfinity) {
  EXPECT_EQ(Error("32,nan\n"), "line 1: value 'nan' is not finite");
  EXPECT_EQ(Error("32,1\n64,-inf\n"), "line 2: value '-inf' is not finite");
  EXPECT_EQ(Error("size_bytes,rtt_ns\ninf,1\n"), "line 2: size 'inf' is not finite");
}

TEST(ParseSweepCsvTest, HeaderProblems) {
  EXPECT_EQ(Error("a,b,c\n1,2,3\n"),
            "line 1: the header has no size_bytes column and is not two columns of "
            "size,value: a,b,c");
  EXPECT_EQ(Error("size_bytes,run,bandwidth\n64,0,1\n"),
            "line 1: no value column (averaged_rtt_ns, rtt_ns, value, or a name ending in a unit: "
            "_bytes_per_second, _bytes_per_s, _kib_per_s, _kb_per_s, _mb_per_s, _ns, _us, _ms, "
            "_s); columns are "
            "size_bytes,run,bandwidth");
  CsvSweepOptions options;
  options.value_column = "p99_ns";
  EXPECT_EQ(Error("size_bytes,rtt_ns\n64,1\n", options),
            "line 1: no column named 'p99_ns'; columns are size_bytes,rtt_ns");
  EXPECT_EQ(Error("64,1\n", options), "line 1: no header, so no column named 'p99_ns'");
  options.value_column = "size_bytes";
  EXPECT_EQ(Error("size_bytes,rtt_ns\n64,1\n", options),
            "line 1: the value column is the size column");
}

TEST(ParseSweepCsvTest, BadOrRepeatedRuns) {
  EXPECT_EQ(Error("size_bytes,run,rtt_ns\n64,0,1\n64,0,2\n"),
            "line 3: run 0 of size 64 appears twice");
  EXPECT_EQ(Error("size_bytes,run,rtt_ns\n64,1.5,1\n"),
            "line 2: run 1.5 is not a whole number >= 0");
  EXPECT_EQ(Error("size_bytes,run,rtt_ns\n64,-1,1\n"), "line 2: run -1 is not a whole number >= 0");
}

TEST(ParseSweepCsvTest, UnterminatedQuote) {
  EXPECT_EQ(Error("name,size_bytes,rtt_ns\n\"abc,64,1\n"), "line 2: unterminated quote");
}

TEST(ParseSweepCsvTest, NoDataRows) {
  EXPECT_EQ(Error(""), "no data rows");
  EXPECT_EQ(Error("# only a comment\n\nsize_bytes,rtt_ns\n"), "no data rows");
}

TEST(ParseSweepCsvTest, LineLengthLimit) {
  const std::string longest = "32," + std::string(kMaxCsvLineBytes - 4, '0') + "1\n";
  EXPECT_EQ(Parse(longest).points[0].values[0], 1);
  const std::string too_long = "32,1\n64," + std::string(kMaxCsvLineBytes - 3, '0') + "1\n";
  EXPECT_EQ(Error(too_long), "line 2: longer than 65536 bytes");
}

TEST(ParseSweepCsvTest, RowLimit) {
  std::string text;
  text.reserve(4 * (kMaxCsvRows + 1));
  for (size_t i = 0; i < kMaxCsvRows; ++i) text += "1,1\n";
  EXPECT_EQ(Parse(text).points[0].values.size(), kMaxCsvRows);
  text += "1,1\n";
  EXPECT_EQ(Error(text), "line 1000001: more than 1000000 data rows");
}

TEST(ParseSweepCsvTest, DistinctSizeLimit) {
  std::string text;
  for (size_t i = 1; i <= kMaxCsvSizes; ++i) text += std::to_string(i) + ",1\n";
  text += "1,2\n";  // one more run of a size already seen is not a new size
  const Sweep sweep = Parse(text);
  EXPECT_EQ(sweep.points.size(), kMaxCsvSizes);
  EXPECT_EQ(sweep.points[0].values.size(), 2u);
  text += "10001,1\n";
  EXPECT_EQ(Error(text), "line 10002: more than 10000 distinct sizes, the most the analysis takes");
  EXPECT_EQ(kMaxCsvSizes, kMaxStepDetectorSizes);
}

TEST(ParseSweepCsvTest, ErrorsEscapeControlBytesOfCells) {
  // A terminal escape (clear screen), a carriage return and a NUL in a cell: quoted escaped.
  EXPECT_EQ(Error(std::string("32,1\n64,\x1b[2J\rboom\n")),
            "line 2: value '\\x1b[2J\\rboom' is not a number");
  EXPECT_EQ(Error(std::string("32,1\n64,\0\n", 10)), "line 2: value '\\x00' is not a number");
  EXPECT_EQ(Error("size,rtt_ns\n\"\x1b]0;title\x07\",1\n"),
            "line 2: size '\\x1b]0;title\\x07' is not a number");
  // A newline can only come from the caller: the column asked for.
  CsvSweepOptions options;
  options.value_column = "\x1b[2J\nrm";
  EXPECT_EQ(Error("size_bytes,rtt_ns\n64,1\n", options),
            "line 1: no column named '\\x1b[2J\\nrm'; columns are size_bytes,rtt_ns");
  EXPECT_EQ(Error("64,1\n", options), "line 1: no header, so no column named '\\x1b[2J\\nrm'");
  EXPECT_EQ(Error("a,\x1b[31m,c\n1,2,3\n"),
            "line 1: the header has no size_bytes column and is not two columns of "
            "size,value: a,\\x1b[31m,c");
}

TEST(ParseSweepCsvTest, ErrorsCutLongCellsAndColumnLists) {
  const std::string cell(1000, 'a');
  EXPECT_EQ(Error("32,1\n32," + cell + "\n"),
            "line 2: value '" + std::string(kMaxQuotedBytes, 'a') + "...' is not a number");
  // Escaping happens after the cut: 40 bytes of ESC become 40 escapes, not 10.
  std::string escapes;
  for (size_t i = 0; i < kMaxQuotedBytes; ++i) escapes += "\\x1b";
  EXPECT_EQ(Error("32,1\n32," + std::string(100, '\x1b') + "\n"),
            "line 2: value '" + escapes + "...' is not a number");
  std::string header = "size_bytes";
  for (int i = 1; i < 30; ++i) header += ",c" + std::to_string(i);
  EXPECT_EQ(Error(header + "\n1" + std::string(29, ',') + "\n"),
            "line 1: no value column (averaged_rtt_ns, rtt_ns, value, or a name ending in a unit: "
            "_bytes_per_second, _bytes_per_s, _kib_per_s, _kb_per_s, _mb_per_s, _ns, _us, _ms, "
            "_s); columns are "
            "size_bytes,c1,c2,c3,c4,c5,c6,c7,c8,c9,c10,c11,c12,c13,c14,c15,c16,c17,c18,c19,... "
            "(30 columns)");
}

TEST(ParseSweepCsvTest, ValueColumnNameMustBePrintable) {
  // The name becomes the sweep's value_name, which is printed as it is.
  EXPECT_EQ(Error("size,\x1b[2Jx\n64,1\n"),
            "line 1: the value column's name '\\x1b[2Jx' has control characters or is not UTF-8");
  EXPECT_EQ(Error("size,\xc2\x9b"
                  "2J\n64,1\n"),  // U+009B, the one-character CSI
            "line 1: the value column's name '\\xc2\\x9b\\x32J' has control characters or is not "
            "UTF-8");
  EXPECT_EQ(Error("size,\x9b"
                  "2J\n64,1\n"),
            "line 1: the value column's name '\\x9b\\x32J' has control characters or is not UTF-8");
  EXPECT_EQ(Error("size,\xc0\x9b\n64,1\n"),  // overlong ESC
            "line 1: the value column's name '\\xc0\\x9b' has control characters or is not UTF-8");
  const Sweep sweep = Parse("size,rtt_\xc2\xb5s ok\n64,1\n");  // U+00B5 MICRO SIGN
  EXPECT_EQ(sweep.value_name, "rtt_\xc2\xb5s ok");
  // Other columns are never printed but in messages, escaped: they may be anything.
  EXPECT_EQ(Parse("size_bytes,\x1b[2J,rtt_ns\n64,x,1\n").value_name, "rtt_ns");
}

TEST(ParseSweepCsvTest, HugeAndTinyNumbers) {
  EXPECT_EQ(Error("32,1e999\n"), "line 1: value '1e999' is not finite");
  EXPECT_EQ(Error("1e999,1\n"), "line 1: size '1e999' is not finite");
  EXPECT_EQ(Error("32," + std::string(100, '9') + "e999\n"),
            "line 1: value '" + std::string(kMaxQuotedBytes, '9') + "...' is not finite");
}

// Values tiny or huge enough to break the fits' arithmetic (1e-200 crashed them) are
// refused with their line and the range the analysis takes, in the sweep's unit.
TEST(ParseSweepCsvTest, ValuesOutsideTheAnalysisRangeAreRefusedNamingTheRange) {
  EXPECT_EQ(Error("64,1e-200\n128,2e-200\n"),
            "line 1: value '1e-200' is out of range: the analysis takes 0 or a magnitude from "
            "1e-20 to 1e+20");
  EXPECT_EQ(Error("size_bytes,rtt_ns\n64,1\n128,1e160\n"),
            "line 3: rtt_ns '1e160' is out of range: the analysis takes 0 or a magnitude from "
            "1e-20 to 1e+20 ns");
  // The range holds once the column's unit is applied: 1e15 s is 1e24 ns.
  EXPECT_EQ(Error("size_bytes,rtt_s\n64,1e15\n"),
            "line 2: rtt_s '1e15' is out of range (1e+24 ns): the analysis takes 0 or a "
            "magnitude from 1e-20 to 1e+20 ns");
  // So does the resolution it was written to: "0e41" is 0 ± 5e40.
  EXPECT_EQ(Error("64,1\n128,0e41\n"),
            "line 2: value '0e41' is written to +-5e+40: the analysis takes a resolution of at "
            "most 1e+20");
  const Sweep edges = Parse("64,1e-20\n128,0\n192,1e20\n");
  EXPECT_EQ(edges.points[0].values[0], 1e-20);
  EXPECT_EQ(edges.points[2].values[0], 1e20);
}

TEST(ParseSweepCsvTest, ARoundTripOrThroughputIsNeverNegative) {
  EXPECT_EQ(Error("size_bytes,rtt_ns\n64,10\n128,-5\n"),
            "line 3: rtt_ns '-5' is negative: a time or a throughput is not");
  EXPECT_EQ(Error("64,-0.5\n"), "line 1: value '-0.5' is negative: a time or a throughput is not");
  EXPECT_EQ(Error("size_bytes,throughput_kb_per_s\n64,0\n"),
            "line 2: throughput_kb_per_s '0' is not positive: a throughput of 0 has no "
            "round-trip time");
  // A coarse clock reads a whole loop as 0: a time of 0 is a reading.
  EXPECT_EQ(Parse("size_bytes,averaged_rtt_ns\n64,0.000\n").points[0].values[0], 0);
}

TEST(ParseSweepCsvTest, NumbersAreDecimalOnly) {
  EXPECT_EQ(Error("0x10,5\n32,6\n"), "line 1: size '0x10' is not a decimal number");
  EXPECT_EQ(Error("32,0x10\n"), "line 1: value '0x10' is not a decimal number");
  EXPECT_EQ(Error("size_bytes,run,rtt_ns\n64,0x1,5\n"),
            "line 2: run '0x1' is not a decimal number");
}

// Sizes are whole bytes up to the transports' largest message: 2^64 and more are refused,
// and sizes near 2^62, which a double would merge into one, never get that far.
TEST(ParseSweepCsvTest, SizesAreWholeBytesUpToTheTransportsLargestMessage) {
  EXPECT_EQ(Error("18446744073709551616,1\n"),
            "line 1: size '18446744073709551616' is past 16777216 bytes, the transports' largest "
            "message");
  EXPECT_EQ(Error("64,1\n4611686018427387904,2\n4611686018427387905,3\n"),
            "line 2: size '4611686018427387904' is past 16777216 bytes, the transports' largest "
            "message");
  EXPECT_EQ(Error("64.5,1\n"), "line 1: size '64.5' is not a whole number of bytes");
  EXPECT_EQ(Error("1e-300,1\n"), "line 1: size '1e-300' is not a whole number of bytes");
  std::string distinct;
  for (int i = 0; i < 20; ++i) distinct += std::to_string(16777216 - i) + ",1\n";
  EXPECT_EQ(Parse(distinct).points.size(), 20u);
  EXPECT_EQ(Parse("1e3,1\n1000.0,2\n").points.size(), 1u);  // one size, two runs
}

TEST(CsvSweepReaderQuantumTest, AveragedQuantumBecomesThePointsQuantum) {
  const absl::StatusOr<Sweep> sweep = ParseSweepCsv(
      "size_bytes,run,averaged_rtt_ns,averaged_quantum_ns\n"
      "64,1,20000,20000\n64,2,20000,\n128,1,40000,10000\n");
  ASSERT_TRUE(sweep.ok()) << sweep.status();
  ASSERT_EQ(sweep->points.size(), 2u);
  EXPECT_EQ(sweep->points[0].quantum, 20000);
  EXPECT_EQ(sweep->points[1].quantum, 10000);
  // Another value column: no quantum.
  CsvSweepOptions options;
  options.value_column = "averaged_quantum_ns";
  const absl::StatusOr<Sweep> other =
      ParseSweepCsv("size_bytes,averaged_rtt_ns,averaged_quantum_ns\n64,20000,20000\n", options);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other->points[0].quantum, 0);
}

}  // namespace
}  // namespace tickbench::analysis
