// The study's check of the coarse-tick theory, with intervals on both sides (internal to
// the study_aggregate target; used by AggregateStudyRuns).
#ifndef HARNESS_STUDY_STUDY_THEORY_H_
#define HARNESS_STUDY_STUDY_THEORY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "harness/study/study_cell.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {

// Sets cell.prediction, observed, observed_intervals, observed_zero_share_ci, predicted and
// verdict from the undisturbed readings and the reference's durations of the same
// intervals, in time order, in independent groups of `groups` intervals each
// (timing::TickGroupSizes of the runs); cell.resolution_ns is T.
void SetTheoryFigures(const std::vector<double>& readings, const std::vector<double>& true_ns,
                      const std::vector<int64_t>& groups, double reference_resolution_ns,
                      StudyCell& cell);

// cell.predicted_bound_percent and its interval from cell.truth_ci.
void SetPredictedBound(StudyCell& cell);

// The theory's words for the plain-words line: the verdict, then each check's observed
// and predicted 95% intervals (share above n ticks, zero share, SD), rounded to them.
std::string TheoryWords(const StudyCell& cell);

}  // namespace tickbench::harness

#endif  // HARNESS_STUDY_STUDY_THEORY_H_
