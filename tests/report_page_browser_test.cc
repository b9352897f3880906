// --report=FILE.html end to end: the binary writes the page of a simulated sweep and of a
// simulated study (and the matrix's page is written from a synthetic matrix, since the
// matrix needs mpirun), and a headless browser (Debian's chromium) renders it: no console
// message (a blocked fetch or script, a Content-Security-Policy violation, a parse error
// would each log one), the headline the first text of the body, the plots as <svg> elements
// in the DOM, the tables and the verdicts in words there, and a hostile --report path (markup,
// quotes, a newline) shown only as text. Skipped, with the reason, where chromium is not installed
// (tools/setup.sh
// --report installs it). Without gnuplot in PATH, the page says the plot is missing and
// why, and the exit status is 0 (the page itself was written); that part needs no browser.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/mpi/matrix_page.h"
#include "harness/mpi/matrix_report.h"
#include "harness/page/report_page.h"
#include "tests/harness_runner.h"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using tickbench::testing::HarnessResult;
using tickbench::testing::ReadWholeFile;
using tickbench::testing::RunHarness;
namespace harness = ::tickbench::harness;

const std::string kSweep =
    "--transport=sim --experiment=sweep --sizes=32,512,4096 --iterations=200 --runs=2 --seed=1 "
    "--quiet";
const std::string kStudy =
    "--experiment=study --transport=sim --sim_fixed=1.3ms --sim_per_byte_ns=0 --sizes=64 "
    "--clocks=tick:10ms,tick:20ms --iterations=200 --runs=2 --seed=1";
// A directory name (no '/') a page must show only as text.
const std::string kHostileName = "r<script>alert(1)<!--\"'\n<b onmouseover=x>";

int Shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// `text` in single quotes for sh.
std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string ChromiumUnavailable() {
  if (Shell("command -v chromium >/dev/null 2>&1") != 0) {
    return "chromium is not installed (tools/setup.sh --report installs it)";
  }
  return "";
}

struct Rendered {
  int exit_code = -1;
  std::string dom;
  std::string log;
};

// The page at `path` rendered by headless chromium: the DOM it built and its log.
Rendered RenderInChromium(const std::string& path) {
  const std::string dir = ::testing::TempDir();
  const std::string profile = dir + "/chromium-profile";
  mkdir(profile.c_str(), 0700);
  // A plain name for the URL: the hostile one would need percent-encoding.
  const std::string page = dir + "/page.html";
  EXPECT_EQ(Shell(absl::StrCat("cp ", ShellQuote(path), " ", page)), 0);
  Rendered r;
  r.exit_code = Shell(absl::StrCat(
      "HOME=", dir, " timeout 120 chromium --headless --no-sandbox --disable-gpu ",
      "--no-first-run --user-data-dir=", profile, " --enable-logging=stderr --v=0 --dump-dom ",
      "file://", page, " >", dir, "/dom.html 2>", dir, "/chromium.log"));
  r.dom = ReadWholeFile(dir + "/dom.html");
  r.log = ReadWholeFile(dir + "/chromium.log");
  return r;
}

// How the page at `path` lays out in a 1280 px wide frame: its widths and the id of the
// body's first picture (svg, img or canvas), read by a script of a page of the test's own
// that frames it (the report's own policy lets no script run in it).
struct Layout {
  int scroll_width = -1;
  int client_width = -1;
  std::string first_picture;
};

Layout LayoutInChromium(const std::string& path) {
  const std::string dir = ::testing::TempDir();
  const std::string profile = dir + "/chromium-profile";
  mkdir(profile.c_str(), 0700);
  EXPECT_EQ(Shell(absl::StrCat("cp ", ShellQuote(path), " ", dir, "/framed.html")), 0);
  std::ofstream(dir + "/frame.html")
      << "<!DOCTYPE html><html><body style=\"margin:0\"><iframe id=\"f\" src=\"framed.html\" "
         "style=\"width:1280px;height:900px;border:0\"></iframe><pre id=\"layout\"></pre><script>"
         "document.getElementById('f').addEventListener('load', function () {"
         "  var d = document.getElementById('f').contentDocument;"
         "  var first = d.body.querySelector('svg, img, canvas');"
         "  document.getElementById('layout').textContent = d.documentElement.scrollWidth + ' ' +"
         "      d.documentElement.clientWidth + ' ' + (first ? first.id || '?' : '-');"
         "});</script></body></html>";
  Shell(absl::StrCat("HOME=", dir, " timeout 120 chromium --headless --no-sandbox --disable-gpu ",
                     "--no-first-run --user-data-dir=", profile,
                     " --allow-file-access-from-files --virtual-time-budget=10000 ",
                     "--window-size=1400,1000 --dump-dom file://", dir, "/frame.html >", dir,
                     "/frame-dom.html 2>/dev/null"));
  const std::string dom = ReadWholeFile(dir + "/frame-dom.html");
  Layout layout;
  const size_t at = dom.find("<pre id=\"layout\">");
  if (at == std::string::npos) return layout;
  char first[64] = {};
  std::sscanf(dom.c_str() + at + 17, "%d %d %63[^<]", &layout.scroll_width, &layout.client_width,
              first);
  layout.first_picture = first;
  return layout;
}

