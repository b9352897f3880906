// What goes on a report page (declared in harness/page/report_page.h): a sweep's and a study's
// contents, the plot drawn by gnuplot in a private directory, and the page written.
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/output/command_status.h"
#include "harness/output/output_file.h"
#include "harness/page/page_headline.h"
#include "harness/page/report_page.h"
#include "harness/page/sweep_plot.h"
#include "harness/report/study_report.h"
#include "platform/errno_status.h"
#include "platform/facts/system_info.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

// The verdicts of a step analysis's ranking of layouts (its "  => " lines), without the
// arrow.
std::vector<std::string> RankingVerdicts(absl::string_view analysis) {
  std::vector<std::string> verdicts;
  for (absl::string_view line : absl::StrSplit(analysis, '\n')) {
    if (absl::ConsumePrefix(&line, "  => ")) verdicts.push_back(std::string(line));
  }
  return verdicts;
}

std::string PageTitle(const ExperimentHeader& header) {
  return absl::StrFormat("tickbench: %s over %s", header.experiment, header.transport);
}

// A size's figures in words: the averaged RTT with its interval, the single round trips'
// median and band, the reference's averaged RTT.
std::string SizeVerdict(const std::vector<const RunRecord*>& runs,
                        const SweepPlotExtras::Point& point, const std::string& band_name) {
  double averaged = 0;
  for (const RunRecord* r : runs) averaged += r->averaged_rtt_ns;
  averaged /= runs.size();
  // The one rule for digits (timing/stats/confidence.h): the interval's, ends clipped at 0.
  const double low = std::max(0.0, point.averaged_low_ns) * 1e-3;
  const double high = point.averaged_high_ns * 1e-3;
  const int decimals =
      timing::FigureDecimals(averaged * 1e-3, point.has_interval ? (high - low) / 2 : 0);
  std::string text = absl::StrFormat("%.0f B: averaged RTT %s us", point.size_bytes,
                                     timing::FormatDecimals(averaged * 1e-3, decimals));
  if (point.has_interval) {
    absl::StrAppendFormat(&text, " (95%% interval %s to %s us)",
                          timing::FormatDecimals(low, decimals),
                          timing::FormatDecimals(high, decimals));
  }
  absl::StrAppendFormat(&text, " over %d valid run%s", runs.size(), runs.size() == 1 ? "" : "s");
  if (point.has_per_iteration) {
    absl::StrAppendFormat(&text, "; per-iteration median %.6g us, %s %.6g to %.6g us",
                          point.median_ns * 1e-3, band_name, point.band_low_ns * 1e-3,
                          point.band_high_ns * 1e-3);
  }
  if (point.has_reference) {
    absl::StrAppendFormat(&text, "; the reference clock's averaged RTT %.6g us",
                          point.reference_ns * 1e-3);
  }
  if (runs.front()->averaged_unresolved) {
    absl::StrAppendFormat(&text, "; UNRESOLVED: about %d round trips would resolve it",
                          runs.front()->round_trips_to_resolve);
  }
  return text + ".";
}

std::vector<std::string> SweepVerdicts(const std::vector<RunRecord>& records) {
  std::map<size_t, std::vector<const RunRecord*>> by_size;
  std::map<size_t, int> invalid;
  for (const RunRecord& r : records) {
    if (r.valid()) {
      by_size[r.size_bytes].push_back(&r);
    } else {
      ++invalid[r.size_bytes];
    }
  }
  const SweepPlotExtras extras = SweepPlotExtrasFromRecords(records);
  std::vector<std::string> verdicts;
  size_t i = 0;
  for (const auto& [size, runs] : by_size) {
    if (i < extras.points.size()) {
      verdicts.push_back(SizeVerdict(runs, extras.points[i++], extras.band_name));
    }
  }
  for (const auto& [size, count] : invalid) {
    verdicts.push_back(
        absl::StrFormat("%d B: %d run%s without a figure.", size, count, count == 1 ? "" : "s"));
  }
  if (verdicts.empty()) verdicts.push_back("Nothing was measured.");
  return verdicts;
}

// A private directory for one gnuplot run, removed with the plot and its data.
class PlotDirectory {
 public:
  PlotDirectory() = default;
  PlotDirectory(const PlotDirectory&) = delete;
  PlotDirectory& operator=(const PlotDirectory&) = delete;
  ~PlotDirectory() {
    if (path_.empty()) return;
    unlink(svg().c_str());
    unlink(PlotDataPath(svg()).c_str());
    rmdir(path_.c_str());
  }
  absl::Status Create() {
    const char* tmpdir = std::getenv("TMPDIR");
    std::string pattern = absl::StrCat(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp",
                                       "/tickbench-report.XXXXXX");
    if (mkdtemp(pattern.data()) == nullptr) {
      return platform::ErrnoToStatus(
          errno, absl::StrCat("create a temporary directory ", absl::CHexEscape(pattern)));
    }
    path_ = pattern;
    return absl::OkStatus();
  }
  std::string svg() const { return absl::StrCat(path_, "/plot.svg"); }

