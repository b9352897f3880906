// Intervals of the coarse-tick theory's figures — the share of readings above n ticks, the
// share of 0-tick readings and the SD of one reading — on both sides of the theory's check:
// observed from the readings, predicted from the reference's durations of the same
// intervals (timing/theory/tick_theory.h has the figures themselves).
//
// Why groups. Readings are not independent: back-to-back readings tile time, so a reading
// that rounds up is followed by one that rounds down and a run's share errs by about one
// reading, not by sqrt(N) of them; a slowly moving phase does the opposite. An interval
// that treats readings as independent (Clopper–Pearson, a chi-square on N − 1) is then many
// times too wide, or too narrow. Every interval here comes from independent groups of
// intervals instead: the study's runs, each with its own tick phase (a run is split into
// contiguous parts until there are at least kMinTickGroups groups). The figure is the
// pooled one; its standard error is the SD of the groups' figures over sqrt(groups),
// Student t on groups − 1 degrees of freedom. Whatever the readings do inside a group
// stays inside it.
//
// Promised:
//  * observed: where every group reads the same figure, their SD is taken as what their
//    quantization allows (timing::QuantizedSdFloor of one reading's share, 1 / the smallest
//    group, and of the SD's step when one reading moves by a tick), so that groups that
//    happen to agree do not make a point of the interval;
//  * shares of rare events (fewer than 20 readings, or for a prediction from durations that
//    vary an expected count under 20 — none included —, on the rarer side): the interval
//    also holds the exact binomial interval of that count, where a t interval over a few
//    nonzero groups is too narrow;
//  * predicted: the figures are functions of the durations, each group's computed from its
//    own; the interval also holds the figures with every duration moved by the reference's
//    resolution either way (what the reference cannot tell);
//  * the observed SD where some tick counts are rare (a 2-tick reading in thousands): the
//    interval also holds the SD with their shares at the ends of their exact binomial
//    intervals, and a count not read but within the durations' reach (ceil(d / T)) as a
//    count of 0;
//  * shares are clipped to [0, 1], SDs at 0 from below.
// Not promised: coverage with fewer than kMinTickGroups groups of a handful of readings
// each; nor independence of groups that share a tick phase (runs without rephasing on a
// clock whose phase stays locked to the loop: that is what the phase test is for).
#ifndef TIMING_TICK_INTERVALS_H_
#define TIMING_TICK_INTERVALS_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "timing/stats/confidence.h"

namespace tickbench::timing {

inline constexpr int kMinTickGroups = 4;

// The theory's figures of one set of intervals.
struct TickFigures {
  double share = 0;       // of readings above n ticks
  double zero_share = 0;  // of 0-tick readings
  double sd_ns = 0;       // of one reading
};

// Predicted from the true durations (ns), each moved by `shift_ns`: the mixture over the
// intervals of n_i ticks with probability 1 − f_i and n_i + 1 with probability f_i.
TickFigures PredictTickFigures(absl::Span<const double> true_ns, double period_ns, int64_t n,
                               double shift_ns = 0);

// Observed from readings (ns, multiples of the period); the SD is the population SD (divisor
// N), as the predicted one is: like is compared with like.
TickFigures ObserveTickFigures(absl::Span<const double> readings_ns, double period_ns, int64_t n);

struct TickFigureIntervals {
  ConfidenceInterval share, zero_share, sd_ns;
};

// Group boundaries: for the sizes of the runs (their readings, in order), the sizes of
// the groups, each run split into contiguous parts of nearly equal size so that there are
// at least kMinTickGroups groups (fewer only when there are fewer values than that).
std::vector<int64_t> TickGroupSizes(const std::vector<int64_t>& run_sizes);

// The observed figures' intervals, over `readings_ns` in groups of `group_sizes` (summing
// to its size). Invalid with fewer than 2 groups. The SD's interval also holds the SD with
// each rare tick count (fewer than 20 readings) at either end of its exact binomial interval,
// and with the count just beyond those read where some duration of `true_ns` (the
// reference's, same intervals; none given: none) reaches it.
TickFigureIntervals ObservedTickIntervals(absl::Span<const double> readings_ns,
                                          const std::vector<int64_t>& group_sizes, double period_ns,
                                          int64_t n, double confidence = kConfidence95,
                                          absl::Span<const double> true_ns = {});

// The predicted figures' intervals, over `true_ns` in groups of `group_sizes`, at
// `confidence`; `reference_resolution_ns` the durations' own resolution. Invalid with
// fewer than 2 groups.
TickFigureIntervals PredictedTickIntervals(absl::Span<const double> true_ns,
                                           const std::vector<int64_t>& group_sizes,
                                           double period_ns, int64_t n,
                                           double reference_resolution_ns,
                                           double confidence = kConfidence95);

}  // namespace tickbench::timing

#endif  // TIMING_TICK_INTERVALS_H_
