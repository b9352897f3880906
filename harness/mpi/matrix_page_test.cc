#include "harness/mpi/matrix_page.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/json/json_reader.h"
#include "harness/mpi/matrix_heat_map.h"
#include "harness/mpi/matrix_test_cells.h"
#include "harness/mpi/matrix_verdict.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Four ranks on two hosts, every kind of cell: a spread of RTTs and of interval widths,
// 3 -> 1 failed, 3 -> 2 timed out, 2 -> 3 of one run.
Matrix FourRanks(std::vector<std::string> hosts = {"alpha", "alpha", "beta", "beta"}) {
  Matrix matrix = EmptyMatrix("mpi", "rdtsc", 64, std::move(hosts));
  matrix.complete = true;
  matrix.at(0, 1) = FourRuns(3104, 41);
  matrix.at(0, 2) = FourRuns(48210, 900);
  matrix.at(0, 3) = FourRuns(51020, 12);
  matrix.at(1, 0) = FourRuns(3311, 5);
  matrix.at(1, 2) = FourRuns(90450, 300);
  matrix.at(1, 3) = FourRuns(47000, 2500);
  matrix.at(2, 0) = FourRuns(49999, 60);
  matrix.at(2, 1) = FourRuns(50500, 700);
  matrix.at(2, 3) = CellOfRuns({2750});
  matrix.at(3, 0) = FourRuns(52000, 100);
  matrix.at(3, 1).status = PairStatus::kFailed;
  matrix.at(3, 1).error = "mpi: peer <gone> & \"away\"";
  matrix.at(3, 2).status = PairStatus::kTimedOut;
  matrix.at(3, 2).error = "no cell within 61 s";
  return matrix;
}

// The <g> element of cell (c, s) in the heat map.
std::string CellElement(const std::string& svg, int c, int s) {
  const size_t begin = svg.find(absl::StrCat("<g id=\"cell-", c, "-", s, "\""));
  if (begin == std::string::npos) return "";
  return svg.substr(begin, svg.find("</g>", begin) + 4 - begin);
}

// The text of the first element after `after` in `element` whose tag starts with `tag`.
std::string FirstText(const std::string& element, const std::string& tag) {
  const size_t open = element.find(tag);
  if (open == std::string::npos) return "";
  const size_t start = element.find('>', open) + 1;
  return element.substr(start, element.find('<', start) - start);
}

// The fill of the cell's box.
std::string CellFill(const std::string& cell) {
  const size_t at = cell.find("fill=\"", cell.find("<rect"));
  return cell.substr(at + 6, 7);
}

double Luminance(const std::string& colour) {
  double sum = 0;
  const double weight[3] = {0.2126, 0.7152, 0.0722};
  for (int i = 0; i < 3; ++i) {
    const double c = std::strtol(colour.substr(1 + 2 * i, 2).c_str(), nullptr, 16) / 255.0;
    sum += weight[i] * (c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
  }
  return sum;
}

// Every measured cell of the heat map shows the figure the JSON's numbers give at the
// digits of the JSON's interval; the table's column shows the same number to its decimals.
TEST(MatrixPageTest, CellValuesOnThePageEqualTheJsons) {
  const Matrix matrix = FourRanks();
  absl::StatusOr<JsonValue> json = ParseJson(MatrixJson(matrix, TestSlowestPair(matrix)));
  ASSERT_TRUE(json.ok()) << json.status();
  const std::string svg = MatrixHeatMapSvg(matrix);
  const PageTable table = MatrixPageTable(matrix);
  const std::vector<JsonValue>& pairs = json->Get("pairs")->items;
  ASSERT_EQ(pairs.size(), 12u);
  ASSERT_EQ(table.rows.size(), 12u);
  int measured = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const JsonValue& pair = pairs[i];
    const int c = NumberAt(pair, "", "client"), s = NumberAt(pair, "", "server");
    SCOPED_TRACE(absl::StrCat(c, "->", s));
    const std::string cell = CellElement(svg, c, s);
    ASSERT_FALSE(cell.empty());
    if (StringAt(pair, "status") != "measured") continue;
    ++measured;
    const double rtt_us = NumberAt(pair, "", "rtt_ns") / 1e3;
    const JsonValue* ci = pair.Get("rtt_ns_ci95");
    const double half_us =
        NumberAt(pair, "", "runs") > 1 ? (ci->items[1].number - ci->items[0].number) / 2e3 : 0;
    EXPECT_EQ(FirstText(cell, "<text"), timing::FormatFigure(rtt_us, half_us)) << cell;
    // The table's row, in the JSON's order: the same number, to the column's decimals.
    double shown = 0;
    ASSERT_TRUE(absl::SimpleAtod(table.rows[i][6], &shown)) << table.rows[i][6];
    EXPECT_NEAR(shown, rtt_us, 0.0051) << table.rows[i][6];
    EXPECT_EQ(table.rows[i][0], absl::StrCat(c));
    EXPECT_EQ(table.rows[i][2], absl::StrCat(s));
  }
  EXPECT_EQ(measured, 10);
  // Figures of different intervals carry different digits: 3.104 +- 0.03 and 90.45 +- 0.3.
  EXPECT_EQ(FirstText(CellElement(svg, 0, 1), "<text"), "3.104");
  EXPECT_EQ(FirstText(CellElement(svg, 1, 2), "<text"), "90.45");
  EXPECT_EQ(FirstText(CellElement(svg, 2, 3), "<text"), "2.75000");  // one run: 6 digits
  // The column shares the finest decimals of an interval (1 -> 0's 3.3110 +- 0.0068: four),
  // the cell of one run left out (its six digits are no interval's).
  EXPECT_EQ(table.rows[1][6], "48.2100");
}

