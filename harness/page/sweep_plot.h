// A sweep's plot: its value against size, each run as points, the mean of runs with its
// interval, the per-iteration median and band, the reference, the fit, the detected steps
// marked and labelled; drawn by gnuplot (gnuplot.h).
#ifndef HARNESS_PAGE_SWEEP_PLOT_H_
#define HARNESS_PAGE_SWEEP_PLOT_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "analysis/fits/model_fit.h"
#include "analysis/steps/step_detector.h"
#include "analysis/sweep.h"
#include "harness/engine/run_record.h"
#include "harness/page/gnuplot.h"

namespace tickbench::harness {

// What a measured sweep adds to its plot beyond the runs' values, per size of the sweep
// (same sizes, same order); everything in ns. A file read back (--analyze) has none of it.
struct SweepPlotExtras {
  struct Point {
    double size_bytes = 0;
    bool has_interval = false;  // the averaged RTT's 95% interval across runs
    double averaged_low_ns = 0, averaged_high_ns = 0;
    bool has_per_iteration = false;
    double median_ns = 0;                      // per-iteration p50, mean over the runs
    double band_low_ns = 0, band_high_ns = 0;  // the band named by band_name
    bool has_reference = false;
    double reference_ns = 0;  // the reference's averaged RTT, mean over the runs
  };
  std::vector<Point> points;
  std::string band_name = "per-iteration p1..p99 (mean over runs)";
  std::string value_label = "averaged RTT";    // what the runs' values are, in the legend
  std::string fit_name;                        // "" for no fit
  std::vector<std::pair<double, double>> fit;  // (size, value in the sweep's unit)
};

// The extras of a sweep's records (valid runs only): the interval is Student t across
// runs (timing::AcrossRunsInterval), floored at the quantization (QuantizedSdFloor of the
// runs' largest quantum_ns).
SweepPlotExtras SweepPlotExtrasFromRecords(const std::vector<RunRecord>& records);

// The throughput plot of a sweep's records: each valid run's 2n bytes per round trip over
// its averaged RTT, in KB/s (1 KB = 1000 bytes), with each size's 95% interval carried
// through 2n / RTT from the RTT's (SweepPlotExtrasFromRecords); the extras' values are in
// KB/s (the fields named _ns hold them), without per-iteration band or reference.
struct ThroughputPlot {
  analysis::Sweep sweep;
  SweepPlotExtras extras;
};
ThroughputPlot ThroughputPlotFromRecords(const std::vector<RunRecord>& records);

// The steps a plot marks, in size order: those the analysis lists as found (the
// detector's, where `established`) and those the winning layout implies (`implied`,
// drawn as jumps).
std::vector<analysis::Step> FoundSteps(const absl::StatusOr<analysis::StepDetection>& detected,
                                       bool established,
                                       const std::vector<analysis::ImpliedStep>& implied);

// The winning layout's name and fitted curve (FitCurve) into `extras`, where the ranking's
// best family was fitted; nothing otherwise.
void SetFit(const analysis::ModelComparison& fits, const analysis::Sweep& sweep,
            SweepPlotExtras& extras);

// The winning layout's fitted curve over [first, last] size at `samples` evenly spaced
// whole sizes (400 place its steps within 0.25% of the range; not promised: at the exact
// size). Empty when the best family is not fitted.
std::vector<std::pair<double, double>> FitCurve(const analysis::ModelComparison& fits, double first,
                                                double last, int samples = 400);

// Draws SweepPlotJob's plot with RunGnuplotJob: the SVG at `svg_path` and its data file, both
// or neither, with RunGnuplotJob's errors.
absl::Status PlotSweep(const std::string& svg_path, const analysis::Sweep& sweep,
                       const std::vector<analysis::Step>& steps, const std::string& title,
                       const SweepPlotExtras& extras = {});

// The sweep plot, values in us: each run's averaged RTT as points, the mean of runs with
// its 95% interval as error bars, the per-iteration median as a line and its band, the
// reference's averaged RTT, the fit, the steps as dashed lines with labels placed by
// PlaceStepLabels, the legend below the plot. The y range runs from 0 to 1.5 x the 95th
// percentile of every plotted value (a mean included); values beyond it are
// drawn at the top edge as open triangles ("beyond the y range"). Labels: "round-trip
// time (us)" for a sweep in ns, else the value's name and unit; "message size (bytes)".
GnuplotJob SweepPlotJob(const analysis::Sweep& sweep, const std::vector<analysis::Step>& steps,
                        const std::string& title, const SweepPlotExtras& extras = {});
// Where a sweep plot writes its steps' labels ("jump 480-512"), at each step's line
// (halfway between its sizes). In rows from the top (graph 0.96, then kStepLabelRowHeight
// lower each), each label in the first row where it overlaps no other, its width taken
// as kStepLabelCharWidth of the sizes' span per character (a 9-point character on the
// 960-pixel plot, a little over, since gnuplot's range covers at least the span); a label
// that would run past the last size ends at its line instead. When kStepLabelRows rows
// are not enough, every label is turned upright, hanging from graph 0.98; a label whose
// line is within two characters of the previous label's joins that label's text ("+").
// In size order; a label joined to another has empty text (its line is still drawn).
struct StepLabel {
  double x = 0;
  std::string text;
  double height = 0;  // graph coordinate of the label's anchor
  bool right_aligned = false;
  bool rotated = false;
};
inline constexpr int kStepLabelRows = 5;
inline constexpr double kStepLabelRowHeight = 0.05;
inline constexpr double kStepLabelCharWidth = 0.0068;
std::vector<StepLabel> PlaceStepLabels(const std::vector<analysis::Step>& steps, double first,
                                       double last);

}  // namespace tickbench::harness

#endif  // HARNESS_PAGE_SWEEP_PLOT_H_
