#include "core/study_report.h"

#include <string>

#include "core/study_columns.h"
#include "gtest/gtest.h"

namespace tickbench::core {
namespace {

class StringSink : public TextSink {
 public:
  void Write(const char* data, size_t size) override { text.append(data, size); }
  std::string text;
};

StudyCell Cell() {
  StudyCell c;
  c.clock = "systick";
  c.clock_name = "SysTick interrupt count (100 Hz)";
  c.reference = "systick_fine";
  c.size_bytes = 512;
  c.runs = 4;
  c.iterations = 1000;
  c.resolution_ns = 10e6;
  c.reference_resolution_ns = 40;
  c.truth_ns = 12345.678;
  c.averaged_ns = 10000;
  c.averaged_error_ns = 2345.678;
  c.averaged_bound_ns = 10000;
  c.reference_bound_ns = 0.04;
  c.pairing_bound_ns = 0.04;
  c.averaged_within_bound = true;
  c.readings = 4000;
  c.zero_fraction = 0.99875;
  c.histogram[0] = 3995;
  c.histogram[1] = 5;
  c.prediction.zero_share = 0.998765;
  c.prediction.f = 0.001235;
  c.observed_f = 0.00125;
  c.theory_agrees = true;
  c.zero_bound_applies = true;
  c.zero_bound = 0.001008;
  c.zero_within_bound = true;
  return c;
}

TEST(StudyReportTest, DurationsAsTheHostPrintsThem) {
  char buffer[24];
  EXPECT_STREQ(FormatDurationNs(10e6, buffer, sizeof(buffer)), "10ms");
  EXPECT_STREQ(FormatDurationNs(40, buffer, sizeof(buffer)), "40ns");
  EXPECT_STREQ(FormatDurationNs(1500, buffer, sizeof(buffer)), "1.5us");
  EXPECT_STREQ(FormatDurationNs(2e9, buffer, sizeof(buffer)), "2s");
}

TEST(StudyReportTest, TableHasTheHostsColumnsAndTheZeroShareCheck) {
  const StudyCell cells[] = {Cell()};
  StringSink out;
  WriteStudyTable(cells, 1, out);
  EXPECT_NE(out.text.find("systick: SysTick interrupt count (100 Hz), resolution T = 10ms, "
                          "1000 round trips x 4 runs"),
            std::string::npos)
      << out.text;
  EXPECT_NE(out.text.find("size B | truth us (sd runs) |  averaged us  err%  bound% | "
                          "per-iteration us: mean    sd   p50   min zero%"),
            std::string::npos)
      << out.text;
  EXPECT_NE(out.text.find("    512 |     12.35 (  0.00) |     10.00  19.000  81.001 |"),
            std::string::npos)
      << out.text;
  EXPECT_NE(out.text.find("99.88 / 99.88 (0.10) within"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("systick                         512 B: 0:3995 1:5"), std::string::npos)
      << out.text;
  EXPECT_NE(out.text.find("is 2.346 us off, within the bound (T + r + w)/N = 10.000 us"),
            std::string::npos)
      << out.text;
}

TEST(StudyReportTest, CsvStartsWithTheHostsColumns) {
  const StudyCell cells[] = {Cell()};
  StringSink out;
  WriteStudyCsv(cells, 1, out);
  // The header is the table of columns, and every row has a value for each.
  std::string header;
  for (const StudyColumn& column : kStudyColumns) {
    header += (header.empty() ? "" : ",") + std::string(column.name);
  }
  EXPECT_EQ(out.text.substr(0, out.text.find('\n')), header);
  int commas = 0;
  for (char ch : out.text.substr(out.text.find('\n') + 1)) commas += ch == ',';
  EXPECT_EQ(commas, kStudyColumnCount - 1) << out.text;
  const size_t row = out.text.find('\n') + 1;
  EXPECT_EQ(
      out.text.substr(row, 60),
      std::string("systick,512,4,1000,10000000.0,12345.678,0.000,10000.000,2345.").substr(0, 60));
  EXPECT_NE(out.text.find(",0.998765,0.001008,"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find(",3995;5;0;0;0;0;0;0\n"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find(",reference_clock,reference_resolution_ns,pair_skew_ns,faults,"),
            std::string::npos)
      << out.text;
}

TEST(StudyReportTest, CellsWithAnErrorAreLeftOutOfCsvAndJson) {
  StudyCell cells[] = {Cell(), Cell()};
  cells[1].error = "the transport failed";
  StringSink csv, json, table;
  WriteStudyCsv(cells, 2, csv);
  WriteStudyJson(cells, 2, "mps2-an385", json);
  WriteStudyTable(cells, 2, table);
  int rows = 0;
  for (char ch : csv.text) rows += ch == '\n';
  EXPECT_EQ(rows, 2);  // header and one row
  EXPECT_EQ(json.text.find("\"clock\":\"systick\""), json.text.rfind("\"clock\":\"systick\""));
  EXPECT_EQ(json.text.rfind("{\"schema_version\":2,\"mode\":\"study\",\"context\":{"
                            "\"experiment\":\"study\",\"platform\":\"mps2-an385\"},\"results\":[",
                            0),
            0u);
  // The host study's names: the truth is the "reference" object, the clock's name beside.
  EXPECT_NE(json.text.find("\"reference_clock\":\"systick_fine\""), std::string::npos);
  EXPECT_NE(json.text.find("\"reference\":{\"rtt_ns\":12345.678,"), std::string::npos);
  EXPECT_EQ(json.text.find("\"truth\""), std::string::npos);
  EXPECT_EQ(json.text.find("\"cells\""), std::string::npos);
  EXPECT_NE(json.text.find("\"zero_within_bound\":true"), std::string::npos);
  EXPECT_NE(table.text.find("the transport failed"), std::string::npos);
}

}  // namespace
}  // namespace tickbench::core
