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
  // Each place the hostile string went shows it escaped: title, h1, host, flag, setting,
  // warning, table, verdict, analysis, caption, missing reason.
  const std::string escaped = HtmlEscape(kHostile);
  size_t count = 0;
  for (size_t at = html.find(escaped); at != std::string::npos; at = html.find(escaped, at + 1)) {
    ++count;
  }
  EXPECT_EQ(count, 11u) << html;
}

}  // namespace
}  // namespace tickbench::harness
