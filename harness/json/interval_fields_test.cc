#include "harness/json/interval_fields.h"

#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

timing::ConfidenceInterval Interval(double low, double high) {
  timing::ConfidenceInterval ci;
  ci.estimate = (low + high) / 2;
  ci.low = low;
  ci.high = high;
  ci.valid = true;
  return ci;
}

TEST(IntervalFieldsTest, JsonIsAPairOrAnEmptyArray) {
  JsonWriter json;
  json.BeginObject();
  WriteIntervalJson(json, "mean_ns", Interval(1.25, 2.5));
  WriteIntervalJson(json, "p99_ns", timing::ConfidenceInterval());
  json.EndObject();
  EXPECT_EQ(json.text(), R"({"mean_ns_ci95":[1.25,2.5],"p99_ns_ci95":[]})");
}

TEST(IntervalFieldsTest, CsvIsTwoCellsInTheReportsDigits) {
  const timing::ConfidenceInterval ci = Interval(0.0001234567, 1234.56789);
  EXPECT_EQ(CsvInterval(ci, CsvDigits::kFixed3), "0.000,1234.568");
  EXPECT_EQ(CsvInterval(ci, CsvDigits::kSignificant6), "0.000123457,1234.57");
  EXPECT_EQ(CsvInterval(timing::ConfidenceInterval(), CsvDigits::kFixed3), ",");
  EXPECT_EQ(CsvInterval(timing::ConfidenceInterval(), CsvDigits::kSignificant6), ",");
}

}  // namespace
}  // namespace tickbench::harness
