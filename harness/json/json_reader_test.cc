#include "harness/json/json_reader.h"

#include <csignal>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "platform/stop_signal.h"

namespace tickbench::harness {
namespace {

std::string StringOf(absl::string_view json) {
  absl::StatusOr<JsonValue> value = ParseJson(json);
  EXPECT_TRUE(value.ok()) << json << ": " << value.status();
  if (!value.ok()) return "<error>";
  EXPECT_EQ(value->kind, JsonValue::Kind::kString) << json;
  return value->text;
}

TEST(JsonReaderTest, ReadsEveryKindInDocumentOrder) {
  absl::StatusOr<JsonValue> json =
      ParseJson(R"( {"n": -1.5e2, "i": 10, "t": true, "f": false, "z": null, "a": [1, "x"]} )");
  ASSERT_TRUE(json.ok()) << json.status();
  ASSERT_EQ(json->members.size(), 6u);
  EXPECT_EQ(json->members[0].first, "n");
  EXPECT_EQ(NumberAt(*json, "", "n"), -150);
  EXPECT_FALSE(json->Get("n")->integral);
  EXPECT_TRUE(json->Get("i")->integral);
  EXPECT_TRUE(json->Get("t")->boolean);
  EXPECT_EQ(json->Get("f")->kind, JsonValue::Kind::kBool);
  EXPECT_FALSE(json->Get("f")->boolean);
  EXPECT_EQ(json->Get("z")->kind, JsonValue::Kind::kNull);
  ASSERT_EQ(json->Get("a")->items.size(), 2u);
  EXPECT_EQ(json->Get("a")->items[1].text, "x");
  EXPECT_EQ(json->Get("missing"), nullptr);
}

TEST(JsonReaderTest, DecodesEveryEscape) {
  EXPECT_EQ(StringOf(R"("\"\\\/\b\f\n\r\t")"), "\"\\/\b\f\n\r\t");
  EXPECT_EQ(StringOf(R"("a\u0041\u00e9")"), "aA\xC3\xA9");  // é: two bytes
  EXPECT_EQ(StringOf(R"("\u20AC")"), "\xE2\x82\xAC");       // €: three bytes
}

// RFC 8259, section 7: a character outside the Basic Multilingual Plane is escaped as a
// UTF-16 surrogate pair, one code point; a surrogate alone is no character.
TEST(JsonReaderTest, JoinsSurrogatePairsAndReplacesLoneSurrogates) {
  EXPECT_EQ(StringOf(R"("\uD834\uDD1E")"), "\xF0\x9D\x84\x9E");  // U+1D11E, G clef
  EXPECT_EQ(StringOf(R"("\ud83d\ude00")"), "\xF0\x9F\x98\x80");  // U+1F600
  const std::string replacement = "\xEF\xBF\xBD";                // U+FFFD
  EXPECT_EQ(StringOf(R"("\uD834x")"), replacement + "x");
  EXPECT_EQ(StringOf(R"("\uDD1E")"), replacement);
  EXPECT_EQ(StringOf(R"("\uD834\u0041")"), replacement + "A");
  EXPECT_EQ(StringOf(R"("\uD834\uD834\uDD1E")"), replacement + "\xF0\x9D\x84\x9E");
}

TEST(JsonReaderTest, RejectsWhatIsNotJson) {
  for (absl::string_view bad :
       {R"("\u12")", R"("\u12G4")", R"("\x")", "\"a", "\"a\nb\"", "[1,]", "{\"a\" 1}", "[1] 2",
        "+1", ".5", "1.", "1e", "-", "01x", "nul", ""}) {
    absl::StatusOr<JsonValue> value = ParseJson(bad);
    ASSERT_FALSE(value.ok()) << bad;
    EXPECT_TRUE(absl::StrContains(value.status().message(), "not JSON at byte")) << bad;
  }
  EXPECT_FALSE(ParseJson(std::string(100, '[') + std::string(100, ']')).ok());
}

// Issue 46, case 8: "[0,0,0,...]" took about 55 bytes of memory per byte of text (3.5 GB
// for 64 MiB); the parse now stops at its bound of values, naming it.
TEST(JsonReaderTest, MoreValuesThanTheBoundAreRefusedNamingTheBound) {
  std::string text = "[0";
  for (int i = 0; i < 200; ++i) absl::StrAppend(&text, ",0");
  text += "]";
  EXPECT_TRUE(ParseJson(text, 202).ok());
  const absl::StatusOr<JsonValue> json = ParseJson(text, 201);
  ASSERT_FALSE(json.ok());
  EXPECT_EQ(json.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(json.status().message(), "more than 201 values")) << json.status();
}

// Issue 46, case 1: a stop request ends a parse (the old parse ran to its end, 14-18 s on
// 64 MiB, and --compare exited 0).
TEST(JsonReaderTest, AStopRequestCancelsTheParse) {
  ASSERT_TRUE(platform::InstallStopHandlers().ok());
  std::string text = "[0";
  for (int i = 0; i < 10000; ++i) absl::StrAppend(&text, ",0");
  text += "]";
  ASSERT_TRUE(ParseJson(text).ok());
  std::raise(SIGINT);
  const absl::StatusOr<JsonValue> json = ParseJson(text);
  platform::ResetStopForTesting();
  ASSERT_FALSE(json.ok());
  EXPECT_EQ(json.status().code(), absl::StatusCode::kCancelled) << json.status();
  EXPECT_TRUE(ParseJson(text).ok());
}

}  // namespace
}  // namespace tickbench::harness