// Runs the binary with `args` and --report into a directory of a hostile name; the page.
std::string WritePage(const std::string& args, const std::string& env = "") {
  const std::string dir = ::testing::TempDir() + "/" + kHostileName;
  mkdir(dir.c_str(), 0700);
  const std::string path = dir + "/report.html";
  unlink(path.c_str());
  const HarnessResult result = RunHarness(absl::StrCat(args, " --report=", ShellQuote(path)), env);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return ReadWholeFile(path);
}

// The first text a reader meets in the rendered body: tags skipped, whitespace trimmed.
std::string FirstVisibleText(const std::string& dom) {
  size_t at = dom.find("<body");
  if (at == std::string::npos) return "";
  std::string text;
  for (at = dom.find('>', at); at != std::string::npos && at + 1 < dom.size();) {
    const size_t open = dom.find('<', at + 1);
    text = std::string(absl::StripAsciiWhitespace(dom.substr(at + 1, open - at - 1)));
    if (!text.empty() || open == std::string::npos) break;
    at = dom.find('>', open);
  }
  return text;
}

void ExpectRendersCleanly(const std::string& html, const std::string& words,
                          const std::string& headline) {
  ASSERT_THAT(html, HasSubstr("</html>"));
  const Rendered r = RenderInChromium(::testing::TempDir() + "/" + kHostileName + "/report.html");
  ASSERT_EQ(r.exit_code, 0) << r.log;
  EXPECT_THAT(r.log, Not(HasSubstr(":CONSOLE"))) << r.log;
  // The point of the page is the first thing on it, and nothing hides it.
  EXPECT_TRUE(absl::StartsWith(FirstVisibleText(r.dom), headline)) << FirstVisibleText(r.dom);
  EXPECT_THAT(r.dom, HasSubstr("<header id=\"headline\">"));
  EXPECT_THAT(r.dom, Not(HasSubstr("display:none")));
  // The details are there, folded.
  EXPECT_THAT(r.dom, HasSubstr("<details id=\"context-details\">"));
  // The plot, the table, the verdicts, the context.
  EXPECT_THAT(r.dom, HasSubstr("<svg"));
  EXPECT_THAT(r.dom, HasSubstr("</svg>"));
  EXPECT_THAT(r.dom, HasSubstr("<section id=\"tables\">"));
  EXPECT_THAT(r.dom, HasSubstr("size B"));
  EXPECT_THAT(r.dom, HasSubstr(words));
  EXPECT_THAT(r.dom, HasSubstr("tickbench_version"));
  EXPECT_THAT(r.dom, HasSubstr("load average at start"));
  // The hostile path is text: no element came of it.
  const std::string lower = absl::AsciiStrToLower(r.dom);
  EXPECT_THAT(lower, Not(HasSubstr("<script")));
  EXPECT_THAT(lower, Not(HasSubstr("<b ")));
  EXPECT_THAT(r.dom, HasSubstr("r&lt;script&gt;alert(1)&lt;!--"));
}

TEST(ReportPageBrowserTest, SweepPageRendersWithItsPlotTableAndVerdicts) {
  if (const std::string why = ChromiumUnavailable(); !why.empty()) GTEST_SKIP() << why;
  const std::string html = WritePage(kSweep);
  EXPECT_THAT(html, HasSubstr("Content-Security-Policy"));
  ExpectRendersCleanly(html,
                       "32 B: averaged RTT 20.002000 us (95% interval 20.001978 to 20.002022 us)",
                       "Averaged round trip from 20.002 us");
}

