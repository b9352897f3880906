// Plots with gnuplot (Debian's gnuplot-nox): a script and its data (a GnuplotJob, made by
// sweep_plot.h or study_plot.h) run in a private directory, the SVG drawn written with its
// data in a .dat file beside it. The two are one result: both are replaced together or
// neither is (WriteFilesAtomically), so a plot that fails (no gnuplot, gnuplot failing, a
// full file system) leaves the old .svg and .dat as they were, never new data beside an
// old plot.
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
#ifndef HARNESS_PAGE_GNUPLOT_H_
#define HARNESS_PAGE_GNUPLOT_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace tickbench::harness {

// "results.svg" -> "results.dat".
std::string PlotDataPath(const std::string& svg_path);

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

// Runs gnuplot on job.script with job.data in a private temporary directory (in $TMPDIR,
// else /tmp; "gnuplot" is looked up in PATH), then writes the SVG it drew to `svg_path`
// and job.data to PlotDataPath(svg_path): the two files whole, together or not at all, and
// only over a regular file or nothing (see output_file.h). FailedPrecondition when gnuplot
// is missing; DeadlineExceeded when gnuplot ran longer than `timeout` (it is killed);
// Cancelled on a stop request; the file system's error when a file cannot be written. On
// any error neither file is written, and the error says the pair at the paths is as it
// was. No temporary file is left behind in any case.
absl::Status RunGnuplotJob(const std::string& svg_path, const GnuplotJob& job,
                           absl::Duration timeout = kGnuplotTimeout);

// What the user is told of a plot that failed with `status`: "--plot: <why>; <svg> and
// <dat> are as they were" (the paths escaped). A failed plot is a fault: exit 1.
std::string PlotFailure(const std::string& svg_path, const absl::Status& status);

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

}  // namespace tickbench::harness

#endif  // HARNESS_PAGE_GNUPLOT_H_