TEST(MatrixPageTest, ColoursDarkenMonotonicallyWithTheRtt) {
  double previous = 2;
  for (int i = 0; i <= 200; ++i) {
    const double luminance = Luminance(HeatColour(i / 200.0));
    EXPECT_LT(luminance, previous) << i;
    previous = luminance;
  }
  // On the page: ordered by RTT, the cells' fills never get lighter.
  const Matrix matrix = FourRanks();
  const std::string svg = MatrixHeatMapSvg(matrix);
  std::vector<std::pair<double, double>> rtt_and_luminance;
  for (int c = 0; c < 4; ++c) {
    for (int s = 0; s < 4; ++s) {
      if (c == s || matrix.at(c, s).status != PairStatus::kMeasured) continue;
      rtt_and_luminance.push_back(
          {matrix.at(c, s).rtt_ns, Luminance(CellFill(CellElement(svg, c, s)))});
    }
  }
  std::sort(rtt_and_luminance.begin(), rtt_and_luminance.end());
  for (size_t i = 1; i < rtt_and_luminance.size(); ++i) {
    EXPECT_LE(rtt_and_luminance[i].second, rtt_and_luminance[i - 1].second) << i;
  }
  EXPECT_GT(rtt_and_luminance.front().second, rtt_and_luminance.back().second + 0.5);
}

TEST(MatrixPageTest, TheScaleIsLinearUnlessTheSlowestIsOverTenTimesTheFastest) {
  const HeatScale wide = HeatScaleOf(FourRanks());  // 2.75 to 90.45 us
  EXPECT_TRUE(wide.logarithmic);
  EXPECT_DOUBLE_EQ(wide.fastest_us, 2.75);
  EXPECT_NEAR(HeatPosition(wide, std::sqrt(2.75 * 90.45)), 0.5, 1e-12);
  EXPECT_THAT(MatrixHeatMapSvg(FourRanks()), HasSubstr("logarithmic scale"));
  Matrix narrow = FourRanks();
  narrow.at(2, 3) = FourRuns(40000, 100);
  narrow.at(0, 1) = FourRuns(40000, 100);
  narrow.at(1, 0) = FourRuns(40000, 100);
  const HeatScale linear = HeatScaleOf(narrow);
  EXPECT_FALSE(linear.logarithmic);
  EXPECT_NEAR(HeatPosition(linear, (40 + 90.45) / 2), 0.5, 1e-12);
  EXPECT_EQ(HeatPosition(linear, 1), 0);
  EXPECT_EQ(HeatPosition(linear, 1000), 1);
  EXPECT_THAT(MatrixHeatMapSvg(narrow), HasSubstr("linear scale"));
}