TEST(ReportPageBrowserTest, StudyPageRendersWithItsPlotTableAndVerdicts) {
  if (const std::string why = ChromiumUnavailable(); !why.empty()) GTEST_SKIP() << why;
  const std::string html = WritePage(kStudy);
  ExpectRendersCleanly(html, "tick:20ms at 64 B: per-iteration:", "tick:10ms at 64 B: 8");
  // Real tables, not a monospaced block; no figure the simulation cannot have.
  EXPECT_THAT(html, HasSubstr("<table class=\"results\">"));
  EXPECT_THAT(html, Not(HasSubstr("<pre class=\"table\">")));
  EXPECT_THAT(html, Not(HasSubstr("probe ns/read")));
}

// A matrix of 12 ranks with long host names, one of them hostile, 11 -> 0 failed.
harness::Matrix TwelveRanks() {
  std::vector<std::string> hosts;
  for (int r = 0; r < 12; ++r) {
    hosts.push_back(absl::StrCat("node-", r / 2, ".a-rather-long-cluster-domain.example.org"));
  }
  hosts[5] = kHostileName;
  harness::Matrix matrix = harness::EmptyMatrix("mpi", "rdtsc", 64, hosts);
  matrix.complete = true;
  for (int c = 0; c < 12; ++c) {
    for (int s = 0; s < 12; ++s) {
      std::vector<harness::RunRecord> runs(4);
      for (int i = 0; i < 4; ++i) {
        runs[i].timed_trips = 1000;
        runs[i].averaged_rtt_ns = (c / 2 == s / 2 ? 1500.0 : 21000.0) + 37 * c + 11 * s + 9 * i;
      }
      if (c != s) matrix.at(c, s) = harness::CellFromRuns(runs, absl::OkStatus());
    }
  }
  matrix.at(11, 0) = harness::CellFromRuns({}, absl::UnavailableError("peer gone"));
  return matrix;
}

// The matrix's page as rank 0 writes it under mpirun (a synthetic matrix: no MPI here): it
// renders cleanly, leads with its headline, its heat map is the body's first picture, and
// 12 ranks with long host names fit 1280 px without a horizontal scroll bar.
TEST(ReportPageBrowserTest, MatrixPageLeadsWithItsHeatMapAndFitsIn1280Pixels) {
  if (const std::string why = ChromiumUnavailable(); !why.empty()) GTEST_SKIP() << why;
  const std::string dir = ::testing::TempDir() + "/" + kHostileName;
  mkdir(dir.c_str(), 0700);
  const std::string path = dir + "/report.html";
  harness::ExperimentHeader header;
  header.experiment = "matrix";
  header.transport = "mpi";
  header.sizes = 1;
  header.runs = 4;
  header.iterations = 1000;
  ASSERT_EQ(harness::WriteReportPage(
                path, harness::MatrixReportPage(TwelveRanks(), harness::RunContext{}, header), 0),
            0);
  const Rendered r = RenderInChromium(path);
  ASSERT_EQ(r.exit_code, 0) << r.log;
  EXPECT_THAT(r.log, Not(HasSubstr(":CONSOLE"))) << r.log;
  EXPECT_TRUE(absl::StartsWith(FirstVisibleText(r.dom), "131 of 132 pairs measured; 1 failed."))
      << FirstVisibleText(r.dom);
  EXPECT_THAT(r.dom, HasSubstr("<li>Fastest pair 0-&gt;1 "));
  EXPECT_THAT(absl::AsciiStrToLower(r.dom), Not(HasSubstr("<b ")));
  EXPECT_THAT(r.dom, HasSubstr("r&lt;script&gt;alert(1)&lt;!--"));
  const Layout layout = LayoutInChromium(path);
  EXPECT_EQ(layout.first_picture, "heat-map");
  EXPECT_GT(layout.client_width, 1200);
  EXPECT_LE(layout.scroll_width, layout.client_width) << "the page scrolls sideways";
}

TEST(ReportPageTest, WithoutGnuplotThePageSaysThePlotIsMissingAndWhy) {
  // A PATH holding only timeout(1), which RunHarness starts the binary with.
  const std::string bin = ::testing::TempDir() + "/bin-without-gnuplot";
  mkdir(bin.c_str(), 0700);
  Shell(absl::StrCat("ln -sf \"$(command -v timeout)\" ", bin, "/timeout"));
  const std::string html = WritePage(kSweep, absl::StrCat("PATH=", bin));
  EXPECT_THAT(html, HasSubstr("The plot is missing: gnuplot is not installed"));
  EXPECT_THAT(html, Not(HasSubstr("<svg")));
  EXPECT_THAT(
      html, HasSubstr("32 B: averaged RTT 20.002000 us (95% interval 20.001978 to 20.002022 us)"));
  // The sweep's table is a real table too, its cells at the printed table's digits.
  EXPECT_THAT(html, HasSubstr("<table class=\"results\">"));
  EXPECT_THAT(html, Not(HasSubstr("<pre class=\"table\">")));
  EXPECT_THAT(html, HasSubstr("<td class=\"n\">20.002000</td><td>± 0.000022</td>"));
}

