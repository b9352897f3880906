#include "harness/page/page_headline.h"

#include "absl/strings/match.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A 1.3 ms round trip read by a 10 ms tick: 87% of single readings 0, the averaged figure
// within its bound of 10 us (0.77%), the theory's checks passing.
StudyCell CoarseCell() {
  StudyCell c;
  c.clock = "tick:10ms";
  c.size_bytes = 64;
  c.summary = "in words";
  c.resolution_ns = 10e6;
  c.truth_ns = c.averaged_ns = c.per_iteration_truth_ns = 1.3e6;
  c.single_reading_unresolved = true;
  c.per_iteration.zero_fraction = 0.87;
  c.averaged_bound_ns = 10e3;
  c.averaged_within_bound = true;
  c.prediction_applies = true;
  c.verdict.share_agrees = c.verdict.mean_agrees = c.verdict.sd_agrees = true;
  return c;
}

TEST(StudyHeadlineTest, SaysWhatSingleAndAveragedReadingsAreWorthInOneSentence) {
  EXPECT_EQ(StudyHeadline(CoarseCell()),
            "tick:10ms at 64 B: 87% of single round trips read 0 — per-iteration figures are "
            "useless; the averaged figure is within 0.77% of the truth; the readings agree with "
            "the tick theory.");
}

// Each verdict word follows the cell's own test, not a threshold of the headline's.
TEST(StudyHeadlineTest, EachVerdictComesFromTheCellsOwnTest) {
  StudyCell beyond = CoarseCell();
  beyond.averaged_within_bound = false;
  beyond.averaged_error_ns = 26e3;
  EXPECT_THAT(StudyHeadline(beyond), HasSubstr("off by 2.0%, BEYOND its bound of 0.77%"));

  StudyCell unresolved = CoarseCell();
  unresolved.averaged_unresolved = true;
  unresolved.averaged_bound_ns = 0.5e6;
  unresolved.round_trips_to_resolve = 769;
  EXPECT_THAT(StudyHeadline(unresolved),
              HasSubstr("the averaged figure is unresolved (T/N is 38% of the round trip; about "
                        "769 round trips would resolve it to 1%)"));

  StudyCell disagrees = CoarseCell();
  disagrees.verdict.sd_agrees = false;
  EXPECT_THAT(StudyHeadline(disagrees), HasSubstr("DISAGREE with the tick theory"));

  StudyCell fine = CoarseCell();
  fine.clock = "virtual";
  fine.single_reading_unresolved = false;
  fine.prediction_applies = false;
  EXPECT_THAT(StudyHeadline(fine), HasSubstr("single round trips resolve the round trip"));
  EXPECT_THAT(StudyHeadline(fine), Not(HasSubstr("useless")));
  EXPECT_THAT(StudyHeadline(fine), Not(HasSubstr("theory")));

  StudyCell biased = fine;
  biased.biased = true;
  biased.bias_ci.estimate = 13e3;
  EXPECT_THAT(StudyHeadline(biased), HasSubstr("biased (their mean is off by 1.0% of the truth)"));

  // A bias no larger than one read of the clock: the order of the paired reads.
  StudyCell order = biased;
  order.read_cost_ns = 30;
  order.bias_ci.estimate = 21;
  order.bias_test_ci.estimate = 21;
  order.bias_test_ci.low = 12;
  order.bias_test_ci.high = 29;
  order.bias_test_ci.valid = true;
  EXPECT_THAT(StudyHeadline(order),
              HasSubstr("their mean is off by 0.0016%, within one read of the clock (30 ns)"));
  // No exponent in a small share.
  StudyCell tight = fine;
  tight.averaged_bound_ns = 1.26;
  EXPECT_THAT(StudyHeadline(tight), HasSubstr("within 0.000097% of the truth"));
  tight.averaged_bound_ns = 0.12999;  // 9.9992e-6 %: two digits, not 0.0000100
  EXPECT_THAT(StudyHeadline(tight), HasSubstr("within 0.000010% of the truth"));

  StudyCell failed = CoarseCell();
  failed.summary.clear();
  failed.error = "run 1: peer gone";
  EXPECT_EQ(StudyHeadline(failed), "tick:10ms at 64 B: no figure (run 1: peer gone).");
}

