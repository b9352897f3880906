// One size of a sweep summed up over its runs: the figure the table leads with, the JSON's
// "sizes" and the CSV's size_* columns, one estimator for all three.
//
// Promised:
//   * The averaged RTT is the pooled one: the runs' timed time over their timed round trips
//     (sum of averaged x timed_trips / sum of timed_trips), and the throughput is 2n bytes
//     over that same RTT (total bytes / total time), so that the two columns agree.
//   * Their 95% interval is on the log scale (timing::LogScaleInterval): from the standard
//     error across the valid runs (Student t on k - 1 degrees of freedom, the SD floored at
//     what runs that all read the same quantum T/N allow, timing::QuantizedSdFloor), or with
//     one run from the run's own batch means (their dependence accounted for by the
//     batching: RunRecord::per_iteration_mean_ci95) widened by the quantum. It never
//     reaches 0, and the throughput's is the RTT's carried through 2n/x exactly.
//   * `groups`: whether the runs' averaged figures fall into two groups (timing::
//     TestRunGroups, a test at 1%; named, with the groups' figures, never averaged away
//     silently).
//   * A size without a valid run has no estimate (NaN), never a number from a faulty run.
//   * Sizes in ascending order, each once.
// Not promised:
//   * Independence of runs measured back to back (a drift across them widens nothing).
#ifndef HARNESS_REPORT_SIZE_SUMMARY_H_
#define HARNESS_REPORT_SIZE_SUMMARY_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "harness/engine/run_record.h"
#include "timing/stats/confidence.h"
#include "timing/stats/run_groups.h"

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
  double quantum_ns = 0;  // the largest T/N of a valid run
  // The interval's half-width relative to the figure: f - 1 of the log-scale interval (the
  // "within +-P%" a precision target compares with); NaN without an interval.
  double relative_half_width = 0;
  timing::RunGroups groups;  // the runs' averaged figures tested for two groups
  // Why the sweep stopped adding runs of this size (RunRecord::size_stop of its last
  // record): "precise", "out of time", "groups", "run limit", or "" for a fixed count.
  std::string stop;
  bool unresolved = false;  // some valid run's T/N is over 10% of its RTT
  int64_t round_trips_to_resolve = 0;
};

// One size's summary from its records (all of one size_bytes).
SizeSummary SummarizeSize(absl::Span<const RunRecord* const> runs);
std::vector<SizeSummary> SummarizeSizes(const std::vector<RunRecord>& records);

// Up to +-20% an interval is printed as "± half-width" (its longer side; a log-scale
// interval's two sides then differ by under 20%); wider, as "×÷ f" (FactorText).
inline constexpr double kPlusMinusLimit = 0.2;
// "10.1 ± 0.3" or "1500 ×÷ 3.2": the figure at the digits its interval supports (the shorter
// side where ×÷), for headlines and notes; the figure alone at the quantum's digits without
// an interval.
std::string FigureWithInterval(const timing::ConfidenceInterval& ci, double quantum = 0);
// f of "×÷ f": one decimal below 10, none from 10.
std::string FactorText(double f);

// About how many valid runs like these would bring the size's interval within
// +-`target` (a fraction): k (ln(1 + relative_half_width) / ln(1 + target))^2, at least k; 0
// without an interval. An estimate (the t quantile shrinks too), for "what count would reach it".
int64_t RunsForPrecision(const SizeSummary& size, double target);

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
