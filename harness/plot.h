// Plots with gnuplot (Debian's gnuplot-nox): a sweep's value against size, each run as
// points, the median as a line, the detected steps marked; a study's histograms of
// per-iteration readings per clock. The data always goes to a .dat file beside the plot,
// so that a machine without gnuplot still keeps what would have been drawn.
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
#ifndef HARNESS_PLOT_H_
#define HARNESS_PLOT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "analysis/step_detector.h"
#include "analysis/sweep.h"
#include "harness/study_runner.h"

namespace tickbench::harness {

// "results.svg" -> "results.dat".
std::string PlotDataPath(const std::string& svg_path);

// Both write the data to PlotDataPath(svg_path) first, then the SVG to `svg_path`; each
// file whole or not at all, and only over a regular file or nothing (see output_file.h).
// FailedPrecondition when gnuplot is missing (the data file is written all the same);
// DeadlineExceeded when gnuplot ran longer than kGnuplotTimeout (it is killed; no SVG is
// written); Cancelled on a stop request. No temporary file is left behind in any case.
absl::Status PlotSweep(const std::string& svg_path, const analysis::Sweep& sweep,
                       const std::vector<analysis::Step>& steps, const std::string& title);

absl::Status PlotStudyHistograms(const std::string& svg_path, const std::vector<StudyCell>& cells);

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

GnuplotJob SweepPlotJob(const analysis::Sweep& sweep, const std::vector<analysis::Step>& steps,
                        const std::string& title);
GnuplotJob StudyHistogramJob(const std::vector<StudyCell>& cells);

// `text` with every byte outside a whitelist replaced by '?': kept are ASCII letters,
// digits, space, . , : ; - _ / ( ) + = % # [ ] and the micro sign µ (UTF-8); any other
// UTF-8 character becomes one '?'. So the result holds no quote, backslash, !, @, $, `,
// {, }, ^, &, ~, newline or other control byte. Safe inside gnuplot single quotes.
std::string GnuplotSafeText(absl::string_view text);

// Writes job.data to PlotDataPath(svg_path), runs gnuplot on job.script in a private
// temporary directory (in $TMPDIR, else /tmp), and moves the SVG it drew to `svg_path`.
// Errors as PlotSweep's; `timeout` bounds gnuplot's run. "gnuplot" is looked up in PATH.
absl::Status RunGnuplotJob(const std::string& svg_path, const GnuplotJob& job,
                           absl::Duration timeout = kGnuplotTimeout);

}  // namespace tickbench::harness

#endif  // HARNESS_PLOT_H_
