#include "harness/mpi/matrix_heat_map.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "harness/mpi/matrix_verdict.h"
#include "harness/page/report_page.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

// ColorBrewer's OrRd ramp without its near-white first colour: every channel falls from
// one anchor to the next, so that a slower pair is never lighter.
constexpr std::array<std::array<int, 3>, 8> kRamp = {{{0xfe, 0xe8, 0xc8},
                                                      {0xfd, 0xd4, 0x9e},
                                                      {0xfd, 0xbb, 0x84},
                                                      {0xfc, 0x8d, 0x59},
                                                      {0xef, 0x65, 0x48},
                                                      {0xd7, 0x30, 0x1f},
                                                      {0xb3, 0x00, 0x00},
                                                      {0x7f, 0x00, 0x00}}};

// The layout, in SVG units (px at full size).
constexpr int kCellWidth = 116, kCellHeight = 50;
constexpr int kLeft = 180, kTop = 50;  // the row and column labels
constexpr int kLegendHeight = 92;
constexpr int kLegendWidth = 480;
constexpr int kRampWidth = 240;
constexpr size_t kRowHostBytes = 22, kColumnHostBytes = 16;

// The relative luminance (WCAG) of "#rrggbb".
double Luminance(absl::string_view colour) {
  double sum = 0;
  const std::array<double, 3> weight = {0.2126, 0.7152, 0.0722};
  for (int i = 0; i < 3; ++i) {
    const double c = std::stoi(std::string(colour.substr(1 + 2 * i, 2)), nullptr, 16) / 255.0;
    sum += weight[i] * (c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
  }
  return sum;
}

// `text` escaped for the map's text: HtmlEscape, and ':' and '@' as character references,
// so that a host name holding "javascript:" or "@import" reads as itself, where the page's
// check of inlined SVG (InlineableSvg, which looks for those words) would otherwise leave
// the whole map out.
std::string SvgText(absl::string_view text) {
  return absl::StrReplaceAll(HtmlEscape(text), {{":", "&#58;"}, {"@", "&#64;"}});
}

// `host` cut to at most `bytes` bytes at a character boundary, "…" added where cut; escaped.
std::string HostLabel(const std::string& host, size_t bytes) {
  if (host.size() <= bytes) return SvgText(host);
  size_t end = bytes - 1;
  while (end > 0 && (static_cast<unsigned char>(host[end]) & 0xC0) == 0x80) --end;
  return SvgText(host.substr(0, end)) + "\xE2\x80\xA6";
}

// One cell: its box and its text in the middle, lines of (text, size, style).
void AppendCell(std::string& svg, const Matrix& matrix, const HeatScale& scale, int c, int s) {
  const MatrixCell& cell = matrix.at(c, s);
  const int x = kLeft + s * kCellWidth, y = kTop + c * kCellHeight;
  const int middle = x + kCellWidth / 2;
  const std::string cls = c == s                                   ? "self"
                          : cell.status == PairStatus::kMeasured   ? "measured"
                          : cell.status == PairStatus::kNotReached ? "not-reached"
                                                                   : "failed";
  absl::StrAppend(&svg, "<g id=\"cell-", c, "-", s, "\" class=\"", cls, "\"><title>",
                  SvgText(PairInWords(matrix, c, s)), "</title>");
  auto box = [&](absl::string_view fill, absl::string_view stroke) {
    absl::StrAppendFormat(&svg,
                          "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"%s/>",
                          x + 1, y + 1, kCellWidth - 2, kCellHeight - 2, fill, stroke);
  };
  auto text = [&](int dy, absl::string_view style, absl::string_view words) {
    absl::StrAppendFormat(&svg, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" %s>%s</text>",
                          middle, y + dy, style, words);
  };
  if (cls == "self") {
    box("#e4e4e4", "");
    text(30, "font-size=\"12\" font-style=\"italic\" fill=\"#666\"", "self");
  } else if (cls == "measured") {
    const std::string fill = HeatColour(HeatPosition(scale, cell.rtt_ns / 1e3));
    const char* ink = Luminance(fill) < 0.179 ? "#fff" : "#000";
    box(fill, "");
    text(23, absl::StrFormat("font-size=\"15\" font-weight=\"bold\" fill=\"%s\"", ink),
         CellFigure(cell));
    const int decimals = CellDecimals(cell);
    text(40, absl::StrFormat("font-size=\"11\" fill=\"%s\"", ink),
         cell.valid_runs > 1
             ? absl::StrCat("\xC2\xB1 ", timing::FormatDecimals(HalfWidthUs(cell), decimals))
             : "1 run");
  } else if (cls == "failed") {
    box("#fff", " stroke=\"#a40\" stroke-width=\"2\" stroke-dasharray=\"6 3\"");
    text(23, "font-size=\"13\" font-weight=\"bold\" fill=\"#a40\"", PairStatusName(cell.status));
    text(40, "font-size=\"11\" fill=\"#a40\"", "no figure");
  } else {
    box("#fafafa", " stroke=\"#999\" stroke-width=\"1\" stroke-dasharray=\"2 3\"");
    text(30, "font-size=\"12\" font-style=\"italic\" fill=\"#777\"", "not reached");
  }
  absl::StrAppend(&svg, "</g>\n");
}

// The rank and host over each column and before each row, and what the axes are.
void AppendLabels(std::string& svg, const Matrix& matrix) {
  absl::StrAppend(&svg,
                  "<text x=\"4\" y=\"20\" font-size=\"11\" fill=\"#555\">rows: client "
                  "(measures)</text><text x=\"4\" y=\"38\" font-size=\"11\" fill=\"#555\">"
                  "columns: its echo peer</text>\n");
  for (int r = 0; r < matrix.ranks(); ++r) {
    const int column = kLeft + r * kCellWidth + kCellWidth / 2;
    absl::StrAppendFormat(&svg,
                          "<text x=\"%d\" y=\"20\" text-anchor=\"middle\" font-size=\"12\" "
                          "font-weight=\"bold\">rank %d</text><text x=\"%d\" y=\"38\" "
                          "text-anchor=\"middle\" font-size=\"11\" fill=\"#444\">%s</text>\n",
                          column, r, column, HostLabel(matrix.hosts[r], kColumnHostBytes));
    const int row = kTop + r * kCellHeight;
    absl::StrAppendFormat(&svg,
                          "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"12\" "
                          "font-weight=\"bold\">rank %d</text><text x=\"%d\" y=\"%d\" "
                          "text-anchor=\"end\" font-size=\"11\" fill=\"#444\">%s</text>\n",
                          kLeft - 8, row + 22, r, kLeft - 8, row + 38,
                          HostLabel(matrix.hosts[r], kRowHostBytes));
  }
}

// The value at `position` of the scale, in µs.
double ScaleValue(const HeatScale& scale, double position) {
  if (scale.logarithmic) {
    return scale.fastest_us * std::pow(scale.slowest_us / scale.fastest_us, position);
  }
  return scale.fastest_us + position * (scale.slowest_us - scale.fastest_us);
}

// The ramp with its ends and middle in µs, then a swatch per status.
void AppendLegend(std::string& svg, const HeatScale& scale, int top) {
  absl::StrAppend(&svg, "<g id=\"legend\">");
  if (scale.any) {
    absl::StrAppendFormat(
        &svg,
        "<text x=\"4\" y=\"%d\" font-size=\"12\">averaged RTT, \xC2\xB5s (%s scale, fastest pair "
        "to slowest)</text><rect x=\"4\" y=\"%d\" width=\"%d\" height=\"14\" "
        "fill=\"url(#heat-ramp)\" stroke=\"#999\"/>",
        top + 14, scale.logarithmic ? "logarithmic" : "linear", top + 20, kRampWidth);
    // The ends as their cells show them; the middle at the coarser of their decimals.
    const int decimals = std::min(scale.fastest_decimals, scale.slowest_decimals);
    for (const double position : {0.0, 0.5, 1.0}) {
      absl::StrAppendFormat(&svg,
                            "<text x=\"%d\" y=\"%d\" text-anchor=\"%s\" font-size=\"11\">%s</text>",
                            4 + static_cast<int>(position * kRampWidth), top + 48,
                            position == 0   ? "start"
                            : position == 1 ? "end"
                                            : "middle",
                            timing::FormatDecimals(ScaleValue(scale, position),
                                                   position == 0   ? scale.fastest_decimals
                                                   : position == 1 ? scale.slowest_decimals
                                                                   : decimals));
    }
  } else {
    absl::StrAppendFormat(&svg, "<text x=\"4\" y=\"%d\" font-size=\"12\">no pair measured</text>",
                          top + 14);
  }
  const int y = top + 62;
  const std::array<const char*, 3> names = {"self", "failed or timed out", "not reached"};
  const std::array<const char*, 3> boxes = {
      "fill=\"#e4e4e4\"",
      "fill=\"#fff\" stroke=\"#a40\" stroke-width=\"2\" stroke-dasharray=\"6 3\"",
      "fill=\"#fafafa\" stroke=\"#999\" stroke-dasharray=\"2 3\""};
  for (int i = 0; i < 3; ++i) {
    absl::StrAppendFormat(&svg,
                          "<rect x=\"%d\" y=\"%d\" width=\"22\" height=\"16\" %s/><text x=\"%d\" "
                          "y=\"%d\" font-size=\"11\">%s</text>",
                          4 + i * 150, y, boxes[i], 32 + i * 150, y + 12, names[i]);
  }
  absl::StrAppend(&svg, "</g>\n");
}

}  // namespace

