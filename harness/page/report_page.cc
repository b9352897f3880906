#include "harness/page/report_page.h"

#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/output/build_info.h"
#include "harness/output/terminal_text.h"
#include "harness/report/sweep_report.h"

// HtmlEscape, InlineableSvg and RenderReportPage; the pages' contents are put together in
// report_page_build.cc.

namespace tickbench::harness {
namespace {

// The reason an SVG tag (the text between '<' and '>', lower-cased) keeps the SVG out of
// the page, or "".
std::string RefusedTag(absl::string_view tag) {
  for (absl::string_view element :
       {"script", "foreignobject", "iframe", "embed", "object", "image", "style"}) {
    if (absl::StartsWith(tag, element) &&
        (tag.size() == element.size() || !absl::ascii_isalnum(tag[element.size()]))) {
      return absl::StrCat("it holds a <", element, "> element");
    }
  }
  // Attribute names: after whitespace, up to '='.
  for (size_t i = 1; i + 2 < tag.size(); ++i) {
    if (absl::ascii_isspace(tag[i - 1]) && tag[i] == 'o' && tag[i + 1] == 'n') {
      size_t j = i + 2;
      while (j < tag.size() && absl::ascii_isalpha(tag[j])) ++j;
      while (j < tag.size() && absl::ascii_isspace(tag[j])) ++j;
      if (j < tag.size() && tag[j] == '=') return "it holds an event handler attribute";
    }
  }
  // References: only to an element of the same SVG (#id).
  for (absl::string_view key : {"href", "url"}) {
    for (size_t at = tag.find(key); at != absl::string_view::npos; at = tag.find(key, at + 1)) {
      size_t j = at + key.size();
      while (j < tag.size() && absl::ascii_isspace(tag[j])) ++j;
      if (j >= tag.size() || tag[j] != (key == "url" ? '(' : '=')) continue;
      ++j;
      while (j < tag.size() && (tag[j] == '\'' || tag[j] == '"' || absl::ascii_isspace(tag[j]))) {
        ++j;
      }
      if (j >= tag.size() || tag[j] != '#') return "it refers to something outside the page";
    }
  }
  return "";
}

void AppendRow(std::string& html, absl::string_view name, absl::string_view value) {
  absl::StrAppend(&html, "<tr><th>", HtmlEscape(name), "</th><td>", HtmlEscape(value),
                  "</td></tr>\n");
}

std::string LoadText(const std::optional<platform::LoadAverage>& load) {
  if (!load) return "unknown";
  return absl::StrFormat("%.2f %.2f %.2f (1, 5, 15 minutes)", load->one_minute, load->five_minutes,
                         load->fifteen_minutes);
}

// What ran where: host, CPU, kernel, clocks, load, the flags given and the settings.
void AppendContext(std::string& html, const ReportPage& page) {
  const RunContext& c = page.context;
  const platform::SystemInfo& s = c.system;
  absl::StrAppend(&html,
                  "<details id=\"context-details\">\n<summary>What ran where: host, build, clocks, "
                  "flags</summary>\n<section id=\"context\">\n<table>\n");
  AppendRow(html, "tickbench_version", TickbenchVersion());
  AppendRow(
      html, "experiment",
      absl::StrFormat("%s over %s%s%s: %s x %s x %s", page.header.experiment, page.header.transport,
                      page.header.simulated ? " (simulated, virtual time)" : "",
                      page.header.busy_poll ? " (busy-poll receives)" : "",
                      Counted(page.header.sizes, "size"), Counted(page.header.runs, "run"),
                      Counted(page.header.iterations, "round trip")));
  AppendRow(html, "started at", c.started_at);
  AppendRow(html, "host", s.hostname);
  AppendRow(html, "CPU",
            absl::StrFormat("%s (%d CPUs, %s)%s", s.cpu_model, s.cpu_count, s.machine,
                            s.virtual_machine ? ", virtual machine" : ""));
  AppendRow(html, "kernel", absl::StrCat(s.os, " ", s.kernel));
  AppendRow(html, "clocksource", s.clocksource.empty() ? "unknown" : s.clocksource);
  AppendRow(html, "CPU governor", s.cpu_governor.empty() ? "none" : s.cpu_governor);
  AppendRow(html, "page size", absl::StrCat(s.page_size_bytes, " bytes"));
  AppendRow(html, "build", s.build_mode);
  AppendRow(html, "load average at start", LoadText(c.load_average_start));
  AppendRow(html, "load average at end", LoadText(c.load_average_end));
  if (!c.peer.empty()) AppendRow(html, "peer", c.peer);
  absl::StrAppend(&html, "</table>\n<h3>Clocks</h3>\n<table>\n<tr><th>role</th><th>clock</th>",
                  "<th>claimed resolution</th><th>observed</th><th>read cost</th></tr>\n");
  for (const ClockDescription& clock : c.clocks) {
    absl::StrAppend(&html, "<tr><td>", HtmlEscape(clock.role), "</td><td>",
                    HtmlEscape(clock.info.name), "</td><td>",
                    HtmlEscape(absl::FormatDuration(clock.info.claimed_resolution)), "</td><td>",
                    HtmlEscape(clock.probe.observed_resolution == absl::ZeroDuration()
                                   ? "none (never changed)"
                                   : absl::FormatDuration(clock.probe.observed_resolution)),
                    "</td><td>", HtmlEscape(absl::StrFormat("%.1f ns", clock.probe.read_cost_ns)),
                    "</td></tr>\n");
  }
  absl::StrAppend(&html, "</table>\n<h3>Flags given</h3>\n<table>\n");
  for (const auto& [name, value] : c.flags) AppendRow(html, absl::StrCat("--", name), value);
  if (c.flags.empty()) AppendRow(html, "(none)", "every setting is its default");
  absl::StrAppend(&html, "</table>\n<details><summary>Settings in force</summary>\n<table>\n");
  for (const Setting& setting : c.settings) {
    AppendRow(html, setting.name,
              absl::StrCat(setting.text, " (", setting.type, setting.given ? ", given)" : ")"));
  }
  absl::StrAppend(&html, "</table>\n</details>\n</section>\n</details>\n");
}

// The point of the page, first: one sentence per headline, then the title and what ran.
void AppendHeadline(std::string& html, const ReportPage& page) {
  absl::StrAppend(&html, "<header id=\"headline\">\n<ul class=\"headline\">\n");
  for (const std::string& line : page.headlines) {
    absl::StrAppend(&html, "<li>", HtmlEscape(line), "</li>\n");
  }
  absl::StrAppend(&html, "</ul>\n<p class=\"title\">", HtmlEscape(page.title));
  if (page.header.runs > 0) {  // a measurement's
    absl::StrAppend(
        &html, " &middot; ",
        HtmlEscape(absl::StrFormat(
            "%d size%s x %d%s runs x %s round trips%s%s", page.header.sizes,
            page.header.sizes == 1 ? "" : "s", page.header.runs, page.header.runs_added ? "+" : "",
            page.header.iterations_chosen
                ? absl::StrFormat("N (chosen per cell, at least %d)", page.header.iterations)
                : absl::StrCat(page.header.iterations),
            page.header.simulated ? ", simulated (virtual time)" : "",
            page.header.busy_poll ? ", busy-poll receives" : "")));
  }
  absl::StrAppend(&html, " &middot; ", HtmlEscape(page.context.started_at), "</p>\n</header>\n");
}

// A cell is right-aligned where it starts with a digit, a sign or a decimal point.
bool Numeric(absl::string_view cell) {
  return !cell.empty() &&
         (absl::ascii_isdigit(cell[0]) || cell[0] == '-' || cell[0] == '+' || cell[0] == '.');
}

void AppendTable(std::string& html, const PageTable& table) {
  if (!table.caption.empty()) {
    absl::StrAppend(&html, "<h3>", HtmlEscape(table.caption), "</h3>\n");
  }
  absl::StrAppend(&html, "<table class=\"results\">\n<thead>\n");
  if (!table.groups.empty()) {
    absl::StrAppend(&html, "<tr class=\"groups\">");
    for (const auto& [name, span] : table.groups) {
      absl::StrAppend(&html, "<th colspan=\"", span, "\">", HtmlEscape(name), "</th>");
    }
    absl::StrAppend(&html, "</tr>\n");
  }
  absl::StrAppend(&html, "<tr>");
  for (const std::string& name : table.columns) {
    absl::StrAppend(&html, "<th>", HtmlEscape(name), "</th>");
  }
  absl::StrAppend(&html, "</tr>\n</thead>\n<tbody>\n");
  for (const std::vector<std::string>& row : table.rows) {
    absl::StrAppend(&html, "<tr>");
    for (const std::string& cell : row) {
      absl::StrAppend(&html, Numeric(cell) ? "<td class=\"n\">" : "<td>", HtmlEscape(cell),
                      "</td>");
    }
    absl::StrAppend(&html, "</tr>\n");
  }
  absl::StrAppend(&html, "</tbody>\n</table>\n");
}

void AppendTables(std::string& html, const ReportPage& page) {
  absl::StrAppend(&html, "<section id=\"tables\">\n<h2>Results</h2>\n");
  for (const PageTable& table : page.result_tables) AppendTable(html, table);
  if (page.result_tables.empty()) {
    absl::StrAppend(&html, "<pre class=\"table\">", HtmlEscape(page.tables), "</pre>\n");
  }
  if (!page.legend.empty()) {
    absl::StrAppend(&html, "<p class=\"legend\">", HtmlEscape(page.legend), "</p>\n");
  }
  absl::StrAppend(&html, "</section>\n");
}

void AppendVerdicts(std::string& html, const ReportPage& page) {
  if (!page.context.warnings.empty()) {
    absl::StrAppend(&html,
                    "<section id=\"warnings\">\n<h2>Warnings</h2>\n<ul class=\"warnings\">\n");
    for (const std::string& w : page.context.warnings) {
      absl::StrAppend(&html, "<li>", HtmlEscape(w), "</li>\n");
    }
    absl::StrAppend(&html, "</ul>\n</section>\n");
  }
  if (!page.analysis.empty()) {
    absl::StrAppend(&html, "<section id=\"analysis\">\n<h2>Steps</h2>\n<pre class=\"analysis\">",
                    HtmlEscape(page.analysis), "</pre>\n</section>\n");
  }
  absl::StrAppend(&html,
                  "<details id=\"verdicts-details\">\n<summary>Every figure in words</summary>\n"
                  "<section id=\"verdicts\">\n<ul class=\"verdicts\">\n");
  for (const std::string& v : page.verdicts) {
    absl::StrAppend(&html, "<li>", HtmlEscape(v), "</li>\n");
  }
  absl::StrAppend(&html, "</ul>\n</section>\n</details>\n");
}

void AppendPlots(std::string& html, const ReportPage& page) {
  absl::StrAppend(&html, "<section id=\"plots\">\n");
  for (const ReportPlot& plot : page.plots) {
    absl::StrAppend(&html, "<figure>\n");
    if (!plot.svg.empty()) {
      absl::StrAppend(&html, plot.svg, "\n");
    } else {
      absl::StrAppend(&html, "<p class=\"missing\">The plot is missing: ", HtmlEscape(plot.missing),
                      "</p>\n");
    }
    absl::StrAppend(&html, "<figcaption>", HtmlEscape(plot.caption), "</figcaption>\n</figure>\n");
  }
  absl::StrAppend(&html, "</section>\n");
}

constexpr char kStyle[] =
    "body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:76em;padding:0 1em;"
    "color:#222;line-height:1.4}"
    "#headline{border-left:6px solid #009988;padding:.2em 1em;margin-bottom:1.5em}"
    "ul.headline{list-style:none;padding:0;margin:.3em 0;font-size:1.35em;font-weight:600}"
    "ul.headline li{margin:.35em 0}"
    ".title{color:#666;margin:.3em 0}"
    "h2{font-size:1.2em;margin:1.5em 0 .5em}h3{font-size:1em;margin:1em 0 .3em}"
    "table{border-collapse:collapse;margin:.5em 0}"
    "th,td{border:1px solid #ddd;padding:.25em .6em;text-align:left;vertical-align:top}"
    "table.results td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    "table.results tbody tr:nth-child(odd){background:#f6f8fa}"
    "table.results tr.groups th{text-align:center;background:#eef3f6}"
    ".legend{font-size:85%;color:#555;max-width:60em}"
    "pre{background:#f6f6f6;padding:.5em;overflow-x:auto;font-size:85%}"
    "figure{margin:1em 0}svg{max-width:100%;height:auto}figcaption{color:#555}"
    "details{margin:1em 0}summary{cursor:pointer;font-weight:600}"
    ".missing,.warnings{color:#a40}";

}  // namespace

std::string HtmlEscape(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  ForEachTextUnit(text, [&out](absl::string_view bytes, TextUnit kind, uint32_t code_point) {
    if (kind == TextUnit::kPrinting) {
      switch (bytes.size() == 1 ? bytes[0] : '\0') {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        case '\'':
          out += "&#39;";
          break;
        default:
          out.append(bytes.data(), bytes.size());
      }
    } else if (code_point == '\t' || code_point == '\n' || code_point == '\r') {
      out.append(bytes.data(), bytes.size());  // (an invalid byte is 0x80 and up)
    } else {  // a control, a bidirectional override or a byte that is not UTF-8: visible
      for (const char b : bytes)
        absl::StrAppendFormat(&out, "\\x%02x", static_cast<unsigned char>(b));
    }
  });
  return out;
}

absl::StatusOr<std::string> InlineableSvg(absl::string_view svg) {
  const std::string lower = absl::AsciiStrToLower(svg);
  const size_t begin = lower.find("<svg");
  const size_t end = lower.rfind("</svg>");
  if (begin == std::string::npos || end == std::string::npos || end < begin) {
    return absl::InvalidArgumentError("the plot holds no <svg> element");
  }
  const absl::string_view element = absl::string_view(lower).substr(begin, end + 6 - begin);
  if (absl::StrContains(element, "javascript:") || absl::StrContains(element, "@import")) {
    return absl::InvalidArgumentError("the plot was left out: it holds a script or an import");
  }
  for (size_t open = element.find('<'); open != absl::string_view::npos;
       open = element.find('<', open + 1)) {
    const size_t close = element.find('>', open);
    const absl::string_view tag = element.substr(
        open + 1, close == absl::string_view::npos ? absl::string_view::npos : close - open - 1);
    if (const std::string why = RefusedTag(tag); !why.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("the plot was left out: ", why));
    }
  }
  return std::string(svg.substr(begin, end + 6 - begin));
}

std::string RenderReportPage(const ReportPage& page) {
  std::string html = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"",
      kReportPageCsp, "\">\n<meta name=\"referrer\" content=\"no-referrer\">\n<title>",
      HtmlEscape(page.title), "</title>\n<style>", kStyle, "</style>\n</head>\n<body>\n");
  AppendHeadline(html, page);
  AppendPlots(html, page);
  AppendTables(html, page);
  AppendVerdicts(html, page);
  AppendContext(html, page);
  absl::StrAppend(&html, "<footer><p>Written by ", HtmlEscape(VersionLine()),
                  ".</p></footer>\n</body>\n</html>\n");
  return html;
}

}  // namespace tickbench::harness
