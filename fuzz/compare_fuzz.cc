#include "fuzz/compare_fuzz.h"

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_text.h"
#include "harness/commands/compare_command.h"
#include "harness/json/json_reader.h"
#include "harness/output/output_format.h"

namespace tickbench::fuzz {
namespace {

using harness::JsonValue;

bool IsNumber(const JsonValue* v) { return v != nullptr && v->kind == JsonValue::Kind::kNumber; }

// One figure's comparison ("averaged" or "per_iteration") of one size in the JSON output.
void CheckRatio(const JsonValue& ratio) {
  const JsonValue* valid = ratio.Get("valid");
  FuzzCheck(valid != nullptr && valid->kind == JsonValue::Kind::kBool, "valid is true or false");
  const double runs_a = harness::NumberAt(ratio, "", "runs_a", -1);
  const double runs_b = harness::NumberAt(ratio, "", "runs_b", -1);
  if (valid->boolean) {
    FuzzCheck(
        IsNumber(ratio.Get("a_ns")) && IsNumber(ratio.Get("b_ns")) && IsNumber(ratio.Get("ratio")),
        "a valid ratio has both means and the ratio");
  }
  const bool tested = IsNumber(ratio.Get("low"));
  FuzzCheck(IsNumber(ratio.Get("high")) == tested && IsNumber(ratio.Get("p_value")) == tested,
            "an interval comes with its p-value");
  FuzzCheck(!tested || (valid->boolean && runs_a >= 2 && runs_b >= 2),
            "an interval only where each side has 2 runs or more");
  if (tested) {
    const double value = ratio.Get("ratio")->number;
    FuzzCheck(ratio.Get("low")->number <= value && value <= ratio.Get("high")->number,
              "the interval holds the ratio");
  }
  FuzzCheck(tested || !absl::StrContains(harness::StringAt(ratio, "verdict"), "p < 0.05"),
            "no significance without a test");
}

void CheckJson(const std::string& json) {
  const absl::StatusOr<JsonValue> root = harness::ParseJson(json);
  FuzzCheck(root.ok(), "the JSON output reads back");
  const JsonValue* sizes = root->Get("sizes");
  FuzzCheck(sizes != nullptr && sizes->kind == JsonValue::Kind::kArray, "it has sizes");
  for (const JsonValue& size : sizes->items) {
    for (const char* figure : {"averaged", "per_iteration"}) {
      const JsonValue* ratio = size.Get(figure);
      FuzzCheck(ratio != nullptr && ratio->kind == JsonValue::Kind::kObject,
                "each size compares both figures");
      CheckRatio(*ratio);
    }
  }
}

}  // namespace

void FuzzCompare(const uint8_t* data, size_t size) {
  const absl::string_view input(reinterpret_cast<const char*>(data), size);
  constexpr absl::string_view kSeparator = "\n---\n";
  const size_t split = input.find(kSeparator);
  const absl::string_view a = input.substr(0, split);
  const absl::string_view b =
      split == absl::string_view::npos ? a : input.substr(split + kSeparator.size());
  for (const harness::OutputFormat format :
       {harness::OutputFormat::kTable, harness::OutputFormat::kCsv, harness::OutputFormat::kJson}) {
    const absl::StatusOr<std::string> out =
        harness::CompareSweepJson(a, "a.json", b, "b.json", format);
    if (!out.ok()) {
      FuzzCheck(absl::IsInvalidArgument(out.status()), "a refused file is InvalidArgument");
      FuzzCheck(!HasControlOrHighByte(out.status().message()),
                "a refusal quotes the files escaped");
      return;  // the files are read alike for every format
    }
    FuzzCheck(!HasControlByte(*out), "the comparison has no control byte");
    FuzzCheck(!PrintsNonFinite(*out), "the comparison prints no nan or inf");
    if (format == harness::OutputFormat::kJson) CheckJson(*out);
  }
}

}  // namespace tickbench::fuzz
