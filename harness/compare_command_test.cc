#include "harness/compare_command.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "harness/build_info.h"

namespace tickbench::harness {
namespace {

// A sweep's JSON as tickbench writes it (the fields compare reads), one record per value:
// run r of size s has averaged RTT values[s][r].
std::string SweepJson(const std::string& transport, const std::vector<int>& sizes,
                      const std::vector<std::vector<double>>& values) {
  std::vector<std::string> records;
  for (size_t s = 0; s < sizes.size(); ++s) {
    for (size_t r = 0; r < values[s].size(); ++r) {
      records.push_back(absl::StrFormat(
          "{\"transport\":\"%s\",\"clock\":\"virtual\",\"size_bytes\":%d,\"run\":%d,"
          "\"valid\":true,\"averaged\":{\"rtt_ns\":%.6g,\"resolution_ns\":1,\"quantum_ns\":0.005},"
          "\"per_iteration\":{\"mean_ns\":%.6g,\"intervals\":200,\"note\":\"a \\\"quoted\\\" "
          "\\u0041\"}}",
          transport, sizes[s], r + 1, values[s][r], values[s][r]));
    }
  }
  return absl::StrCat("{\"context\":{\"flags\":{}},\"results\":[", absl::StrJoin(records, ","),
                      "]}");
}

TEST(CompareSweepJson, TenPercentSlowerIsCalledWithAnIntervalThatExcludesOne) {
  const std::string a = SweepJson("sim", {64}, {{1000, 1010, 990, 1005}});
  const std::string b = SweepJson("sim", {64}, {{1100, 1111, 1089, 1105}});
  absl::StatusOr<std::string> json =
      CompareSweepJson(a, "a.json", b, "b.json", OutputFormat::kJson);
  ASSERT_TRUE(json.ok()) << json.status();
  // 1101.25 / 1001.25; the runs' SDs 9.4 and 8.5 over sqrt(4), Welch df 6.0, t = 2.45:
  // exp(log 1.09988 -+ 2.45 * 0.00603).
  EXPECT_TRUE(absl::StrContains(*json, "\"ratio\":1.09988,\"low\":1.0838")) << *json;
  EXPECT_TRUE(absl::StrContains(*json, "\"high\":1.1161")) << *json;
  EXPECT_TRUE(absl::StrContains(*json, "B slower by 10.0%")) << *json;
  absl::StatusOr<std::string> table =
      CompareSweepJson(a, "a.json", b, "b.json", OutputFormat::kTable);
  ASSERT_TRUE(table.ok());
  EXPECT_TRUE(absl::StrContains(*table, "p < 0.05")) << *table;
  EXPECT_TRUE(absl::StrContains(*table, "delta method")) << *table;
}

TEST(CompareSweepJson, OverlappingRunsAreNoDifference) {
  const std::string a = SweepJson("sim", {64}, {{1000, 1100, 900, 1050}});
  const std::string b = SweepJson("sim", {64}, {{1020, 1080, 950, 1000}});
  absl::StatusOr<std::string> csv = CompareSweepJson(a, "a", b, "b", OutputFormat::kCsv);
  ASSERT_TRUE(csv.ok()) << csv.status();
  EXPECT_TRUE(absl::StartsWith(*csv, "size_bytes,a_averaged_rtt_ns,")) << *csv;
  EXPECT_TRUE(absl::StrContains(*csv, "\n64,")) << *csv;
  EXPECT_TRUE(absl::StrContains(*csv, "no difference at 5%")) << *csv;
  EXPECT_FALSE(absl::StrContains(*csv, "slower")) << *csv;
}

TEST(CompareSweepJson, FasterIsCalledFaster) {
  const std::string a = SweepJson("sim", {64}, {{1000, 1010, 990}});
  const std::string b = SweepJson("sim", {64}, {{800, 808, 792}});
  absl::StatusOr<std::string> json = CompareSweepJson(a, "a", b, "b", OutputFormat::kJson);
  ASSERT_TRUE(json.ok());
  EXPECT_TRUE(absl::StrContains(*json, "B faster by 20.0%")) << *json;
}

TEST(CompareSweepJson, JsonOpensWithItsProvenance) {
  const std::string a = SweepJson("sim", {64}, {{1000, 1010, 990}});
  absl::StatusOr<std::string> json = CompareSweepJson(a, "a", a, "b", OutputFormat::kJson);
  ASSERT_TRUE(json.ok());
  EXPECT_TRUE(absl::StartsWith(
      *json, absl::StrCat("{\"schema_version\":", kSchemaVersion, ",\"tickbench_version\":\"",
                          TickbenchVersion(), "\",\"mode\":\"compare\",\"a\":\"a\",")))
      << *json;
  // A comparison is not a sweep: given back to --compare, it is refused.
  absl::StatusOr<std::string> again =
      CompareSweepJson(*json, "c.json", a, "a", OutputFormat::kJson);
  ASSERT_FALSE(again.ok());
  EXPECT_TRUE(
      absl::StrContains(again.status().message(), "c.json: the results of mode \"compare\""))
      << again.status();
}

TEST(CompareSweepJson, ARatioThatCannotBeComputedIsNullNotZero) {
  const std::string a = SweepJson("sim", {64}, {{0, 0}});  // no positive mean: no ratio
  const std::string b = SweepJson("sim", {64}, {{1000, 1000}});
  absl::StatusOr<std::string> json = CompareSweepJson(a, "a", b, "b", OutputFormat::kJson);
  ASSERT_TRUE(json.ok());
  EXPECT_TRUE(absl::StrContains(*json,
                                "\"a_ns\":0,\"b_ns\":1000,\"valid\":false,\"ratio\":null,"
                                "\"low\":null,\"high\":null,\"p_value\":null,"))
      << *json;
  EXPECT_TRUE(absl::StrContains(*json, "\"verdict\":\"no figure\"")) << *json;
}

TEST(CompareSweepJson, RefusesDifferentSizesNamingThem) {
  const std::string a = SweepJson("sim", {64, 128}, {{1000, 1000}, {1000, 1000}});
  const std::string b = SweepJson("sim", {64, 256}, {{1000, 1000}, {1000, 1000}});
  absl::StatusOr<std::string> out =
      CompareSweepJson(a, "a.json", b, "b.json", OutputFormat::kTable);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(), "the sizes differ: only in a.json: 128; only in b.json: 256");
}

TEST(CompareSweepJson, RefusesDifferentTransportsNamingThem) {
  const std::string a = SweepJson("sim", {64}, {{1000}});
  const std::string b = SweepJson("udp", {64}, {{1000}});
  absl::StatusOr<std::string> out = CompareSweepJson(a, "a", b, "b", OutputFormat::kTable);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(), "the transports differ: sim in a, udp in b");
}

TEST(CompareSweepJson, MalformedJsonIsRefusedWithItsPlace) {
  const std::string a = SweepJson("sim", {64}, {{1000}});
  for (const std::string bad :
       {std::string("{\"results\":[1,"), std::string("{\"results\":[\"\x01\"]}"), std::string("[]"),
        std::string(100, '[')}) {
    absl::StatusOr<std::string> out = CompareSweepJson(a, "a", bad, "b", OutputFormat::kTable);
    ASSERT_FALSE(out.ok()) << bad;
    EXPECT_TRUE(absl::StartsWith(out.status().message(), "b: ")) << out.status();
  }
}

}  // namespace
}  // namespace tickbench::harness
