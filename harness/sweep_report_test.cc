#include "harness/sweep_report.h"

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;

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

TEST(SweepReportTest, TableAggregatesRunsPerSize) {
  const std::string table = FormatTable(TwoRuns(), TableStyle::kThroughput);
  // Throughput 2048 B / 10 us = 204800 KB/s and / 20 us = 102400 KB/s: mean 153600.
  EXPECT_THAT(table, HasSubstr("153600"));
  EXPECT_THAT(table, HasSubstr("KB/s"));
  const std::string rtt = FormatTable(TwoRuns(), TableStyle::kRttMillis);
  EXPECT_THAT(rtt, HasSubstr("0.0150"));  // mean of 0.010 and 0.020 ms
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

}  // namespace
}  // namespace tickbench::harness
