#include "harness/json/json_writer.h"

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

}  // namespace
}  // namespace tickbench::harness
