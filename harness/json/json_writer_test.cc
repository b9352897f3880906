#include "harness/json/json_writer.h"

#include <cstdlib>
#include <limits>

#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

TEST(JsonWriterTest, NestsWithCommasAndEscapes) {
  JsonWriter json;
  json.BeginObject();
  json.Key("name");
  json.String("a \"quoted\"\nline\x01");
  json.Key("values");
  json.BeginArray();
  json.Integer(1);
  json.Number(2.5);
  json.Number(std::numeric_limits<double>::infinity());
  json.BeginObject();
  json.Key("ok");
  json.Bool(true);
  json.EndObject();
  json.EndArray();
  json.EndObject();
  EXPECT_EQ(json.text(),
            R"({"name":"a \"quoted\"\nline\u0001","values":[1,2.5,null,{"ok":true}]})");
}

// "1.23457e+06" for 1234567 lost the digits a comparison of 1234567 with 1234599 is about.
TEST(ExactNumberTest, WholeNumbersAreIntegersAndDecimalsReadBackExactly) {
  EXPECT_EQ(ExactNumber(1234567), "1234567");
  EXPECT_EQ(ExactNumber(-0.0), "0");
  EXPECT_EQ(ExactNumber(0.1), "0.1");
  EXPECT_EQ(ExactNumber(1e300), "1e+300");
  for (const double x : {1234599.0 / 1234567.0, 1.0 / 3, 2.5e-7, 123456.789012345}) {
    const std::string text = ExactNumber(x);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), x) << text;
    EXPECT_EQ(text.find("e+06"), std::string::npos) << text;
  }
  EXPECT_EQ(ExactNumber(std::numeric_limits<double>::quiet_NaN()), "nan");
}

}  // namespace
}  // namespace tickbench::harness