HeatScale HeatScaleOf(const Matrix& matrix) {
  HeatScale scale;
  for (int c = 0; c < matrix.ranks(); ++c) {
    for (int s = 0; s < matrix.ranks(); ++s) {
      const MatrixCell& cell = matrix.at(c, s);
      if (c == s || cell.status != PairStatus::kMeasured) continue;
      const double rtt = cell.rtt_ns / 1e3;
      const int decimals = CellDecimals(cell);
      if (!scale.any || rtt < scale.fastest_us) {
        scale.fastest_us = rtt;
        scale.fastest_decimals = decimals;
      }
      if (!scale.any || rtt > scale.slowest_us) {
        scale.slowest_us = rtt;
        scale.slowest_decimals = decimals;
      }
      scale.any = true;
    }
  }
  scale.logarithmic = scale.fastest_us > 0 && scale.slowest_us > 10 * scale.fastest_us;
  return scale;
}

double HeatPosition(const HeatScale& scale, double rtt_us) {
  if (!(scale.slowest_us > scale.fastest_us)) return 0.5;
  const double position = scale.logarithmic
                              ? std::log(std::max(rtt_us, scale.fastest_us) / scale.fastest_us) /
                                    std::log(scale.slowest_us / scale.fastest_us)
                              : (rtt_us - scale.fastest_us) / (scale.slowest_us - scale.fastest_us);
  return std::clamp(position, 0.0, 1.0);
}