TEST(MatrixPageTest, TheDiagonalAndCellsWithoutAFigureAreDrawnApartWithTheirStatus) {
  Matrix matrix = FourRanks();
  matrix.at(2, 1).status = PairStatus::kNotReached;
  const std::string svg = MatrixHeatMapSvg(matrix);
  for (int r = 0; r < 4; ++r) {
    const std::string self = CellElement(svg, r, r);
    EXPECT_THAT(self, HasSubstr("class=\"self\""));
    EXPECT_EQ(FirstText(self, "<text"), "self");
  }
  const std::string failed = CellElement(svg, 3, 1), timed_out = CellElement(svg, 3, 2);
  const std::string not_reached = CellElement(svg, 2, 1);
  EXPECT_THAT(failed, HasSubstr("class=\"failed\""));
  EXPECT_EQ(FirstText(failed, "<text"), "failed");
  // The tooltip, escaped (':' too, as every text of the map: see AHostileHostNameIsTextOnly).
  EXPECT_THAT(failed, HasSubstr("mpi&#58; peer &lt;gone&gt; &amp; &quot;away&quot;"));
  EXPECT_EQ(FirstText(timed_out, "<text"), "timed out");
  EXPECT_THAT(not_reached, HasSubstr("class=\"not-reached\""));
  EXPECT_EQ(FirstText(not_reached, "<text"), "not reached");
  // Three fills apart from each other and from every measured colour (the ramp's).
  const std::string fills[] = {CellFill(CellElement(svg, 0, 0)), CellFill(failed),
                               CellFill(not_reached)};
  EXPECT_NE(fills[0], fills[1]);
  EXPECT_NE(fills[0], fills[2]);
  EXPECT_NE(fills[1], fills[2]);
  for (int i = 0; i <= 100; ++i) {
    for (const std::string& fill : fills) EXPECT_NE(HeatColour(i / 100.0), fill);
  }
  // The table says why.
  const PageTable table = MatrixPageTable(matrix);
  EXPECT_EQ(table.rows[10][4], "failed");
  EXPECT_EQ(table.rows[10][10], "mpi: peer <gone> & \"away\"");  // escaped when rendered
  EXPECT_EQ(table.rows[10][6], "");
}

TEST(MatrixPageTest, AHostileHostNameIsTextOnly) {
  const std::string hostile = "ev<script>alert(1)</script>\"' onmouseover=x <b>&";
  const Matrix matrix = FourRanks({"alpha", hostile, "beta", hostile + "-two"});
  const ReportPage page = MatrixReportPage(matrix, RunContext{}, ExperimentHeader{});
  ASSERT_EQ(page.plots.size(), 1u);
  ASSERT_FALSE(page.plots[0].svg.empty()) << page.plots[0].missing;  // InlineableSvg kept it
  const std::string html = RenderReportPage(page);
  EXPECT_THAT(html, Not(HasSubstr("<script>alert")));
  EXPECT_THAT(html, Not(HasSubstr("<b>")));
  EXPECT_THAT(html, Not(HasSubstr("' onmouseover")));
  EXPECT_THAT(html, HasSubstr("ev&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39; onmouseover=x "
                              "&lt;b&gt;&amp;"));
  // Words the page's SVG check looks for, in a host name: the map stays, the name as text.
  const Matrix scheme = FourRanks({"alpha", "javascript:alert(1)", "@import url(x)", "b"});
  const ReportPage scheme_page = MatrixReportPage(scheme, RunContext{}, ExperimentHeader{});
  ASSERT_EQ(scheme_page.plots.size(), 1u);
  ASSERT_FALSE(scheme_page.plots[0].svg.empty()) << scheme_page.plots[0].missing;
  EXPECT_THAT(scheme_page.plots[0].svg, HasSubstr(">javascript&#58;alert(1)<"));
  EXPECT_THAT(scheme_page.plots[0].svg, HasSubstr(">&#64;import url(x)<"));
  EXPECT_THAT(scheme_page.plots[0].svg, Not(HasSubstr("javascript:")));
  // A label is cut at a character, never inside an entity or a UTF-8 sequence.
  const Matrix long_names =
      FourRanks({"alpha", std::string(20, 'x') + "\xC3\xA9\xC3\xA9", "&&&&&&&&&&&&&&&&&&", "b"});
  const std::string svg = MatrixHeatMapSvg(long_names);
  EXPECT_THAT(svg, HasSubstr(">xxxxxxxxxxxxxxx\xE2\x80\xA6<"));  // 15 bytes + "…" in a column
  EXPECT_THAT(svg, HasSubstr(">xxxxxxxxxxxxxxxxxxxx\xE2\x80\xA6<"));  // 20 + "…" in a row
  EXPECT_THAT(
      svg, HasSubstr(">&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;&amp;"
                     "\xE2\x80\xA6<"));
}

