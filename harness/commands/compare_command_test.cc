#include "harness/commands/compare_command.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analysis/sweep.h"
#include "gtest/gtest.h"
#include "harness/commands/compare_ratio.h"
#include "harness/output/build_info.h"
#include "transport/registry/transport_registry.h"

namespace tickbench::harness {
namespace {

// A sweep's JSON as tickbench writes it (the fields compare reads), one record per value:
// run r of size s has averaged RTT values[s][r], and per-iteration mean that times
// `per_iteration_scale` (1: the same, as a sweep's runs have).
std::string SweepJson(const std::string& transport, const std::vector<int>& sizes,
                      const std::vector<std::vector<double>>& values,
                      double per_iteration_scale = 1) {
  std::vector<std::string> records;
  for (size_t s = 0; s < sizes.size(); ++s) {
    for (size_t r = 0; r < values[s].size(); ++r) {
      records.push_back(absl::StrFormat(
          "{\"transport\":\"%s\",\"clock\":\"virtual\",\"size_bytes\":%d,\"run\":%d,"
          "\"valid\":true,\"averaged\":{\"rtt_ns\":%.17g,\"resolution_ns\":1,\"quantum_ns\":0.005},"
          "\"per_iteration\":{\"mean_ns\":%.17g,\"intervals\":200,\"note\":\"a \\\"quoted\\\" "
          "\\u0041\"}}",
          transport, sizes[s], r + 1, values[s][r], values[s][r] * per_iteration_scale));
    }
  }
  return absl::StrCat("{\"schema_version\":", kSchemaVersion,
                      ",\"mode\":\"sweep\",\"context\":{\"flags\":{}},\"results\":[",
                      absl::StrJoin(records, ","), "]}");
}

// `json` with the first `from` replaced by `to`.
std::string With(std::string json, const std::string& from, const std::string& to) {
  const size_t at = json.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? json : json.replace(at, from.size(), to);
}

// The message of comparing `bad` (as b.json) with a good sweep, which must be refused.
std::string Refusal(const std::string& bad) {
  const std::string good = SweepJson("sim", {64}, {{1000, 1010}});
  const absl::StatusOr<std::string> out =
      CompareSweepJson(good, "a.json", bad, "b.json", OutputFormat::kJson);
  EXPECT_FALSE(out.ok()) << *out;
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(out.status().message());
}

TEST(CompareSweepJson, TenPercentSlowerIsCalledWithAnIntervalThatExcludesOne) {
  const std::string a = SweepJson("sim", {64}, {{1000, 1010, 990, 1005}});
  const std::string b = SweepJson("sim", {64}, {{1100, 1111, 1089, 1105}});
  absl::StatusOr<std::string> json =
      CompareSweepJson(a, "a.json", b, "b.json", OutputFormat::kJson);
  ASSERT_TRUE(json.ok()) << json.status();
  // 1101.25 / 1001.25; the runs' SDs 9.4 and 8.5 over sqrt(4), Welch df 6.0, t = 2.45:
  // exp(log 1.09988 -+ 2.45 * 0.00603).
  EXPECT_TRUE(absl::StrContains(*json, "\"ratio\":1.0998751560549314,\"low\":1.0838")) << *json;
  EXPECT_TRUE(absl::StrContains(*json, "\"high\":1.1161")) << *json;
  EXPECT_TRUE(absl::StrContains(*json, "B slower by 10.0%")) << *json;
  absl::StatusOr<std::string> table =
      CompareSweepJson(a, "a.json", b, "b.json", OutputFormat::kTable);
  ASSERT_TRUE(table.ok());
  EXPECT_TRUE(absl::StrContains(*table, "B slower by 10.0% [8.4, 11.6], p < 0.0001")) << *table;
  EXPECT_TRUE(absl::StrContains(*table, "delta method")) << *table;
}

// Issue 32: 1234567 vs 1234599 ns printed "B slower by 0.0% [0.0, 0.0], p < 0.05" and the
// CSV "1.23457e+06"; the change is shown at the digits its interval supports, with its
// p-value in a column and in words, and every CSV and JSON number is exact.
TEST(CompareSweepJson, ASmallEffectIsShownWithItsDigitsItsPValueAndExactNumbers) {
  const std::string a = SweepJson("sim", {64}, {{1234567, 1234567.5, 1234566.5}});
  const std::string b = SweepJson("sim", {64}, {{1234599, 1234599.5, 1234598.5}});
  absl::StatusOr<std::string> table = CompareSweepJson(a, "a", b, "b", OutputFormat::kTable);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_FALSE(absl::StrContains(*table, "0.0% [0.0, 0.0]")) << *table;
  // 32 / 1234567 = 0.002592%, +- 2.78 (t on Welch's 4 df) x 0.5 ns / sqrt(3) x sqrt(2) /
  // 1234567 = 0.000092%: two significant digits of that, 6 decimals.
  EXPECT_TRUE(
      absl::StrContains(*table, "averaged: B slower by 0.002592% [0.002500, 0.002684], p < 0.0001"))
      << *table;
  EXPECT_TRUE(absl::StrContains(
      *table, "1234.5670  1234.5990  1.00002592 [1.00002500, 1.00002684]  <0.0001\n"))
      << *table;
  EXPECT_TRUE(absl::StrContains(*table, "averaged B/A [95%]                         p\n"))
      << *table;
  absl::StatusOr<std::string> csv = CompareSweepJson(a, "a", b, "b", OutputFormat::kCsv);
  ASSERT_TRUE(csv.ok());
  EXPECT_TRUE(absl::StrContains(*csv, "\n64,1234567,1234599,1.0000259200189217,")) << *csv;
  EXPECT_FALSE(absl::StrContains(*csv, "e+06")) << *csv;
  absl::StatusOr<std::string> json = CompareSweepJson(a, "a", b, "b", OutputFormat::kJson);
  ASSERT_TRUE(json.ok());
  EXPECT_TRUE(absl::StrContains(*json, "\"a_ns\":1234567,\"b_ns\":1234599,")) << *json;
}

// A sweep's per-iteration mean is its averaged RTT (the same readings summed): the table
// no longer repeats the averaged half; where they differ, both halves are shown.
TEST(CompareSweepJson, ThePerIterationHalfIsShownOnlyWhereItDiffersFromTheAveragedHalf) {
  const std::vector<std::vector<double>> a_runs = {{1000, 1010, 990}},
                                         b_runs = {{1100, 1111, 1089}};
  absl::StatusOr<std::string> same =
      CompareSweepJson(SweepJson("sim", {64}, a_runs), "a", SweepJson("sim", {64}, b_runs), "b",
                       OutputFormat::kTable);
  ASSERT_TRUE(same.ok());
  EXPECT_FALSE(absl::StrContains(*same, "per-iteration:")) << *same;
  EXPECT_FALSE(absl::StrContains(*same, "it A us")) << *same;
  EXPECT_TRUE(absl::StrContains(*same, "shown once")) << *same;
  absl::StatusOr<std::string> csv = CompareSweepJson(
      SweepJson("sim", {64}, a_runs), "a", SweepJson("sim", {64}, b_runs), "b", OutputFormat::kCsv);
  ASSERT_TRUE(csv.ok());
  EXPECT_TRUE(absl::EndsWith(*csv, ",1\n")) << *csv;  // per_iteration_as_averaged
  absl::StatusOr<std::string> differ =
      CompareSweepJson(SweepJson("sim", {64}, a_runs, 0.9), "a",
                       SweepJson("sim", {64}, b_runs, 0.9), "b", OutputFormat::kTable);
  ASSERT_TRUE(differ.ok());
  EXPECT_TRUE(absl::StrContains(*differ, "per-iteration: B slower by")) << *differ;
  EXPECT_TRUE(absl::StrContains(*differ, "it A us")) << *differ;
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
  for (const std::string& bad :
       {std::string("{\"results\":[1,"), std::string("{\"results\":[\"\x01\"]}"), std::string("[]"),
        std::string(100, '[')}) {
    absl::StatusOr<std::string> out = CompareSweepJson(a, "a", bad, "b", OutputFormat::kTable);
    ASSERT_FALSE(out.ok()) << bad;
    EXPECT_TRUE(absl::StartsWith(out.status().message(), "b: ")) << out.status();
  }
}

// One run a side has no spread to test against: the ratio is given, but no interval, no
// p-value and no verdict ("B faster by 15.8% [15.8, 15.8], p < 0.05" before, from nothing).
TEST(CompareSweepJson, OneRunASideGetsNoIntervalNoPValueAndNoVerdict) {
  const std::string one = SweepJson("sim", {64}, {{1000}});
  const std::string many = SweepJson("sim", {64}, {{842, 850, 838, 845}});
  for (const auto& [a, b, runs_a, runs_b] :
       {std::make_tuple(one, SweepJson("sim", {64}, {{842}}), 1, 1),
        std::make_tuple(one, many, 1, 4), std::make_tuple(many, one, 4, 1)}) {
    absl::StatusOr<std::string> json = CompareSweepJson(a, "a", b, "b", OutputFormat::kJson);
    ASSERT_TRUE(json.ok()) << json.status();
    EXPECT_TRUE(absl::StrContains(*json, "\"low\":null,\"high\":null,\"p_value\":null,")) << *json;
    EXPECT_TRUE(absl::StrContains(
        *json, absl::StrFormat("\"runs_a\":%d,\"runs_b\":%d,\"verdict\":\"no test: %s has 1 "
                               "run; the t test needs 2 or more on each side\"",
                               runs_a, runs_b, runs_a == 1 ? "A" : "B")))
        << *json;
    absl::StatusOr<std::string> table = CompareSweepJson(a, "a", b, "b", OutputFormat::kTable);
    ASSERT_TRUE(table.ok());
    EXPECT_FALSE(absl::StrContains(*table, "p < 0.05")) << *table;
    EXPECT_FALSE(absl::StrContains(*table, "faster")) << *table;
    absl::StatusOr<std::string> csv = CompareSweepJson(a, "a", b, "b", OutputFormat::kCsv);
    ASSERT_TRUE(csv.ok());
    EXPECT_TRUE(absl::StrContains(*csv, ",,,no test: ")) << *csv;  // no low, high, p-value
  }
  // The ratio itself is still given: 842 / 1000.
  absl::StatusOr<std::string> json =
      CompareSweepJson(one, "a", SweepJson("sim", {64}, {{842}}), "b", OutputFormat::kJson);
  ASSERT_TRUE(json.ok());
  EXPECT_TRUE(absl::StrContains(*json, "\"valid\":true,\"ratio\":0.842,")) << *json;
}

// Durations at the ends of the range: a spread of 1e17 times the mean has no finite
// interval, so no test; the ratio of 1e40 is printed short, never as 41 digits or "inf".
TEST(CompareSweepJson, AnIntervalTooWideToComputeIsNoTestAndAHugeRatioPrintsShort) {
  const std::string a = SweepJson("sim", {64}, {{1e-20, 1e-20}});
  const std::string b = SweepJson("sim", {64}, {{1e20, 1e20}});
  absl::StatusOr<std::string> table = CompareSweepJson(a, "a", b, "b", OutputFormat::kTable);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_TRUE(absl::StrContains(*table, "    1e+17  1e+40  ")) << *table;
  EXPECT_TRUE(
      absl::StrContains(*table, "averaged: no test: the runs spread too widely for an interval"))
      << *table;
  EXPECT_FALSE(absl::StrContains(*table, "inf")) << *table;
  absl::StatusOr<std::string> json = CompareSweepJson(a, "a", b, "b", OutputFormat::kJson);
  ASSERT_TRUE(json.ok());
  EXPECT_TRUE(absl::StrContains(*json, "\"ratio\":1e+40,\"low\":null,\"high\":null,")) << *json;
}

// Found by the compare fuzzer: A's runs 1e-20 ns with no quantum, B's 1e20 ns with a 0.005 ns
// one. The spread is 1e-23 of the ratio, and exp(log(1e40) +- that) rounded
// to 1.0000000000000016e40 at both ends: an interval that did not hold its own ratio.
TEST(CompareRatio, TheIntervalHoldsTheRatioWhereTheSpreadIsBelowARounding) {
  const Ratio r = RatioOf({1e-20, 1e-20}, 0, {1e20, 1e20}, 0.005);
  ASSERT_TRUE(r.tested);
  EXPECT_LE(r.low, r.estimate);
  EXPECT_GE(r.high, r.estimate);
  EXPECT_EQ(r.estimate, 1e40);
}

// The file's strings are written as every JSON string is (JsonQuote): C0, DEL, a C1 control
// and a bidirectional override read from a file are escaped, never written raw.
TEST(CompareSweepJson, JsonEscapesEveryControlOfANameDelC1AndBidiToo) {
  const std::string a = SweepJson("s\\u001b\\u007f\\u009b\\u202e", {64}, {{1000, 1010}});
  absl::StatusOr<std::string> json = CompareSweepJson(a, "a", a, "b", OutputFormat::kJson);
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_TRUE(absl::StrContains(*json, "\"transport\":\"s\\u001b\\u007f\\u009b\\u202e\"")) << *json;
  for (const char* raw : {"\x7f", "\xc2\x9b", "\xe2\x80\xae"}) {
    EXPECT_FALSE(absl::StrContains(*json, raw)) << *json;
  }
}

TEST(CompareSweepJson, RefusesADurationThatIsNotAFiniteNumberOfNanosecondsNamingIt) {
  const std::string good = SweepJson("sim", {64}, {{1000, 1010}});
  const std::string range = ": a duration is 0 or a magnitude from 1e-20 to 1e+20 ns";
  struct Case {
    std::string from, to, message;
  };
  for (const Case& c : std::vector<Case>{
           {"\"rtt_ns\":1000", "\"rtt_ns\":\"fast\"", "[0]: averaged.rtt_ns is not a number"},
           {"\"rtt_ns\":1010", "\"rtt_ns\":1e308", "[1]: averaged.rtt_ns is 1e+308" + range},
           {"\"mean_ns\":1000", "\"mean_ns\":-5", "[0]: per_iteration.mean_ns is -5" + range},
           {"\"rtt_ns\":1000,", "", "[0]: averaged.rtt_ns is missing"},
           {"\"quantum_ns\":0.005", "\"quantum_ns\":1e300",
            "[0]: averaged.quantum_ns is 1e+300" + range},
           {"\"intervals\":200", "\"intervals\":2.5",
            "[0]: per_iteration.intervals is 2.5, not a whole number >= 0"},
           {"\"valid\":true", "\"valid\":\"yes\"", "[0]: valid is not true or false"},
       }) {
    EXPECT_EQ(Refusal(With(good, c.from, c.to)), "b.json: results" + c.message);
  }
}

TEST(CompareSweepJson, RefusesASizeThatIsNotAWholeNumberOfBytesTheTransportsTake) {
  const std::string good = SweepJson("sim", {64}, {{1000, 1010}});
  for (const std::string size : {"1e300", "64.5", "0", "-64", "16777217", "\"64\""}) {
    const std::string message = Refusal(With(good, "\"size_bytes\":64", "\"size_bytes\":" + size));
    EXPECT_TRUE(absl::StartsWith(message, "b.json: results[0]: size_bytes ")) << message;
    EXPECT_TRUE(absl::StrContains(message,
                                  "not a whole number from 1 to 16777216 bytes (the "
                                  "transports' largest message)"))
        << message;
  }
  // The size given is echoed exactly, not as %g's 1.67772e+07.
  EXPECT_TRUE(absl::StrContains(Refusal(With(good, "\"size_bytes\":64", "\"size_bytes\":16777217")),
                                "size_bytes 16777217 is"));
}

// The sizes it takes end where the transports' messages do: the largest any row takes.
TEST(CompareSweepJson, TheLargestSizeIsTheTransportsLargestMessage) {
  size_t largest = 0;
  for (const transport::TransportInfo& row : transport::RegisteredTransports()) {
    largest = std::max(largest, row.max_message_bytes);
  }
  EXPECT_EQ(static_cast<double>(largest), analysis::kMaxSweepSizeBytes);
}

TEST(CompareSweepJson, RefusesASchemaVersionItDoesNotKnow) {
  const std::string good = SweepJson("sim", {64}, {{1000, 1010}});
  const std::string version = absl::StrCat("\"schema_version\":", kSchemaVersion);
  EXPECT_EQ(Refusal(With(good, version, "\"schema_version\":99")),
            absl::StrCat("b.json: schema_version 99 is not one this tickbench reads (",
                         kSchemaVersion, ")"));
  EXPECT_EQ(Refusal(With(good, version + ",", "")),
            absl::StrCat("b.json: no schema_version (a sweep's --format=json results have ",
                         kSchemaVersion, ")"));
}

// Issue 46, case 8: a single run without averaged.quantum_ns had no interval, so its figure
// became 0 and the ratio "no figure"; its figure is its value.
TEST(CompareSweepJson, ASingleRunWithoutAQuantumKeepsItsFigure) {
  const std::string a = With(SweepJson("sim", {64}, {{1000}}), ",\"quantum_ns\":0.005", "");
  const std::string b = With(SweepJson("sim", {64}, {{1100}}), ",\"quantum_ns\":0.005", "");
  const absl::StatusOr<std::string> json = CompareSweepJson(a, "a", b, "b", OutputFormat::kJson);
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_TRUE(absl::StrContains(*json, "\"a_ns\":1000,\"b_ns\":1100,\"valid\":true,\"ratio\":1.1,"))
      << *json;
  EXPECT_FALSE(absl::StrContains(*json, "no figure")) << *json;
}

// Issue 46, case 8: a size mismatch listed every size (300,000 sizes: one 2 MB line); more
// than 10,000 sizes is refused.
TEST(CompareSweepJson, ASizeMismatchIsOneShortLineAndTooManySizesAreRefused) {
  std::vector<int> sizes_a, sizes_b;
  std::vector<std::vector<double>> values;
  for (int i = 1; i <= 5000; ++i) {
    sizes_a.push_back(2 * i);
    sizes_b.push_back(2 * i + 1);
    values.push_back({1000});
  }
  absl::StatusOr<std::string> out =
      CompareSweepJson(SweepJson("sim", sizes_a, values), "a", SweepJson("sim", sizes_b, values),
                       "b", OutputFormat::kTable);
  ASSERT_FALSE(out.ok());
  EXPECT_LT(out.status().message().size(), 400u) << out.status();
  EXPECT_TRUE(absl::StrContains(out.status().message(), ",40,... (4980 more); only in b: 3,5,"))
      << out.status();
  std::vector<int> many;
  for (int i = 1; i <= 10001; ++i) many.push_back(i);
  values.resize(many.size(), {1000});
  out = CompareSweepJson(SweepJson("sim", many, values), "a", SweepJson("sim", many, values), "b",
                         OutputFormat::kTable);
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(absl::StrContains(out.status().message(), "a: results[10000]: more than 10000 sizes"))
      << out.status();
}

}  // namespace
}  // namespace tickbench::harness
