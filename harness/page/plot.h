// Plots with gnuplot (Debian's gnuplot-nox): a sweep's value against size, each run as
// points, the median as a line, the detected steps marked; a study's histograms of
// per-iteration readings per clock. The data goes to a .dat file beside the plot. The
// two are one result: both are replaced together or neither is (WriteFilesAtomically),
// so a plot that fails (no gnuplot, gnuplot failing, a full file system) leaves the old
// .svg and .dat as they were, never new data beside an old plot.
//
// gnuplot has no sandbox: a script line starting with "!" runs in a shell, `...` is command
// substitution, @name a macro. So no string from the user reaches a script unfiltered:
//   - paths never do: gnuplot runs in a private temporary directory and reads and writes
//     fixed names there (kGnuplotDataName, kGnuplotSvgName); the results are then moved to
//     the user's paths with WriteFileAtomically (regular files only);
//   - titles and labels (the --analyze title is a file name, the axis label a CSV column,
//     the study's titles clock specs) pass through GnuplotSafeText.
// gnuplot is started with fork/exec, not a shell, with the script on its standard input
// and its output on our standard error, in a process group of its own, and is killed
// (the whole group) when it runs too long or a stop is requested while it runs
// (platform/stop_signal.h); a stop already pending when plotting starts (an interrupted
// measurement) still gets its plot. Not promised: after a second SIGINT, which ends
// tickbench at once, gnuplot finishes its script alone and its temporary directory stays.
#ifndef HARNESS_PAGE_PLOT_H_
#define HARNESS_PAGE_PLOT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "analysis/model_fit.h"
#include "analysis/step_detector.h"
#include "analysis/sweep.h"
#include "harness/engine/run_record.h"
#include "harness/study/study_cell.h"

namespace tickbench::harness {

// "results.svg" -> "results.dat".
std::string PlotDataPath(const std::string& svg_path);

// Both write the SVG to `svg_path` and the data to PlotDataPath(svg_path) once gnuplot
// has drawn it: the two files whole, together or not at all, and only over a regular file
// or nothing (see output_file.h). FailedPrecondition when gnuplot is missing;
// DeadlineExceeded when gnuplot ran longer than kGnuplotTimeout (it is killed); Cancelled
// on a stop request; the file system's error when a file cannot be written. On any error
// neither file is written. No temporary file is left behind in any case.
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
  std::string fit_name;                        // "" for no fit
  std::vector<std::pair<double, double>> fit;  // (size, value in the sweep's unit)
};

// The extras of a sweep's records (valid runs only): the interval is Student t across
// runs (timing::AcrossRunsInterval), floored at the quantization (QuantizedSdFloor of the
// runs' largest quantum_ns).
SweepPlotExtras SweepPlotExtrasFromRecords(const std::vector<RunRecord>& records);

// The winning layout's fitted curve over [first, last] size at `samples` evenly spaced
// whole sizes (400 place its steps within 0.25% of the range; not promised: at the exact
// size). Empty when the best family is not fitted.
std::vector<std::pair<double, double>> FitCurve(const analysis::ModelComparison& fits, double first,
                                                double last, int samples = 400);

absl::Status PlotSweep(const std::string& svg_path, const analysis::Sweep& sweep,
                       const std::vector<analysis::Step>& steps, const std::string& title,
                       const SweepPlotExtras& extras = {});

absl::Status PlotStudyHistograms(const std::string& svg_path, const std::vector<StudyCell>& cells);

// What the user is told of a plot that failed with `status`: "--plot: <why>; <svg> and
// <dat> are as they were" (the paths escaped). A failed plot is a fault: exit 1.
std::string PlotFailure(const std::string& svg_path, const absl::Status& status);

// ---- The parts, for tests and for other plots. ----

// The names a script reads its data from and writes its plot to, in gnuplot's working
// directory.
inline constexpr char kGnuplotDataName[] = "plot.dat";
inline constexpr char kGnuplotSvgName[] = "plot.svg";

inline constexpr absl::Duration kGnuplotTimeout = absl::Seconds(30);

// What gnuplot is given. The script names no path but kGnuplotDataName and
// kGnuplotSvgName, and every user string in it (and in the data's comment lines) has
// passed GnuplotSafeText.
struct GnuplotJob {
  std::string data;
  std::string script;
};

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

// The study: one panel per clock and size (multiplot), x in us, the truth (the reference's
// mean over the same intervals) and the averaged estimate as vertical lines. A coarse
// clock's panel shows the share of readings at each multiple of T (boxes) and the
// theory's predicted shares where it applies (points; timing/tick_theory.h: a reading is n
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

// `text` with every byte outside a whitelist replaced by '?': kept are ASCII letters,
// digits, space, . , : ; - _ / ( ) + = % # [ ] and the micro sign µ (UTF-8); any other
// UTF-8 character becomes one '?'. So the result holds no quote, backslash, !, @, $, `,
// {, }, ^, &, ~, newline or other control byte. Safe inside gnuplot single quotes.
std::string GnuplotSafeText(absl::string_view text);

// Single-quotes text that is the program's own (a label's "(bytes)", a title) or has
// passed GnuplotSafeText; gnuplot doubles a quote inside single quotes. Never call it on a
// user string directly: doubling quotes does not stop a newline. GnuplotQuoteUser passes
// the text through GnuplotSafeText first.
std::string GnuplotQuote(absl::string_view text);
std::string GnuplotQuoteUser(absl::string_view text);

// Runs gnuplot on job.script with job.data in a private temporary directory (in $TMPDIR,
// else /tmp), then writes the SVG it drew to `svg_path` and job.data to
// PlotDataPath(svg_path), both or neither. Errors as PlotSweep's, each saying the pair at
// the paths is as it was; `timeout` bounds gnuplot's run. "gnuplot" is looked up in PATH.
absl::Status RunGnuplotJob(const std::string& svg_path, const GnuplotJob& job,
                           absl::Duration timeout = kGnuplotTimeout);

}  // namespace tickbench::harness

#endif  // HARNESS_PAGE_PLOT_H_
