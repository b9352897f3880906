// --report=FILE.html: one self-contained HTML page of a measurement (a sweep or the
// study): what ran where (the context), the tables, the verdicts in words and the plots,
// inline as SVG.
//
// Promised:
//   - the page fetches nothing: no script, no external style, font or image, no inline
//     event handler; its Content-Security-Policy meta tag (kReportPageCsp) forbids the
//     browser to load anything but inline styles and data: images;
//   - every string that is not the program's own markup passes HtmlEscape (titles, table
//     text, verdicts, hostnames, flags and their values, paths);
//   - a plot is inlined only after InlineableSvg: gnuplot's <svg> element, refused when it
//     holds a script, an event handler, foreignObject or a reference outside the page;
//   - without a plot (gnuplot missing, failed or refused) the page says which plot is
//     missing and why;
//   - the page is written whole or not at all (WriteFileAtomically).
// Not promised: that the page looks the same in every browser.
#ifndef HARNESS_PAGE_REPORT_PAGE_H_
#define HARNESS_PAGE_REPORT_PAGE_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/context/run_context.h"
#include "harness/engine/run_record.h"
#include "harness/page/gnuplot.h"
#include "harness/report/reporter.h"
#include "harness/report/sweep_report.h"
#include "harness/study/study_cell.h"

namespace tickbench::harness {

inline constexpr char kReportPageCsp[] =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

struct ReportPlot {
  std::string caption;  // what the plot shows
  std::string svg;      // an <svg> element that passed InlineableSvg; "" when missing
  std::string missing;  // why there is no plot, when `svg` is ""
};

// A table the page lays out in HTML: a caption above it, an optional row of column
// groups (name, columns spanned), the column names and the rows, every cell text.
struct PageTable {
  std::string caption;
  std::vector<std::pair<std::string, int>> groups;
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
};

// In the page's order: the headlines, the plots, the tables (results_tables as HTML, else
// `tables` monospaced) with the legend, the warnings, the analysis, then folded: every
// figure in words and the context (host, clocks, flags, settings).
struct ReportPage {
  std::string title;
  std::vector<std::string> headlines;  // the point, first on the page: one sentence each
  RunContext context;
  ExperimentHeader header;
  std::vector<PageTable> result_tables;
  std::string tables;                 // the results' table, monospaced, where no PageTable
  std::string legend;                 // what the tables' columns mean; "" for none
  std::vector<std::string> verdicts;  // the results in words, one paragraph each
  std::string analysis;               // the sweep's step analysis, monospaced; "" for none
  std::vector<ReportPlot> plots;
};

// `text` for HTML text or a quoted attribute: & < > " ' as entities; controls other than
// tab, newline and carriage return (C0, DEL, C1 raw or in UTF-8, the bidirectional
// overrides and isolates such as U+202E) and bytes that are not UTF-8 as the visible text
// \xNN, byte by byte (ForEachTextUnit, harness/output/terminal_text.h).
std::string HtmlEscape(absl::string_view text);

// The <svg>...</svg> element of an SVG file (its XML declaration and doctype left out),
// or InvalidArgument naming what keeps it out of the page: no <svg> element; a script,
// foreignObject, iframe, embed, object or image element; an attribute named on...;
// "javascript:"; a reference outside the page (href to anything but #id, url( ... ) to
// anything but #id, @import).
absl::StatusOr<std::string> InlineableSvg(absl::string_view svg);

// The whole page.
std::string RenderReportPage(const ReportPage& page);

// Runs gnuplot on `job` in a private temporary directory and keeps its SVG, or says why
// there is none ("gnuplot is not installed ...", its exit status, a refused SVG).
ReportPlot RenderReportPlot(absl::string_view caption, const GnuplotJob& job);

// A sweep's page: its headline (SweepHeadline), the plots in the order given, the table of
// `style` (FormatTable, 100 columns), the analysis text, the warnings and a summary per
// size in words.
ReportPage SweepReportPage(const RunContext& context, const ExperimentHeader& header,
                           const std::vector<RunRecord>& records, TableStyle style,
                           absl::string_view analysis, std::vector<ReportPlot> plots);

// The study's page: a headline per cell (StudyHeadline), the plot, one HTML table per
// clock (FormatStudyTableCells) and each cell's summary in words.
ReportPage StudyReportPage(const RunContext& context, const ExperimentHeader& header,
                           const std::vector<StudyCell>& cells, ReportPlot plot);

// --analyze's page: its headline (the ranking's verdict, else the step finder's first
// line), the plot, and the analysis text (`report`, as printed) in place of a table.
ReportPage AnalysisReportPage(const RunContext& context, absl::string_view file_shown,
                              absl::string_view report, ReportPlot plot);

// Writes the page to `path` (resolved and checked by MakePlan) with the load average
// now as the end's; on failure prints "tickbench: could not write --report: ..." to
// stderr. Returns what the exit code becomes: `exit_code`, or kExitFault in place of
// kExitOk when the page could not be written.
int WriteReportPage(const std::string& path, ReportPage page, int exit_code);

}  // namespace tickbench::harness

#endif  // HARNESS_PAGE_REPORT_PAGE_H_
