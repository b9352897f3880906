#include "harness/commands/compare_command.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "harness/engine/no_figure.h"
#include "harness/json/compare_input.h"
#include "harness/output/build_info.h"
#include "harness/output/command_status.h"
#include "harness/output/output_file.h"
#include "platform/facts/system_info.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

// ---- The ratio. ----

struct Ratio {
  bool valid = false;     // a ratio: both means positive
  bool tested = false;    // an interval and a p-value: valid, 2 runs or more a side, finite
  bool too_wide = false;  // 2 runs or more a side, but the interval overflows (no test)
  double estimate = 0, low = 0, high = 0;
  double p_value = 1;
  int runs_a = 0, runs_b = 0;
};

Ratio RatioOf(const std::vector<double>& a, double quantum_a, const std::vector<double>& b,
              double quantum_b) {
  Ratio r;
  r.runs_a = static_cast<int>(a.size());
  r.runs_b = static_cast<int>(b.size());
  const timing::ConfidenceInterval ia = timing::AcrossRunsInterval(
      a, timing::QuantizedSdFloor(quantum_a, static_cast<int64_t>(a.size())));
  const timing::ConfidenceInterval ib = timing::AcrossRunsInterval(
      b, timing::QuantizedSdFloor(quantum_b, static_cast<int64_t>(b.size())));
  if (a.empty() || b.empty() || !(ia.estimate > 0) || !(ib.estimate > 0)) return r;
  r.valid = true;
  r.estimate = ib.estimate / ia.estimate;
  // One run has no spread: a t test needs two a side (a quantum floor is no run spread).
  if (a.size() < 2 || b.size() < 2) return r;
  r.tested = true;
  // Relative standard errors; an invalid interval (one run, no floor) gives none.
  const double ra = ia.valid ? ia.standard_error / ia.estimate : 0;
  const double rb = ib.valid ? ib.standard_error / ib.estimate : 0;
  const double se = std::sqrt(ra * ra + rb * rb);
  if (!(se > 0)) {
    // Nothing varies: the ratio is exact.
    r.low = r.high = r.estimate;
    r.p_value = r.estimate == 1 ? 1 : 0;
    return r;
  }
  // Welch-Satterthwaite on the log scale.
  auto term = [](double rel, const timing::ConfidenceInterval& ci) {
    if (rel == 0) return 0.0;
    const double df = ci.degrees_of_freedom;
    return std::isinf(df) || df <= 0 ? 0.0 : std::pow(rel, 4) / df;
  };
  const double denominator = term(ra, ia) + term(rb, ib);
  const double df =
      denominator > 0 ? std::pow(se, 4) / denominator : std::numeric_limits<double>::infinity();
  const double t = timing::StudentTQuantile(0.975, df);
  const double log_ratio = std::log(r.estimate);
  r.low = std::exp(log_ratio - t * se);
  r.high = std::exp(log_ratio + t * se);
  r.p_value = 2 * (1 - timing::StudentTCdf(std::fabs(log_ratio) / se, df));
  // A spread of many times the mean leaves exp() no finite bound: no interval, no test.
  r.too_wide = !(r.low > 0) || !std::isfinite(r.high);
  r.tested = !r.too_wide;
  return r;
}

// `x` with `decimals` decimals, or from 1e6 on with decimals + 1 significant digits: no
// absurd ratio is printed as a 40-digit number.
std::string Fixed(double x, int decimals) {
  return std::fabs(x) < 1e6 ? absl::StrFormat("%.*f", decimals, x)
                            : absl::StrFormat("%.*g", decimals + 1, x);
}

