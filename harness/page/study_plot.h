// The study's plot: histograms of each clock's per-iteration readings at each size,
// against the truth and the theory; drawn by gnuplot (gnuplot.h).
#ifndef HARNESS_PAGE_STUDY_PLOT_H_
#define HARNESS_PAGE_STUDY_PLOT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "harness/page/gnuplot.h"
#include "harness/study/study_cell.h"

namespace tickbench::harness {

// Draws StudyHistogramJob's plot with RunGnuplotJob: the SVG at `svg_path` and its data file, both
// or neither, with RunGnuplotJob's errors.
absl::Status PlotStudyHistograms(const std::string& svg_path, const std::vector<StudyCell>& cells);

// The study: one panel per clock and size (multiplot), x in us, the truth (the reference's
// mean over the same intervals) and the averaged estimate as vertical lines. A coarse
// clock's panel shows the share of readings at each multiple of T (boxes) and the
// theory's predicted shares where it applies (points; timing/theory/tick_theory.h: a reading is n
// or n+1 ticks); a fine clock's (StudyCellBinnedInTime) bins the readings in time instead,
// between the pooled percentiles min, p1, p50, p90, p99 and max (1, 49, 40, 9 and 1% of
// the readings; equal percentiles make one bar at their value, drawn 1% of the x range
// wide), x from p1 to p99 with the truth and the estimate. Each panel's title states the
// clock, the size, T and how the readings are binned ("in ticks of T" or "binned in time").
GnuplotJob StudyHistogramJob(const std::vector<StudyCell>& cells);

// Where a tick histogram says nothing (every reading in its last, open bucket): the truth
// is over kTimeBinnedTicks ticks of T.
inline constexpr double kTimeBinnedTicks = 10;
bool StudyCellBinnedInTime(const StudyCell& cell);

}  // namespace tickbench::harness

#endif  // HARNESS_PAGE_STUDY_PLOT_H_
