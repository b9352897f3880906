// A study cell's figures from its runs, and their plain words: what one run of one clock at
// one size measured (StudyRunData, from RunStudy or made up by a test) aggregated into the
// cell's figures, intervals and verdicts (AggregateStudyRuns; the coarse-tick theory's check
// is study_theory.h's) and said in plain words (SummarizeCell). Arithmetic only: no
// transport, no clock.
#ifndef HARNESS_STUDY_STUDY_AGGREGATE_H_
#define HARNESS_STUDY_STUDY_AGGREGATE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "harness/study/study_cell.h"

namespace tickbench::harness {

// After a stop request (SIGINT, SIGTERM) a cell's runs are aggregated only when they hold
// at most this many readings (about 2 us of work each); larger ones, and any whose
// aggregation a stop interrupts, are left without figures, saying so.
inline constexpr int64_t kReadingsAggregatedAfterAStop = 100'000;

// What one run of one clock at one size measured (exposed so that tests can aggregate
// simulated runs without a transport).
struct StudyRunData {
  // Averaged pass: the pairs read just before and just after the loop, in ns (reference
  // ns for before/after, clock ns for clock).
  double start_before_ns = 0, start_clock_ns = 0, start_after_ns = 0;
  double stop_before_ns = 0, stop_clock_ns = 0, stop_after_ns = 0;
  double end_before_ns = 0, end_clock_ns = 0, end_after_ns = 0;  // after the last pass
  int64_t iterations = 0;
  // Reference time per round trip in interleaved blocks without and with a clock read
  // per round trip (plain block b is paired with probed block b).
  std::vector<double> plain_block_ns, probed_block_ns;
  double loop_period_ns = 0;  // reference time per per-iteration round trip, pauses included
  std::vector<double> readings_ns, true_ns, phases;  // per-iteration pass, in time order
};

// Fills the figures, intervals and verdicts of `cell` (whose clock, size, iterations and
// resolution_ns are set) from its runs; then SummarizeCell gives the plain words.
void AggregateStudyRuns(const std::vector<StudyRunData>& runs, double reference_resolution_ns,
                        StudyCell& cell);

// The plain-words line of a cell (exposed for tests).
std::string SummarizeCell(const StudyCell& cell);

}  // namespace tickbench::harness

#endif  // HARNESS_STUDY_STUDY_AGGREGATE_H_