TEST(MatrixPageTest, TheHeadlineNamesFastestAndSlowestWithIntervalsThenTheVerdict) {
  const std::vector<std::string> lines = MatrixHeadlines(FourRanks());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "10 of 12 pairs measured; 1 failed, 1 timed out.");
  EXPECT_EQ(lines[1],
            "Fastest pair 2->3 (beta -> beta): 2.75000 \xC2\xB5s (one run, no interval); slowest "
            "1->2 (alpha -> beta): 90.45 \xC2\xB5s (95% interval 90.04 to 90.86 \xC2\xB5s).");
  // 2 -> 3 has one run: no test.
  EXPECT_EQ(lines[2],
            "Whether the slowest pair stands apart is not tested: pair 2->3 (beta -> beta) has "
            "one valid run, so no interval to test with.");
  Matrix tested = FourRanks();
  tested.at(2, 3) = FourRuns(2750, 20);
  // The closest is the pair of the widest interval, 1 -> 3, not the runner-up.
  EXPECT_THAT(MatrixHeadlines(tested)[2],
              HasSubstr("The slowest pair stands apart: DISTINCT from every other pair by a Welch "
                        "t-test at 5% (the closest, 1->3 (alpha -> beta), at p < 0.0001)."));
  // 50 ns under the slowest, both +-129 ns SE: t = 0.27 on 6 degrees of freedom.
  tested.at(3, 0) = FourRuns(90400, 300);
  EXPECT_THAT(MatrixHeadlines(tested)[2],
              HasSubstr("The slowest pair is not distinguishable from 3->0 (beta -> alpha) by a "
                        "Welch t-test at 5% (p = 0.79)."));
}

TEST(MatrixPageTest, APartialMatrixSaysSoFirstAndInTheCaption) {
  Matrix matrix = FourRanks();
  matrix.complete = false;
  matrix.at(3, 2) = MatrixCell{};  // not reached
  matrix.at(3, 0) = MatrixCell{};
  const ReportPage page = MatrixReportPage(matrix, RunContext{}, ExperimentHeader{});
  EXPECT_EQ(page.headlines[0],
            "PARTIAL: the run ended early \xE2\x80\x94 9 of 12 pairs measured; 2 not reached, 1 "
            "failed.");
  EXPECT_THAT(page.plots[0].caption, HasSubstr("PARTIAL"));
  EXPECT_THAT(page.plots[0].svg, HasSubstr("(partial)</title>"));
  EXPECT_THAT(CellElement(page.plots[0].svg, 3, 2), HasSubstr("class=\"not-reached\""));
  const Matrix none = EmptyMatrix("mpi", "rdtsc", 64, {"a", "b"});
  EXPECT_EQ(MatrixHeadlines(none).back(), "No pair was measured.");
  EXPECT_THAT(MatrixHeatMapSvg(none), HasSubstr("no pair measured"));
}

// The page: the headline first, the heat map its first picture, then the table; nothing
// fetched; every pair in words.
TEST(MatrixPageTest, ThePageLeadsWithTheHeadlineThenTheHeatMapThenTheTable) {
  const std::string html =
      RenderReportPage(MatrixReportPage(FourRanks(), RunContext{}, ExperimentHeader{}));
  const size_t headline = html.find("<header id=\"headline\">");
  const size_t heat_map = html.find("<svg");
  const size_t tables = html.find("<section id=\"tables\">");
  ASSERT_NE(headline, std::string::npos);
  EXPECT_LT(headline, heat_map);
  EXPECT_EQ(heat_map, html.find("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"heat-map\""));
  EXPECT_LT(heat_map, tables);
  EXPECT_THAT(html, HasSubstr("<th>averaged RTT \xC2\xB5s</th>"));
  EXPECT_THAT(html, HasSubstr("Welch t-test at 5%"));
  EXPECT_THAT(html, HasSubstr("<li>1-&gt;2 (alpha -&gt; beta): averaged RTT 90.45 \xC2\xB5s (95% "
                              "interval 90.04 to 90.86 \xC2\xB5s) over 4 runs; per-iteration p50 "
                              "88.6 \xC2\xB5s, p99 226 \xC2\xB5s.</li>"));
  EXPECT_THAT(html, HasSubstr(kReportPageCsp));
  for (const char* fetch : {"<script", "<link", "src=", "<img", "@import"}) {
    EXPECT_THAT(html, Not(HasSubstr(fetch)));
  }
}

}  // namespace
}  // namespace tickbench::harness
