// Every JSON tickbench writes, in every mode, against docs/tickbench.schema.json (with the
// validator of tests/json_schema.h); and the provenance the JSON and CSV carry: the
// settings in force with their types, the load averages, the CSV's context lines and its
// p90 column.
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/json/json_reader.h"
#include "tests/harness_runner.h"
#include "tests/json_schema.h"

namespace {

using ::testing::HasSubstr;
using tickbench::harness::JsonValue;
using tickbench::harness::ParseJson;
using tickbench::testing::HarnessResult;
using tickbench::testing::ReadWholeFile;
using tickbench::testing::RunHarness;
using tickbench::testing::ValidateJson;

constexpr char kSweep[] =
    "--transport=sim --experiment=sweep --sizes=32,4096 --iterations=100 --runs=2 --seed=1";
constexpr char kStudy[] =
    "--experiment=study --transport=sim --sizes=32 --iterations=50 --runs=2 --seed=1";

JsonValue Schema() {
  absl::StatusOr<JsonValue> schema = ParseJson(ReadWholeFile("docs/tickbench.schema.json"));
  EXPECT_TRUE(schema.ok()) << schema.status();
  return schema.ok() ? *schema : JsonValue();
}

JsonValue RunJson(const std::string& args) {
  const HarnessResult r = RunHarness(args, "unset BUILD_WORKING_DIRECTORY;");
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  absl::StatusOr<JsonValue> json = ParseJson(r.out);
  EXPECT_TRUE(json.ok()) << args << ": " << json.status() << "\n" << r.out;
  return json.ok() ? *json : JsonValue();
}

TEST(SchemaTest, EveryModesJsonConforms) {
  const JsonValue schema = Schema();
  ASSERT_EQ(schema.kind, JsonValue::Kind::kObject);
  for (const std::string& args :
       {std::string(kSweep) + " --format=json", std::string(kStudy) + " --format=json",
        std::string(kSweep) + " --sim_bsd --peer_drop_every=7 --format=json",
        std::string("--list_clocks --format=json"),
        std::string("--clock_info=virtual,tick:10ms --format=json"),
        std::string("--analyze=tests/golden/analyze_input.csv --explain --format=json")}) {
    const std::vector<std::string> errors = ValidateJson(RunJson(args), schema, schema);
    EXPECT_TRUE(errors.empty()) << args << ":\n  " << absl::StrJoin(errors, "\n  ");
  }
}

// --compare's JSON, on two simulated sweeps written with --output: it conforms, opens with
// the provenance, and a figure that was not computed is null. The schema's compare entry
// is no catch-all: a comparison without its mode, or with a sweep's, does not conform.
TEST(SchemaTest, CompareJsonConformsAndSaysWhatItIs) {
  const JsonValue schema = Schema();
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string a = absl::StrCat(dir != nullptr ? dir : ".", "/schema_a.json");
  const std::string b = absl::StrCat(dir != nullptr ? dir : ".", "/schema_b.json");
  for (const auto& [path, fixed] : {std::pair(a, "20us"), std::pair(b, "22us")}) {
    const HarnessResult r =
        RunHarness(absl::StrCat(kSweep, " --sim_fixed=", fixed, " --format=json --output=", path));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const JsonValue json = RunJson(absl::StrCat("--compare=", a, ",", b, " --format=json"));
  const std::vector<std::string> errors = ValidateJson(json, schema, schema);
  EXPECT_TRUE(errors.empty()) << absl::StrJoin(errors, "\n  ");
  ASSERT_NE(json.Get("mode"), nullptr);
  EXPECT_EQ(json.Get("mode")->text, "compare");
  EXPECT_EQ(json.Get("schema_version")->number, 2);
  EXPECT_FALSE(json.Get("tickbench_version")->text.empty());
  const JsonValue* sizes = json.Get("sizes");
  ASSERT_NE(sizes, nullptr);
  ASSERT_EQ(sizes->items.size(), 2u);
  const JsonValue* averaged = sizes->items[0].Get("averaged");
  EXPECT_TRUE(averaged->Get("valid")->boolean);
  // Simulated: 2 us more per round trip, exactly, and the ratio is B's mean over A's.
  const double a_ns = averaged->Get("a_ns")->number, b_ns = averaged->Get("b_ns")->number;
  EXPECT_EQ(b_ns - a_ns, 2000);
  EXPECT_NEAR(averaged->Get("ratio")->number, b_ns / a_ns, 1e-5);
  for (const char* mode : {"", "sweep"}) {
    JsonValue other = json;
    for (auto& [key, value] : other.members) {
      if (key == "mode") value.text = mode;
    }
    EXPECT_FALSE(ValidateJson(other, schema, schema).empty()) << mode;
  }
}

TEST(SchemaTest, TheValidatorRejectsWhatTheSchemaForbids) {
  const JsonValue schema = Schema();
  JsonValue sweep = RunJson(std::string(kSweep) + " --format=json");
  ASSERT_TRUE(ValidateJson(sweep, schema, schema).empty());
  // The study's old names, a missing key and a wrong type are each caught.
  JsonValue renamed = sweep;
  for (auto& [key, value] : renamed.members) {
    if (key == "results") key = "cells";
  }
  EXPECT_FALSE(ValidateJson(renamed, schema, schema).empty());
  JsonValue wrong_type = sweep;
  for (auto& [key, value] : wrong_type.members) {
    if (key == "schema_version") value.integral = false, value.number = 2.5;
  }
  EXPECT_FALSE(ValidateJson(wrong_type, schema, schema).empty());
  JsonValue unknown_keyword;
  unknown_keyword.kind = JsonValue::Kind::kObject;
  unknown_keyword.members.emplace_back("pattern", JsonValue());
  EXPECT_FALSE(ValidateJson(sweep, unknown_keyword, unknown_keyword).empty());
}

// The settings in force: every flag, typed, the preset's values where it sets them, and
// which were given.
TEST(SchemaTest, SettingsAreTypedAndSayWhatWasGiven) {
  const JsonValue json =
      RunJson("--transport=sim --experiment=udp_rtt --iterations=20 --format=json");
  const JsonValue* context = json.Get("context");
  ASSERT_NE(context, nullptr);
  const JsonValue* settings = context->Get("settings");
  ASSERT_NE(settings, nullptr);
  bool saw_runs = false, saw_iterations = false, saw_timeout = false, saw_bool = false;
  for (const JsonValue& s : settings->items) {
    const std::string& name = s.Get("name")->text;
    const std::string& type = s.Get("type")->text;
    const JsonValue& value = *s.Get("value");
    if (type == "bool") {
      EXPECT_EQ(value.kind, JsonValue::Kind::kBool) << name;
    }
    if (type == "integer" || type == "duration") {
      EXPECT_TRUE(value.integral) << name;
    }
    if (type == "string") {
      EXPECT_EQ(value.kind, JsonValue::Kind::kString) << name;
    }
    if (name == "runs") {  // udp_rtt's 1, not the flag's default 4, and not typed
      saw_runs = true;
      EXPECT_EQ(value.number, 1);
      EXPECT_FALSE(s.Get("given")->boolean);
    }
    if (name == "iterations") {
      saw_iterations = true;
      EXPECT_EQ(value.number, 20);
      EXPECT_TRUE(s.Get("given")->boolean);
    }
    if (name == "receive_timeout") {
      saw_timeout = true;
      EXPECT_EQ(type, "duration");
      EXPECT_EQ(value.number, 1e9);  // ns
    }
    saw_bool = saw_bool || type == "bool";
  }
  EXPECT_TRUE(saw_runs && saw_iterations && saw_timeout && saw_bool);
  const JsonValue* start = context->Get("load_average_start");
  const JsonValue* end = context->Get("load_average_end");
  ASSERT_TRUE(start != nullptr && end != nullptr);
  EXPECT_EQ(start->items.size(), 3u);  // Linux: /proc/loadavg
  EXPECT_EQ(end->items.size(), 3u);
  EXPECT_EQ(context->Get("peer")->text, "");
}

// The CSV opens with the context as '#' lines (settings included), which --analyze skips;
// --csv_context=false leaves them out; p90 is a column, equal to the JSON's.
TEST(SchemaTest, CsvCarriesTheContextAndP90) {
  const HarnessResult csv =
      RunHarness(std::string(kSweep) + " --sim_jitter=exponential --format=csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  std::vector<std::string> lines = absl::StrSplit(csv.out, '\n', absl::SkipEmpty());
  size_t header = 0;
  while (header < lines.size() && absl::StartsWith(lines[header], "#")) ++header;
  ASSERT_GT(header, 0u) << csv.out;
  EXPECT_THAT(csv.out, HasSubstr("\n# setting iterations = 100 (integer, given)\n"));
  EXPECT_THAT(csv.out, HasSubstr("\n# load average at start: "));
  ASSERT_LT(header, lines.size());
  const std::vector<std::string> columns = absl::StrSplit(lines[header], ',');
  const auto p90 = std::find(columns.begin(), columns.end(), "per_iteration_p90_ns");
  ASSERT_NE(p90, columns.end()) << lines[header];
  const JsonValue json = RunJson(std::string(kSweep) + " --sim_jitter=exponential --format=json");
  const JsonValue* results = json.Get("results");
  ASSERT_NE(results, nullptr);
  ASSERT_EQ(results->items.size(), lines.size() - header - 1);
  for (size_t i = 0; i < results->items.size(); ++i) {
    const std::vector<std::string> cells = absl::StrSplit(lines[header + 1 + i], ',');
    ASSERT_EQ(cells.size(), columns.size()) << lines[header + 1 + i];
    double csv_p90 = 0;
    ASSERT_TRUE(absl::SimpleAtod(cells[p90 - columns.begin()], &csv_p90));
    const double json_p90 = results->items[i].Get("per_iteration")->Get("p90_ns")->number;
    EXPECT_NEAR(csv_p90, json_p90, 1e-3 + 1e-9 * json_p90);
    EXPECT_GT(csv_p90, results->items[i].Get("per_iteration")->Get("p50_ns")->number);
  }
  const HarnessResult bare = RunHarness(std::string(kSweep) + " --format=csv --csv_context=false");
  ASSERT_EQ(bare.exit_code, 0);
  EXPECT_TRUE(absl::StartsWith(bare.out, "transport,")) << bare.out.substr(0, 200);
  EXPECT_THAT(bare.err, HasSubstr("# experiment sweep over sim"));
}

}  // namespace
