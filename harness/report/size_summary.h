// One size of a sweep summed up over its runs, for the JSON's "sizes" and the CSV's size_*
// columns: the averaged RTT and throughput with their 95% intervals across runs, as the
// table shows them, and the size's losses and retries.
//
// Promised:
//   * The intervals are the table's: Student t across the valid runs, the SD floored at
//     what runs that all read the same quantum T/N allow (timing::QuantizedSdFloor); the
//     throughput's quantum is the RTT's carried through 2n/RTT to first order. One valid
//     run has an estimate and no interval (ConfidenceInterval::valid false). The lower end
//     is clipped at 0: neither figure can be negative.
//   * A size without a valid run has no estimate (NaN), never a number from a faulty run.
//   * Sizes in ascending order, each once.
// Not promised:
//   * Independence of runs measured back to back (a drift across them widens nothing).
#ifndef HARNESS_REPORT_SIZE_SUMMARY_H_
#define HARNESS_REPORT_SIZE_SUMMARY_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/engine/run_record.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {

struct SizeSummary {
  size_t size_bytes = 0;
  int runs = 0;          // records of this size (retries included)
  int valid_runs = 0;    // with a figure
  int retried_runs = 0;  // measured again (attempt > 1)
  int64_t timed_trips = 0;
  int64_t lost = 0;
  double loss_rate = 0;  // lost / completed round trips, NaN without any
  timing::ConfidenceInterval averaged_rtt_ns;
  timing::ConfidenceInterval throughput_bytes_per_s;
  bool unresolved = false;  // some valid run's T/N is over 10% of its RTT
  int64_t round_trips_to_resolve = 0;
};

std::vector<SizeSummary> SummarizeSizes(const std::vector<RunRecord>& records);

// The measured clock's rate against the reference over the runs: each valid run with a
// reference gives 1e6 (averaged / reference averaged - 1) ppm over the same timed round
// trips. Promised: the mean over those runs with its 95% interval across them (Student t,
// the SD floored at the quantization bound; no interval for one run), and the bound itself:
// the largest 1e6 quantum_ns / reference averaged of a run, what the measured clock's T/N
// alone allows. Not promised: the reference's own resolution and the skew between the two
// clocks' reads of a pair, which a sweep does not measure (the study does): a rate inside
// [-bound, +bound] says nothing of a rate difference.
struct RateSummary {
  int runs = 0;  // valid runs with a reference
  timing::ConfidenceInterval ppm;
  double bound_ppm = 0;
};
RateSummary SummarizeRate(const std::vector<RunRecord>& records);

}  // namespace tickbench::harness

#endif  // HARNESS_REPORT_SIZE_SUMMARY_H_