// The default experiment's table leads with throughput: so do its page's headline and
// its first plot, the round-trip plot second.
TEST(ReportPageTest, TheThroughputExperimentsPagePlotsThroughputFirst) {
  const std::string html =
      WritePage("--transport=sim --sizes=32,512,4096 --iterations=200 --runs=2 --seed=1 --quiet");
  const size_t throughput = html.find("<figcaption>the sweep: throughput against message size");
  const size_t rtt = html.find("<figcaption>the sweep: round-trip time against message size");
  ASSERT_NE(throughput, std::string::npos) << html;
  ASSERT_NE(rtt, std::string::npos);
  EXPECT_LT(throughput, rtt);
  EXPECT_THAT(html, HasSubstr("<li>Throughput from "));
  EXPECT_THAT(html, HasSubstr("throughput (KB/s)"));
}

// --analyze takes --report, and with --explain its plot (and the page's) draws the steps
// the analysis found and the winning layout's fit, which its data file holds (no "fit
// NaN"). The table is a simulated 4.3BSD socket layer, as docs/study.md's.
TEST(ReportPageTest, AnalyzeWritesAPageWithTheStepsAndTheWinningFit) {
  const std::string dir = ::testing::TempDir() + "/analyze";
  mkdir(dir.c_str(), 0700);
  const std::string csv = dir + "/classic.csv";
  ASSERT_EQ(
      Shell(absl::StrCat("printf 'size_bytes,rtt_ms\\n32,1.66\\n512,1.93\\n1024,2.06\\n1300,2.58\\n"
                         "1400,2.75\\n1460,2.77\\n1492,2.92\\n1536,2.48\\n2032,2.61\\n2984,3.15\\n"
                         "4096,3.72\\n' > ",
                         csv)),
      0);
  const HarnessResult result = RunHarness(absl::StrCat("--analyze=", csv, " --explain --plot=", dir,
                                                       "/a.svg --report=", dir, "/a.html"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::string html = ReadWholeFile(dir + "/a.html");
  EXPECT_THAT(html, HasSubstr("<li>bsd_socket(C=1024, t=512, s=112) explains the sweep"));
  const std::string dat = ReadWholeFile(dir + "/a.dat");
  EXPECT_THAT(dat, HasSubstr("# size_bytes rtt_us run\n"));
  EXPECT_THAT(dat, Not(HasSubstr("\n0 NaN\n")));  // the fit's block holds the curve
  if (Shell("command -v gnuplot >/dev/null 2>&1") != 0) GTEST_SKIP() << "no gnuplot";
  for (const std::string& svg : {ReadWholeFile(dir + "/a.svg"), html}) {
    EXPECT_THAT(svg, HasSubstr("fit: bsd_socket(C=1024, t=512, s=112)"));
    EXPECT_THAT(svg, HasSubstr("jump 1492-1536"));
  }
}

TEST(ReportPageTest, ABadTargetIsRefusedBeforeMeasuring) {
  const std::string dir = ::testing::TempDir();
  for (const std::string& target : {dir, dir + "/missing-folder/r.html", std::string("-")}) {
    const HarnessResult result = RunHarness(
        absl::StrCat("--transport=sim --experiment=sweep --sizes=32 --iterations=10 --runs=1 ",
                     "--report=", ShellQuote(target)));
    EXPECT_EQ(result.exit_code, 2) << target;
    EXPECT_TRUE(absl::StartsWith(result.err, "tickbench: --report: ")) << result.err;
    EXPECT_EQ(result.out, "") << "measured before refusing " << target;
  }
  // Not a regular file: a FIFO (never opened, so nothing blocks).
  const std::string fifo = dir + "/fifo.html";
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const HarnessResult result = RunHarness(
      absl::StrCat("--transport=sim --experiment=sweep --sizes=32 --report=", fifo), "", 30);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("--report: "));
  EXPECT_THAT(result.err, HasSubstr("FIFO"));
}

}  // namespace
