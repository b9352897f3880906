#include "harness/report/readings/run_readings.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;

// A valid run whose intervals read `ticks` (one round trip each), none faulty.
RunRecord RunOf(size_t size, int run, const std::vector<int64_t>& ticks) {
  RunRecord r;
  r.size_bytes = size;
  r.run = run;
  r.clock_marks.push_back(1000);
  for (int64_t t : ticks) r.clock_marks.push_back(r.clock_marks.back() + t);
  r.faulty_intervals.assign(ticks.size(), 0);
  r.timed_trips = static_cast<int64_t>(ticks.size());
  return r;
}

TEST(RunReadingsTest, ReadingsArePerRoundTripInNanosWithFaultsMarked) {
  RunRecord r;
  r.batch = 2;
  r.nanos_per_tick = 0.5;
  r.reference_nanos_per_tick = 1;
  r.clock_marks = {0, 40, 80, 100};
  r.reference_marks = {0, 42, 84, 106};
  r.faulty_intervals = {0, 1, 0};
  r.timed_trips = 3;  // 2 + the last interval's 1
  r.excluded_trips = 2;
  std::vector<Reading> seen;
  ForEachReading(r, [&seen](const Reading& reading) { seen.push_back(reading); });
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_DOUBLE_EQ(seen[0].measured_ns, 10);  // 40 ticks x 0.5 ns / 2 trips
  EXPECT_DOUBLE_EQ(seen[0].reference_ns, 21);
  EXPECT_TRUE(seen[0].valid);
  EXPECT_FALSE(seen[1].valid);
  EXPECT_EQ(seen[2].index, 2);
  EXPECT_DOUBLE_EQ(seen[2].measured_ns, 10);  // the last interval holds 1 trip
  EXPECT_DOUBLE_EQ(seen[2].reference_ns, 22);
}

TEST(RunReadingsTest, WithoutReferenceTheReferenceIsNaN) {
  std::vector<Reading> seen;
  ForEachReading(RunOf(64, 1, {5}), [&seen](const Reading& reading) { seen.push_back(reading); });
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_TRUE(std::isnan(seen[0].reference_ns));
}

TEST(RunReadingsTest, PercentilesArePooledNotMeansOfRuns) {
  std::vector<RunRecord> records = {RunOf(64, 1, {1, 2, 3}), RunOf(64, 2, {10, 20, 30, 40, 50}),
                                    RunOf(128, 1, {7})};
  RunRecord invalid = RunOf(64, 3, {1000});
  invalid.faulty_intervals = {1};
  invalid.timed_trips = 0;
  invalid.excluded_trips = 1;
  records.push_back(invalid);
  RunRecord chunked = RunOf(64, 4, {});
  chunked.clock_marks.clear();
  chunked.faulty_intervals.clear();
  chunked.timed_trips = 5;
  records.push_back(chunked);
  const std::vector<PooledPercentiles> pooled = PoolPercentiles(records, {50, 99.9});
  ASSERT_EQ(pooled.size(), 2u);
  EXPECT_EQ(pooled[0].size_bytes, 64u);
  EXPECT_EQ(pooled[0].runs, 2);
  EXPECT_EQ(pooled[0].runs_not_kept, 1);
  EXPECT_EQ(pooled[0].readings, 8);
  // {1, 2, 3, 10, 20, 30, 40, 50}: type 7 at 3.5 is 15 (the mean of the medians is 16).
  ASSERT_EQ(pooled[0].values.size(), 2u);
  EXPECT_DOUBLE_EQ(pooled[0].values[0].estimate, 15);
  EXPECT_LE(pooled[0].values[0].low, 15);
  EXPECT_GE(pooled[0].values[0].high, 15);
  EXPECT_NEAR(pooled[0].values[1].estimate, 50 - 0.001 * 7 * 10, 1e-9);
  EXPECT_EQ(pooled[1].readings, 1);
  EXPECT_DOUBLE_EQ(pooled[1].values[0].estimate, 7);
}

TEST(RunReadingsTest, ParsesPercentilesAndRefusesBadOnes) {
  absl::StatusOr<std::vector<double>> ok = ParsePercentiles("50, 90,99,99.9");
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(*ok, (std::vector<double>{50, 90, 99, 99.9}));
  for (const char* bad :
       {"0", "100", "-1", "abc", "50,,90", "", "50,50", "nan", "1,2,3,4,5,6,7,8,9,10,11,12,13"}) {
    absl::StatusOr<std::vector<double>> parsed = ParsePercentiles(bad);
    EXPECT_FALSE(parsed.ok()) << bad;
    EXPECT_THAT(parsed.status().message(), HasSubstr("allowed")) << bad;
  }
  EXPECT_TRUE(ParsePercentiles("1,2,3,4,5,6,7,8,9,10,11,12").ok());
  EXPECT_THAT(ParsePercentiles("9\x1b").status().message(), HasSubstr("9\\x1b"));
}

TEST(RunReadingsTest, PercentileNames) {
  EXPECT_EQ(PercentileName(50), "p50");
  EXPECT_EQ(PercentileName(99.9), "p99_9");
  EXPECT_EQ(PercentileName(0.5), "p0_5");
  EXPECT_EQ(PooledCsvHeader({99.9}), ",p99_9_ns,p99_9_ns_ci95_low,p99_9_ns_ci95_high");
}

TEST(RunReadingsTest, RawCsvHasEveryReadingOfEveryRecord) {
  RunRecord r = RunOf(64, 2, {3, 4});
  r.faulty_intervals[1] = 1;
  r.timed_trips = 1;
  r.excluded_trips = 1;
  r.attempt = 2;
  const std::string csv = FormatRawCsv({RunOf(32, 1, {5}), r});
  EXPECT_EQ(csv,
            "size_bytes,run,index,measured_ns,reference_ns,valid,attempt\n"
            "32,1,0,5,,1,1\n"
            "64,2,0,3,,1,2\n"
            "64,2,1,4,,0,2\n");
}

}  // namespace
}  // namespace tickbench::harness
