#include "harness/page/report_page.h"

#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const char kHostile[] = "x<script>alert('a')</script>\"<img src=x onerror=alert(1)>\nb\x01&";

constexpr char kGnuplotLikeSvg[] =
    "<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n"
    "<svg \n viewBox=\"0 0 400 300\"\n xmlns=\"http://www.w3.org/2000/svg\"\n"
    " xmlns:xlink=\"http://www.w3.org/1999/xlink\"\n>\n<title>Gnuplot</title>\n"
    "<defs><path id='gpPt7' d='M0,-1.33 L-1.33,0.67 z'/>"
    "<use xlink:href='#gpPt7' id='gpPt8'/><filter id='textbox'/></defs>\n"
    "<g filter='url(#textbox)'><text>round-trip time (us)</text></g>\n</svg>\n";

TEST(HtmlEscapeTest, EscapesMarkupQuotesAndControlBytes) {
  const std::string escaped = HtmlEscape(kHostile);
  EXPECT_EQ(escaped,
            "x&lt;script&gt;alert(&#39;a&#39;)&lt;/script&gt;&quot;&lt;img src=x "
            "onerror=alert(1)&gt;\nb\\x01&amp;");
  EXPECT_EQ(HtmlEscape("plain text, 20 \xC2\xB5s\t"), "plain text, 20 \xC2\xB5s\t");
}

TEST(InlineableSvgTest, KeepsTheSvgElementWithoutTheProlog) {
  absl::StatusOr<std::string> svg = InlineableSvg(kGnuplotLikeSvg);
  ASSERT_TRUE(svg.ok()) << svg.status();
  EXPECT_TRUE(absl::StartsWith(*svg, "<svg")) << *svg;
  EXPECT_TRUE(absl::EndsWith(*svg, "</svg>")) << *svg;
  EXPECT_THAT(*svg, Not(HasSubstr("<?xml")));
  EXPECT_THAT(*svg, HasSubstr("round-trip time (us)"));
}

TEST(InlineableSvgTest, RefusesScriptsHandlersAndOutsideReferences) {
  const std::string head = "<svg xmlns=\"http://www.w3.org/2000/svg\">";
  for (const std::string& body : {
           std::string("<script>alert(1)</script>"),
           std::string("<SCRIPT xlink:href='#a'/>"),
           std::string("<rect onload=\"alert(1)\"/>"),
           std::string("<rect\nONCLICK = 'x'/>"),
           std::string("<foreignObject><div/></foreignObject>"),
           std::string("<image href='x.png'/>"),
           std::string("<use xlink:href='http://example.com/a.svg#x'/>"),
           std::string("<a href = \"javascript:alert(1)\"><text>x</text></a>"),
           std::string("<rect fill='url(http://example.com/x)'/>"),
           std::string("<style>@import 'x.css';</style>"),
       }) {
    EXPECT_FALSE(InlineableSvg(head + body + "</svg>").ok()) << body;
  }
  EXPECT_FALSE(InlineableSvg("<html>no plot</html>").ok());
  // Words that only look like attributes, in text, are not refused.
  EXPECT_TRUE(InlineableSvg(head + "<text>drawn on=the edge</text></svg>").ok());
}

ReportPage HostilePage() {
  ReportPage page;
  page.title = absl::StrCat("tickbench: ", kHostile);
  page.context.system.hostname = kHostile;
  page.context.system.cpu_model = "Some CPU";
  page.context.started_at = "2024-01-01T00:00:00Z";
  page.context.flags = {{"report", absl::StrCat("dir/", kHostile, ".html")}};
  page.context.settings = {{"report", "string", kHostile, true}};
  page.context.warnings = {kHostile};
  page.context.load_average_start = platform::LoadAverage{0.5, 0.25, 0.125};
  page.header.experiment = "sweep";
  page.header.transport = "sim";
  page.headlines = {absl::StrCat("tick:10ms at 64 B: 87% read 0 ", kHostile)};
  page.tables = absl::StrCat("  size B | avg RTT us\n      32 | 20.0 ", kHostile, "\n");
  page.verdicts = {absl::StrCat("32 B: averaged RTT 20 us ", kHostile)};
  page.analysis = absl::StrCat("Steps in the averaged RTT: none ", kHostile, "\n");
  page.plots.push_back({absl::StrCat("the sweep ", kHostile), *InlineableSvg(kGnuplotLikeSvg), ""});
  page.plots.push_back({"the study", "", absl::StrCat("gnuplot is not installed ", kHostile)});
  return page;
}