std::string HeatColour(double position) {
  const double at = std::clamp(position, 0.0, 1.0) * (kRamp.size() - 1);
  const size_t i = std::min(static_cast<size_t>(at), kRamp.size() - 2);
  const double f = at - i;
  std::string colour = "#";
  for (int k = 0; k < 3; ++k) {
    const double v = kRamp[i][k] + f * (kRamp[i + 1][k] - kRamp[i][k]);
    absl::StrAppendFormat(&colour, "%02x", static_cast<int>(std::lround(v)));
  }
  return colour;
}

double HalfWidthUs(const MatrixCell& cell) {
  return cell.valid_runs > 1 ? (cell.rtt_high_ns - cell.rtt_low_ns) / 2e3 : 0;
}

int CellDecimals(const MatrixCell& cell) {
  return timing::FigureDecimals(cell.rtt_ns / 1e3, HalfWidthUs(cell));
}

std::string CellFigure(const MatrixCell& cell) {
  if (cell.status != PairStatus::kMeasured) return "";
  return timing::FormatDecimals(cell.rtt_ns / 1e3, CellDecimals(cell));
}

std::string PerIterationFigure(double ns) {
  const double us = ns / 1e3;
  const int decimals = us > 0 && std::isfinite(us)
                           ? std::max(0, 2 - static_cast<int>(std::floor(std::log10(us))))
                           : 0;
  return timing::FormatDecimals(us, decimals);
}

std::string PairInWords(const Matrix& matrix, int client, int server) {
  const MatrixCell& cell = matrix.at(client, server);
  std::string words = PairName(matrix, {client, server});
  if (client == server) return words + ": self";
  if (cell.status != PairStatus::kMeasured) {
    return absl::StrCat(words, ": ", PairStatusName(cell.status), cell.error.empty() ? "" : ": ",
                        cell.error);
  }
  absl::StrAppend(&words, ": averaged RTT ", CellFigure(cell), " \xC2\xB5s");
  if (cell.valid_runs > 1) {
    const int decimals = CellDecimals(cell);
    absl::StrAppend(&words, " (95% interval ",
                    timing::FormatDecimals(std::max(0.0, cell.rtt_low_ns / 1e3), decimals), " to ",
                    timing::FormatDecimals(cell.rtt_high_ns / 1e3, decimals), " \xC2\xB5s)");
  }
  absl::StrAppendFormat(&words, " over %d run%s; per-iteration p50 %s \xC2\xB5s, p99 %s \xC2\xB5s",
                        cell.valid_runs, cell.valid_runs == 1 ? "" : "s",
                        PerIterationFigure(cell.p50_ns), PerIterationFigure(cell.p99_ns));
  return words;
}

std::string MatrixHeatMapSvg(const Matrix& matrix) {
  const HeatScale scale = HeatScaleOf(matrix);
  const int grid_bottom = kTop + matrix.ranks() * kCellHeight;
  const int width = std::max(kLeft + matrix.ranks() * kCellWidth, kLegendWidth) + 4;
  const int height = grid_bottom + kLegendHeight;
  std::string svg = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"heat-map\" viewBox=\"0 0 %d %d\" "
      "width=\"%d\" height=\"%d\" font-family=\"system-ui, sans-serif\">\n<title>averaged "
      "round-trip time of every pair of ranks%s</title>\n<defs><linearGradient id=\"heat-ramp\">",
      width, height, width, height, matrix.complete ? "" : " (partial)");
  for (size_t i = 0; i < kRamp.size(); ++i) {
    absl::StrAppendFormat(&svg, "<stop offset=\"%.4f\" stop-color=\"%s\"/>",
                          static_cast<double>(i) / (kRamp.size() - 1),
                          HeatColour(static_cast<double>(i) / (kRamp.size() - 1)));
  }
  absl::StrAppend(&svg, "</linearGradient></defs>\n");
  AppendLabels(svg, matrix);
  for (int c = 0; c < matrix.ranks(); ++c) {
    for (int s = 0; s < matrix.ranks(); ++s) AppendCell(svg, matrix, scale, c, s);
  }
  AppendLegend(svg, scale, grid_bottom + 8);
  return svg + "</svg>";
}

}  // namespace tickbench::harness