std::string Verdict(const Ratio& r) {
  if (!r.valid) return "no figure";
  if (r.too_wide) return "no test: the runs spread too widely for an interval";
  if (!r.tested) {
    const bool a_short = r.runs_a < 2;
    return absl::StrFormat("no test: %s has %d run; the t test needs 2 or more on each side",
                           a_short ? "A" : "B", a_short ? r.runs_a : r.runs_b);
  }
  if (r.low > 1) {
    return absl::StrFormat("B slower by %s%% [%s, %s], p < 0.05", Fixed((r.estimate - 1) * 100, 1),
                           Fixed((r.low - 1) * 100, 1), Fixed((r.high - 1) * 100, 1));
  }
  if (r.high < 1) {
    return absl::StrFormat("B faster by %s%% [%s, %s], p < 0.05", Fixed((1 - r.estimate) * 100, 1),
                           Fixed((1 - r.high) * 100, 1), Fixed((1 - r.low) * 100, 1));
  }
  return "no difference at 5%";
}

std::string JsonString(absl::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {  // no control byte, DEL too, reaches a terminal
      absl::StrAppendFormat(&out, "\\u%04x", u);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string CsvCell(absl::string_view s) {
  if (s.find_first_of(",\"\n") == absl::string_view::npos) return std::string(s);
  return absl::StrCat("\"", absl::StrReplaceAll(s, {{"\"", "\"\""}}), "\"");
}

// Why two files cannot be compared (their transports or their sizes differ); OK otherwise.
absl::Status CheckComparable(const SweepFile& a, absl::string_view a_name, const SweepFile& b,
                             absl::string_view b_name) {
  if (a.transport != b.transport) {
    return absl::InvalidArgumentError(absl::StrFormat("the transports differ: %s in %s, %s in %s",
                                                      absl::CHexEscape(a.transport), a_name,
                                                      absl::CHexEscape(b.transport), b_name));
  }
  std::vector<int64_t> only_a, only_b;
  for (const auto& [size, runs] : a.sizes)
    if (b.sizes.count(size) == 0) only_a.push_back(size);
  for (const auto& [size, runs] : b.sizes)
    if (a.sizes.count(size) == 0) only_b.push_back(size);
  if (!only_a.empty() || !only_b.empty()) {
    std::string message = "the sizes differ:";
    if (!only_a.empty())
      absl::StrAppend(&message, " only in ", a_name, ": ", absl::StrJoin(only_a, ","), ";");
    if (!only_b.empty())
      absl::StrAppend(&message, " only in ", b_name, ": ", absl::StrJoin(only_b, ","), ";");
    message.pop_back();
    return absl::InvalidArgumentError(message);
  }
  return absl::OkStatus();
}

// One size's comparison: both files' mean figures and their ratios.
struct CompareRow {
  int64_t size;
  double a_averaged, b_averaged, a_per_iteration, b_per_iteration;
  Ratio averaged, per_iteration;
};

// The rows of two comparable files, by size.
std::vector<CompareRow> CompareRows(const SweepFile& a, const SweepFile& b) {
  std::vector<CompareRow> rows;
  for (const auto& [size, ra] : a.sizes) {
    const SizeRuns& rb = b.sizes.at(size);
    auto mean = [](const std::vector<double>& v) {
      double sum = 0;
      for (double x : v) sum += x;
      return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
    };
    rows.push_back({size, mean(ra.averaged), mean(rb.averaged), mean(ra.per_iteration),
                    mean(rb.per_iteration),
                    RatioOf(ra.averaged, ra.averaged_quantum, rb.averaged, rb.averaged_quantum),
                    RatioOf(ra.per_iteration, ra.per_iteration_quantum, rb.per_iteration,
                            rb.per_iteration_quantum)});
  }
  return rows;
}

constexpr char kCompareMethod[] =
    "ratio of means across runs; 95% interval by the delta method on log(B/A), Student t "
    "with Welch-Satterthwaite df; verdict: a two-sided test at 5% per size";

std::string CompareTable(const SweepFile& a, absl::string_view a_name, const SweepFile& b,
                         absl::string_view b_name, const std::vector<CompareRow>& rows) {
  std::string out;
  absl::StrAppendFormat(&out, "A: %s (%s, clock %s)\nB: %s (%s, clock %s)\n", a_name,
                        absl::CHexEscape(a.transport), absl::CHexEscape(a.clock), b_name,
                        absl::CHexEscape(b.transport), absl::CHexEscape(b.clock));
  absl::StrAppendFormat(&out, "(%s)\n\n", absl::StrReplaceAll(kCompareMethod, {{"; ", ";\n "}}));
  absl::StrAppendFormat(&out, "%8s  %8s %8s  %-24s  %8s %8s  %s\n", "size (B)", "avg A us",
                        "avg B us", "averaged B/A [95%]", "it A us", "it B us",
                        "per-iteration B/A [95%]");
  for (const CompareRow& row : rows) {
    auto cell = [](const Ratio& r) {
      if (!r.valid) return std::string("-");
      return r.tested ? absl::StrFormat("%s [%s, %s]", Fixed(r.estimate, 4), Fixed(r.low, 4),
                                        Fixed(r.high, 4))
                      : Fixed(r.estimate, 4);
    };
    absl::StrAppendFormat(&out, "%8d  %8s %8s  %-24s  %8s %8s  %s\n", row.size,
                          Fixed(row.a_averaged / 1e3, 3), Fixed(row.b_averaged / 1e3, 3),
                          cell(row.averaged), Fixed(row.a_per_iteration / 1e3, 3),
                          Fixed(row.b_per_iteration / 1e3, 3), cell(row.per_iteration));
    absl::StrAppendFormat(&out, "%8s  averaged: %s\n%8s  per-iteration: %s\n", "",
                          Verdict(row.averaged), "", Verdict(row.per_iteration));
  }
  return out;
}

std::string CompareCsv(const std::vector<CompareRow>& rows) {
  std::string out =
      "size_bytes,a_averaged_rtt_ns,b_averaged_rtt_ns,averaged_ratio,averaged_ratio_low,"
      "averaged_ratio_high,averaged_p_value,averaged_verdict,a_per_iteration_mean_ns,"
      "b_per_iteration_mean_ns,per_iteration_ratio,per_iteration_ratio_low,"
      "per_iteration_ratio_high,per_iteration_p_value,per_iteration_verdict\n";
  // A ratio's cells: the ratio, its interval and p-value (each no figure where not
  // computed), the verdict.
  auto ratio_cells = [](const Ratio& r) {
    auto cell = [](bool computed, double value, int digits) {
      return FigureTextSignificant(computed ? value : kNoFigure, digits, kNoFigureCsv);
    };
    return absl::StrCat(cell(r.valid, r.estimate, 6), ",", cell(r.tested, r.low, 6), ",",
                        cell(r.tested, r.high, 6), ",", cell(r.tested, r.p_value, 4), ",",
                        CsvCell(Verdict(r)));
  };
  for (const CompareRow& row : rows) {
    absl::StrAppendFormat(&out, "%d,%.6g,%.6g,%s,%.6g,%.6g,%s\n", row.size, row.a_averaged,
                          row.b_averaged, ratio_cells(row.averaged), row.a_per_iteration,
                          row.b_per_iteration, ratio_cells(row.per_iteration));
  }
  return out;
}

std::string CompareJson(absl::string_view a_name, absl::string_view b_name,
                        absl::string_view transport, const std::vector<CompareRow>& rows) {
  // A figure that was not computed (no valid run, no ratio) is null, never 0.
  auto number = [](bool computed, double value, int digits = 6) {
    return computed && std::isfinite(value) ? absl::StrFormat("%.*g", digits, value)
                                            : std::string("null");
  };
  auto ratio_json = [&](const Ratio& r, double a_ns, double b_ns) {
    return absl::StrFormat(
        "{\"a_ns\":%s,\"b_ns\":%s,\"valid\":%s,\"ratio\":%s,\"low\":%s,\"high\":%s,"
        "\"p_value\":%s,\"runs_a\":%d,\"runs_b\":%d,\"verdict\":%s}",
        number(r.runs_a > 0, a_ns), number(r.runs_b > 0, b_ns), r.valid ? "true" : "false",
        number(r.valid, r.estimate), number(r.tested, r.low), number(r.tested, r.high),
        number(r.tested, r.p_value, 4), r.runs_a, r.runs_b, JsonString(Verdict(r)));
  };
  std::string out;
  // The provenance every tickbench JSON opens with (as run_context's WriteProvenanceJson).
  absl::StrAppend(&out, "{\"schema_version\":", kSchemaVersion,
                  ",\"tickbench_version\":", JsonString(TickbenchVersion()),
                  ",\"mode\":\"compare\",\"a\":", JsonString(a_name), ",\"b\":", JsonString(b_name),
                  ",\"transport\":", JsonString(transport),
                  ",\"confidence\":0.95,\"method\":", JsonString(kCompareMethod), ",\"sizes\":[");
  for (size_t i = 0; i < rows.size(); ++i) {
    const CompareRow& row = rows[i];
    absl::StrAppend(&out, i > 0 ? "," : "", "{\"size_bytes\":", row.size,
                    ",\"averaged\":", ratio_json(row.averaged, row.a_averaged, row.b_averaged),
                    ",\"per_iteration\":",
                    ratio_json(row.per_iteration, row.a_per_iteration, row.b_per_iteration), "}");
  }
  absl::StrAppend(&out, "]}\n");
  return out;
}

}  // namespace

absl::StatusOr<std::string> CompareSweepJson(absl::string_view a_text, absl::string_view a_name,
                                             absl::string_view b_text, absl::string_view b_name,
                                             OutputFormat format) {
  absl::StatusOr<SweepFile> a = ReadSweepFile(a_text, a_name);
  if (!a.ok()) return a.status();
  absl::StatusOr<SweepFile> b = ReadSweepFile(b_text, b_name);
  if (!b.ok()) return b.status();
  if (absl::Status s = CheckComparable(*a, a_name, *b, b_name); !s.ok()) return s;
  const std::vector<CompareRow> rows = CompareRows(*a, *b);
  switch (format) {
    case OutputFormat::kTable:
      return CompareTable(*a, a_name, *b, b_name, rows);
    case OutputFormat::kCsv:
      return CompareCsv(rows);
    case OutputFormat::kJson:
      return CompareJson(a_name, b_name, a->transport, rows);
  }
  return std::string();
}

int RunCompareCommand(const CommandLine& command_line, const ReportStreams& streams) {
  for (const std::string& flag : command_line.specified) {
    if (flag != "compare" && flag != "format" && flag != "flagfile" && flag != "fromenv" &&
        flag != "tryfromenv" && flag != "undefok") {
      return Usage(absl::InvalidArgumentError(
          absl::StrCat("--", flag, ": does nothing with --compare; it applies to ",
                       flag == "analyze" || flag == "list_clocks" || flag == "clock_info"
                           ? "a mode of its own"
                           : "a measurement or another mode")));
    }
  }
  const absl::StatusOr<OutputFormat> format = ParseOutputFormat(command_line.format);
  if (!format.ok()) return Usage(format.status());
  const std::vector<std::string> names = absl::StrSplit(command_line.compare, ',');
  if (names.size() != 2 || names[0].empty() || names[1].empty()) {
    return Usage(absl::InvalidArgumentError(
        "--compare: takes two JSON result files, A.json,B.json (B is compared with A)"));
  }
  std::string texts[2];
  std::string shown[2];
  for (int i = 0; i < 2; ++i) {
    const std::string resolved = ResolveUserPath(names[i]);
    shown[i] = absl::CHexEscape(resolved);
    absl::StatusOr<std::string> text = platform::ReadUserFile(resolved);
    if (!text.ok()) {
      return Usage(absl::InvalidArgumentError(
          absl::StrCat("--compare: cannot read ", shown[i], ": ", text.status().message())));
    }
    texts[i] = *std::move(text);
  }
  absl::StatusOr<std::string> report =
      CompareSweepJson(texts[0], shown[0], texts[1], shown[1], *format);
  if (!report.ok()) return Usage(WithFlag("compare", report.status()));
  streams.out(*report);
  return kExitOk;
}

}  // namespace tickbench::harness