TEST(RenderReportPageTest, HasTheCspMetaAndEverySection) {
  const std::string html = RenderReportPage(HostilePage());
  EXPECT_TRUE(absl::StartsWith(html, "<!DOCTYPE html>\n"));
  EXPECT_THAT(html, HasSubstr("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
                              "'none'; style-src 'unsafe-inline'; img-src data:\">"));
  for (const char* section :
       {"id=\"context\"", "id=\"tables\"", "id=\"verdicts\"", "id=\"plots\"", "tickbench_version",
        "load average at start", "0.50 0.25 0.12", "Settings in force", "--report"}) {
    EXPECT_THAT(html, HasSubstr(section));
  }
  EXPECT_THAT(html, HasSubstr("<svg"));
  EXPECT_THAT(html, HasSubstr("round-trip time (us)"));
  EXPECT_THAT(html, HasSubstr("The plot is missing: gnuplot is not installed"));
  EXPECT_THAT(html, HasSubstr("32 B: averaged RTT 20 us"));
  EXPECT_TRUE(absl::EndsWith(html, "</html>\n"));
}

TEST(RenderReportPageTest, EveryUserStringIsEscaped) {
  const std::string html = RenderReportPage(HostilePage());
  const std::string lower = absl::AsciiStrToLower(html);
  EXPECT_THAT(lower, Not(HasSubstr("<script")));
  EXPECT_THAT(lower, Not(HasSubstr("<img")));
  EXPECT_THAT(html, Not(HasSubstr(kHostile)));
  EXPECT_THAT(html, Not(HasSubstr("\x01")));
  // Each place the hostile string went shows it escaped: title, title line, headline, host,
  // flag, setting, warning, table, verdict, analysis, caption, missing reason.
  const std::string escaped = HtmlEscape(kHostile);
  size_t count = 0;
  for (size_t at = html.find(escaped); at != std::string::npos; at = html.find(escaped, at + 1)) {
    ++count;
  }
  EXPECT_EQ(count, 12u) << html;
}

// The point first: the headline is the body's first content, then the plots, the tables,
// the warnings, and folded at the end every figure in words and what ran where.
TEST(RenderReportPageTest, TheHeadlineComesFirstAndTheDetailsAreFolded) {
  const std::string html = RenderReportPage(HostilePage());
  const size_t body = html.find("<body>\n");
  ASSERT_NE(body, std::string::npos);
  EXPECT_TRUE(absl::StartsWith(html.substr(body + 7),
                               "<header id=\"headline\">\n<ul class=\"headline\">\n<li>tick:10ms"))
      << html;
  const size_t order[] = {html.find("id=\"headline\""),
                          html.find("id=\"plots\""),
                          html.find("id=\"tables\""),
                          html.find("id=\"warnings\""),
                          html.find("<details id=\"verdicts-details\">"),
                          html.find("<details id=\"context-details\">"),
                          html.find("<footer>")};
  for (size_t i = 0; i < std::size(order); ++i) {
    ASSERT_NE(order[i], std::string::npos) << i;
    if (i > 0) EXPECT_LT(order[i - 1], order[i]) << i;
  }
}

