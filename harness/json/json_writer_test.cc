#include "harness/json/json_writer.h"

#include <cstdlib>
#include <limits>

#include "gtest/gtest.h"
#include "harness/json/json_reader.h"

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

// Issue 46 item 6: a host name with byte 0x9b (8-bit CSI, not UTF-8) and U+202E (a
// bidirectional override) was written raw, and a JSON parser refused the file's invalid
// UTF-8. JsonQuote now writes only printable ASCII for them: \ufffd for the byte that is
// not UTF-8, \uXXXX for every control, C1 (U+009B) and DEL included; a character that
// prints (µ) stays as it is, and the text reads back with the controls as they were.
TEST(JsonQuoteTest, C1BidiAndBytesThatAreNotUtf8AreEscapedIntoValidUtf8) {
  const std::string hostile =
      "host\x9b"
      "31m\xe2\x80\xae"
      "gnp.exe\xc2\x9b\x7f\x1b";
  const std::string quoted = JsonQuote(hostile);
  EXPECT_EQ(quoted, R"("host\ufffd31m\u202egnp.exe\u009b\u007f\u001b")");
  for (const char c : quoted) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << quoted;
  const absl::StatusOr<JsonValue> parsed = ParseJson(quoted);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->text,
            "host\xef\xbf\xbd"
            "31m\xe2\x80\xae"
            "gnp.exe\xc2\x9b\x7f\x1b");
  EXPECT_EQ(JsonQuote("\xc2\xb5s \\ \""), "\"\xc2\xb5s \\\\ \\\"\"");
  // A truncated UTF-8 sequence: each of its bytes is one that is not UTF-8.
  EXPECT_EQ(JsonQuote("a\xe2\x80"), R"("a\ufffd\ufffd")");
}

}  // namespace
}  // namespace tickbench::harness