std::vector<RunRecord> Records(double rtt_32, double rtt_4096) {
  std::vector<RunRecord> records;
  for (int run = 0; run < 3; ++run) {
    for (const auto& [size, rtt] : {std::pair<size_t, double>{32, rtt_32}, {4096, rtt_4096}}) {
      RunRecord r;
      r.size_bytes = size;
      r.timed_trips = 1000;
      r.averaged_rtt_ns = rtt + 10 * run;  // 95% interval: 10 +- t(0.975, 2) 10 / sqrt(3)
      r.throughput_bytes_per_s = 2e9 * size / r.averaged_rtt_ns;
      records.push_back(r);
    }
  }
  return records;
}

TEST(SweepHeadlineTest, LeadsWithTheTablesLeadFigureAtTheFirstAndLastSize) {
  const std::vector<RunRecord> records = Records(20000, 40000);
  EXPECT_EQ(SweepHeadline(records, TableStyle::kRttMicros),
            "Averaged round trip from 20.010 ± 0.025 us at 32 B to 40.010 ± 0.025 us at 4096 B "
            "(timed over the whole loop; 95% intervals across runs).");
  // 2 x 32 bytes over the pooled 20.01 us, as the RTT column reads.
  const std::string throughput = SweepHeadline(records, TableStyle::kThroughput);
  EXPECT_TRUE(absl::StartsWith(throughput, "Throughput from 3198.4 ± 4.0 KB/s at 32 B to "))
      << throughput;
  EXPECT_THAT(throughput, HasSubstr("KB/s at 4096 B"));
}

// The headline's figure is the table's lead figure, digits and interval alike (it was 2n
// over the mean RTT, 1420 ± 890 KB/s, where the table's mean of the runs' throughputs read
// 1600 ± 1100).
TEST(SweepHeadlineTest, TheFigureIsTheTablesLeadFigure) {
  std::vector<RunRecord> records;
  for (double rtt : {20e3, 35e3, 90e3, 28e3}) {
    RunRecord r;
    r.size_bytes = 32;
    r.timed_trips = 1000;
    r.averaged_rtt_ns = rtt;
    r.throughput_bytes_per_s = 2e9 * 32 / rtt;
    records.push_back(r);
  }
  for (const TableStyle style : {TableStyle::kThroughput, TableStyle::kRttMicros}) {
    const std::string headline = SweepHeadline(records, style);
    const size_t at = headline.find(style == TableStyle::kThroughput ? "Throughput " : "trip ");
    const size_t from = headline.find(' ', at) + 1;
    const std::string figure = headline.substr(from, headline.find(" at 32 B") - from);
    std::string table = FormatTable(records, style);
    // The table's "1600 ± 1100" sits in two padded cells.
    absl::StrReplaceAll({{"   ", " "}, {"  ", " "}}, &table);
    const std::string number = figure.substr(0, figure.rfind(' '));
    EXPECT_THAT(table, HasSubstr(number)) << headline << "\n" << table;
  }
  // Every size unresolved: no figure in the headline, only what would resolve them.
  std::vector<RunRecord> unresolved = Records(20000, 40000);
  for (RunRecord& r : unresolved) {
    r.averaged_unresolved = true;
    r.round_trips_to_resolve = 100000;
  }
  EXPECT_EQ(SweepHeadline(unresolved, TableStyle::kRttMicros),
            "All 2 sizes are UNRESOLVED by the clock: T/N is over 10% of the round trip; about "
            "100000 round trips would resolve them to 1%.");
  for (RunRecord& r : unresolved) r.averaged_unresolved = r.size_bytes == 32;
  EXPECT_THAT(SweepHeadline(unresolved, TableStyle::kRttMicros),
              HasSubstr("; 1 of 2 sizes UNRESOLVED by the clock."));
  EXPECT_EQ(SweepHeadline({}, TableStyle::kRttMicros),
            "Nothing was measured: no size has a figure.");
}

}  // namespace
}  // namespace tickbench::harness
