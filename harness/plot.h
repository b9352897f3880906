// Plots with gnuplot (Debian's gnuplot-nox): a sweep's value against size, each run as
// points, the median as a line, the detected steps marked; a study's histograms of
// per-iteration readings per clock. The data always goes to a .dat file beside the plot,
// so that a machine without gnuplot still keeps what would have been drawn.
#ifndef HARNESS_PLOT_H_
#define HARNESS_PLOT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "analysis/step_detector.h"
#include "analysis/sweep.h"
#include "harness/study_runner.h"

namespace tickbench::harness {

// "results.svg" -> "results.dat".
std::string PlotDataPath(const std::string& svg_path);

// FailedPrecondition when gnuplot is missing (the data file is written all the same).
absl::Status PlotSweep(const std::string& svg_path, const analysis::Sweep& sweep,
                       const std::vector<analysis::Step>& steps, const std::string& title);

absl::Status PlotStudyHistograms(const std::string& svg_path, const std::vector<StudyCell>& cells);

}  // namespace tickbench::harness

#endif  // HARNESS_PLOT_H_