// Results laid out as an HTML table (no monospaced block): groups over their columns,
// numbers right-aligned, every cell escaped.
TEST(RenderReportPageTest, PageTablesAreHtmlTables) {
  ReportPage page = HostilePage();
  page.result_tables.push_back({"tick:10ms: resolution T = 10ms",
                                {{"", 1}, {"averaged, us", 2}},
                                {"size B", "RTT ± 95% CI", "theory"},
                                {{"64", "1300.0 ± 8.0", "agrees"}, {"1024", "-", kHostile}}});
  const std::string html = RenderReportPage(page);
  EXPECT_THAT(html, Not(HasSubstr("<pre class=\"table\">")));
  EXPECT_THAT(html, HasSubstr("<h3>tick:10ms: resolution T = 10ms</h3>"));
  EXPECT_THAT(html, HasSubstr("<tr class=\"groups\"><th colspan=\"1\"></th><th colspan=\"2\">"
                              "averaged, us</th></tr>"));
  EXPECT_THAT(html, HasSubstr("<tr><td class=\"n\">64</td><td class=\"n\">1300.0 ± 8.0</td>"
                              "<td>agrees</td></tr>"));
  EXPECT_THAT(html, HasSubstr(absl::StrCat("<td>", HtmlEscape(kHostile), "</td>")));
}

}  // namespace
}  // namespace tickbench::harness

namespace tickbench::harness {
namespace {

// A sweep analysed with --explain says what explains it among its headlines; --analyze's
// page leads with the same verdict, else with the step finder's first line.
TEST(ReportPageHeadlineTest, TheRankingsVerdictIsAHeadline) {
  const std::string analysis =
      "Steps in the averaged RTT (segmented regression, breakpoints chosen by BIC):\n"
      "  jump up between 96 and 160 bytes: +1994 ns\n"
      "  => bsd_socket(C=1024, t=512, s=112) explains the sweep: ΔBIC 65.6\n";
  const ReportPage sweep =
      SweepReportPage(RunContext(), ExperimentHeader(), {}, TableStyle::kRttMicros, analysis, {});
  ASSERT_EQ(sweep.headlines.size(), 2u);
  EXPECT_EQ(sweep.headlines[1], "bsd_socket(C=1024, t=512, s=112) explains the sweep: ΔBIC 65.6");
  const ReportPage analyzed = AnalysisReportPage(RunContext(), "t.csv", analysis, ReportPlot());
  EXPECT_EQ(analyzed.headlines, std::vector<std::string>{sweep.headlines[1]});
  const ReportPage steps_only = AnalysisReportPage(
      RunContext(), "t.csv", analysis.substr(0, analysis.find("  =>")), ReportPlot());
  EXPECT_EQ(steps_only.headlines,
            std::vector<std::string>{"t.csv: jump up between 96 and 160 bytes: +1994 ns"});
}

// Issue 46 item 6, on the page: 8-bit CSI (0x9b), U+009B, U+202E and a truncated UTF-8
// sequence show as visible \xNN, byte by byte, never raw; tab and newline stay, and a
// character that prints (µ) is kept.
TEST(HtmlEscapeTest, C1BidiAndBytesThatAreNotUtf8AreShownNotWritten) {
  EXPECT_EQ(HtmlEscape("host\x9b"
                       "31m\xe2\x80\xae"
                       "x\xc2\x9b<\xc2\xb5>\tz\xe2\x80"),
            "host\\x9b31m\\xe2\\x80\\xaex\\xc2\\x9b&lt;\xc2\xb5&gt;\tz\\xe2\\x80");
}

TEST(RenderReportPageTest, AHostNameWithC1AndBidiBytesReachesThePageEscaped) {
  ReportPage page = HostilePage();
  page.context.system.hostname =
      "evil\x9b"
      "31m\xe2\x80\xae"
      "host";
  const std::string html = RenderReportPage(page);
  EXPECT_THAT(html, HasSubstr("evil\\x9b31m\\xe2\\x80\\xaehost"));
  EXPECT_THAT(html, Not(HasSubstr("\x9b")));
  EXPECT_THAT(html, Not(HasSubstr("\xe2\x80\xae")));
}

}  // namespace
}  // namespace tickbench::harness