 private:
  std::string path_;
};

}  // namespace

ReportPlot RenderReportPlot(absl::string_view caption, const GnuplotJob& job) {
  ReportPlot plot;
  plot.caption = std::string(caption);
  PlotDirectory directory;
  absl::Status s = directory.Create();
  if (s.ok()) s = RunGnuplotJob(directory.svg(), job);
  absl::StatusOr<std::string> svg;
  if (s.ok()) {
    svg = platform::ReadUserFile(directory.svg());
    if (svg.ok()) svg = InlineableSvg(*svg);
    s = svg.status();
  }
  if (s.ok()) {
    plot.svg = *std::move(svg);
  } else if (absl::IsFailedPrecondition(s)) {
    plot.missing = "gnuplot is not installed (apt-get install gnuplot-nox)";
  } else {
    plot.missing = std::string(s.message());
  }
  return plot;
}

ReportPage SweepReportPage(const RunContext& context, const ExperimentHeader& header,
                           const std::vector<RunRecord>& records, TableStyle style,
                           absl::string_view analysis, std::vector<ReportPlot> plots) {
  ReportPage page;
  page.title = PageTitle(header);
  page.headlines.push_back(SweepHeadline(records, style));
  for (std::string& verdict : RankingVerdicts(analysis)) {
    page.headlines.push_back(std::move(verdict));
  }
  page.context = context;
  page.header = header;
  const SweepTableCells table = FormatSweepTableCells(records, style);
  page.result_tables.push_back({"", table.groups, table.names, table.rows});
  page.legend = table.legend;
  page.verdicts = SweepVerdicts(records);
  page.analysis = std::string(analysis);
  page.plots = std::move(plots);
  return page;
}

ReportPage StudyReportPage(const RunContext& context, const ExperimentHeader& header,
                           const std::vector<StudyCell>& cells, ReportPlot plot) {
  ReportPage page;
  page.title = PageTitle(header);
  page.context = context;
  page.header = header;
  // One table per clock, as the printed table has one block per clock.
  const StudyTableCells table = FormatStudyTableCells(cells);
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i == 0 || cells[i].clock != cells[i - 1].clock) {
      page.result_tables.push_back({table.headings[i], table.groups, table.names, {}});
    }
    page.result_tables.back().rows.push_back(table.rows[i]);
  }
  page.legend = table.legend;
  for (const StudyCell& cell : cells) {
    page.headlines.push_back(StudyHeadline(cell));
    page.verdicts.push_back(!cell.summary.empty()
                                ? cell.summary
                                : absl::StrFormat("%s at %d B: %s", cell.clock, cell.size_bytes,
                                                  cell.error.empty() ? "no figure" : cell.error));
  }
  if (cells.empty()) {
    page.headlines.push_back("Nothing was measured.");
    page.verdicts.push_back("Nothing was measured.");
  }
  page.plots.push_back(std::move(plot));
  return page;
}

ReportPage AnalysisReportPage(const RunContext& context, absl::string_view file_shown,
                              absl::string_view report, ReportPlot plot) {
  ReportPage page;
  page.title = absl::StrCat("tickbench: --analyze of ", file_shown);
  page.context = context;
  page.header.experiment = "analyze";
  // The headline: the ranking's verdict where --explain gave one, else the first line the
  // step finder wrote (a step, or "none: ...").
  page.headlines = RankingVerdicts(report);
  const std::vector<absl::string_view> lines = absl::StrSplit(report, '\n');
  for (size_t i = 0; page.headlines.empty() && i + 1 < lines.size(); ++i) {
    if (absl::StartsWith(lines[i], "Steps in ")) {
      page.headlines.push_back(
          absl::StrCat(file_shown, ": ", absl::StripAsciiWhitespace(lines[i + 1])));
    }
  }
  if (page.headlines.empty()) page.headlines.push_back(std::string(file_shown));
  page.tables = std::string(report);
  page.plots.push_back(std::move(plot));
  return page;
}

int WriteReportPage(const std::string& path, ReportPage page, int exit_code) {
  if (page.context.load_average_start) page.context.load_average_end = LoadAverageNow();
  for (const ReportPlot& plot : page.plots) {
    if (plot.svg.empty()) {
      absl::FPrintF(stderr, "tickbench: --report: the page has no plot of %s: %s\n", plot.caption,
                    plot.missing);
    }
  }
  if (absl::Status s = WriteFileAtomically(path, RenderReportPage(page)); !s.ok()) {
    absl::FPrintF(stderr, "tickbench: could not write %s\n", WithFlag("report", s).message());
    return exit_code == kExitOk ? kExitFault : exit_code;
  }
  return exit_code;
}

}  // namespace tickbench::harness
