#include "harness/commands/compare_command.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "harness/commands/compare_ratio.h"
#include "harness/json/compare_input.h"
#include "harness/json/json_writer.h"
#include "harness/output/build_info.h"
#include "harness/output/command_status.h"
#include "harness/output/output_file.h"
#include "platform/facts/system_info.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {
namespace {

std::string CsvCell(absl::string_view s) {
  if (s.find_first_of(",\"\n") == absl::string_view::npos) return std::string(s);
  return absl::StrCat("\"", absl::StrReplaceAll(s, {{"\"", "\"\""}}), "\"");
}

// "64,128,... (N more)": at most the first 20 sizes, so that a mismatch of thousands of sizes
// is one short line.
std::string SomeSizes(const std::vector<int64_t>& sizes) {
  constexpr size_t kShown = 20;
  if (sizes.size() <= kShown) return absl::StrJoin(sizes, ",");
  return absl::StrCat(absl::StrJoin(sizes.begin(), sizes.begin() + kShown, ","), ",... (",
                      sizes.size() - kShown, " more)");
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
      absl::StrAppend(&message, " only in ", a_name, ": ", SomeSizes(only_a), ";");
    if (!only_b.empty())
      absl::StrAppend(&message, " only in ", b_name, ": ", SomeSizes(only_b), ";");
    message.pop_back();
    return absl::InvalidArgumentError(message);
  }
  return absl::OkStatus();
}

// One size's comparison: both files' figures and their ratios.
struct CompareRow {
  int64_t size;
  Figure a_averaged, b_averaged, a_per_iteration, b_per_iteration;
  Ratio averaged, per_iteration;
  // Every valid run of both files has its per-iteration mean equal to its averaged figure
  // (SizeRuns::per_iteration_is_averaged): the per-iteration half would repeat the averaged
  // half, and is not printed again.
  bool per_iteration_as_averaged;
};

// The rows of two comparable files, by size.
std::vector<CompareRow> CompareRows(const SweepFile& a, const SweepFile& b) {
  std::vector<CompareRow> rows;
  for (const auto& [size, ra] : a.sizes) {
    const SizeRuns& rb = b.sizes.at(size);
    rows.push_back({size, FigureOf(ra.averaged, ra.averaged_quantum),
                    FigureOf(rb.averaged, rb.averaged_quantum),
                    FigureOf(ra.per_iteration, ra.per_iteration_quantum),
                    FigureOf(rb.per_iteration, rb.per_iteration_quantum),
                    RatioOf(ra.averaged, ra.averaged_quantum, rb.averaged, rb.averaged_quantum),
                    RatioOf(ra.per_iteration, ra.per_iteration_quantum, rb.per_iteration,
                            rb.per_iteration_quantum),
                    ra.per_iteration_is_averaged && rb.per_iteration_is_averaged &&
                        !ra.averaged.empty() && !rb.averaged.empty()});
  }
  return rows;
}

constexpr char kCompareMethod[] =
    "ratio of means across runs; 95% interval by the delta method on log(B/A), Student t "
    "with Welch-Satterthwaite df; verdict: a two-sided test at 5% per size";

constexpr char kAsAveraged[] = "as averaged: each run's per-iteration mean is its averaged RTT";

// One column of the comparison table: its header and, per row, the value to print and the
// decimals it supports (the column prints all at the most of them), or text as it is.
struct Column {
  std::string header;
  std::vector<std::string> cells;
  // The widest cell or header: set by AlignColumns once the cells are final.
  size_t width = 0;
};

// Sets each column's width, once for the whole table (not once per line: a table of 10,000
// rows would otherwise measure 10^8 cells).
void AlignColumns(std::vector<Column>& columns) {
  for (Column& column : columns) {
    column.width = column.header.size();
    for (const std::string& cell : column.cells) column.width = std::max(column.width, cell.size());
  }
}

// A column of figures in us (ns / 1e3), "-" where a file has no valid run.
Column FigureColumn(const std::string& header, const std::vector<Figure>& figures) {
  std::vector<int> decimals;
  for (const Figure& f : figures) {
    if (f.runs > 0)
      decimals.push_back(timing::FigureDecimals(f.mean / 1e3, f.half / 1e3, f.quantum / 1e3));
  }
  const int shared = timing::ColumnDecimals(decimals);
  Column column{header, {}};
  for (const Figure& f : figures)
    column.cells.push_back(f.runs > 0 ? Fixed(f.mean / 1e3, shared) : "-");
  return column;
}

// A column of ratios "1.0981 [1.0912, 1.1051]" and one of their p-values.
std::pair<Column, Column> RatioColumns(const std::string& header,
                                       const std::vector<Ratio>& ratios) {
  std::vector<int> decimals;
  for (const Ratio& r : ratios)
    if (r.valid) decimals.push_back(RatioDecimals(r));
  const int shared = timing::ColumnDecimals(decimals);
  Column ratio{header, {}}, p{"p", {}};
  for (const Ratio& r : ratios) {
    if (!r.valid) {
      ratio.cells.push_back("-");
    } else if (!r.tested) {
      ratio.cells.push_back(Fixed(r.estimate, shared));
    } else {
      ratio.cells.push_back(absl::StrFormat("%s [%s, %s]", Fixed(r.estimate, shared),
                                            Fixed(r.low, shared), Fixed(r.high, shared)));
    }
    p.cells.push_back(r.tested ? timing::FormatPValue(r.p_value) : "-");
  }
  return {ratio, p};
}

// One line of the table, the text of each column `text` gives: every line of the table has
// its columns at the same offsets, each column as wide as its widest cell or header,
// numbers right-aligned, the ratios left-aligned.
std::string AlignedLine(const std::vector<Column>& columns,
                        const std::function<std::string(const Column&)>& text) {
  std::string l;
  for (const Column& column : columns) {
    const size_t width = column.width;
    const bool left = absl::StrContains(column.header, "B/A");
    const std::string t = text(column);
    absl::StrAppend(&l, l.empty() ? "" : "  ",
                    left ? absl::StrFormat("%-*s", width, t) : absl::StrFormat("%*s", width, t));
  }
  return std::string(absl::StripTrailingAsciiWhitespace(l)) + "\n";
}

std::string CompareTable(const SweepFile& a, absl::string_view a_name, const SweepFile& b,
                         absl::string_view b_name, const std::vector<CompareRow>& rows) {
  std::string out;
  absl::StrAppendFormat(&out, "A: %s (%s, clock %s)\nB: %s (%s, clock %s)\n", a_name,
                        absl::CHexEscape(a.transport), absl::CHexEscape(a.clock), b_name,
                        absl::CHexEscape(b.transport), absl::CHexEscape(b.clock));
  absl::StrAppendFormat(&out, "(%s)\n", absl::StrReplaceAll(kCompareMethod, {{"; ", ";\n "}}));
  const bool every_as_averaged = std::all_of(rows.begin(), rows.end(), [](const CompareRow& row) {
    return row.per_iteration_as_averaged;
  });
  if (every_as_averaged) {
    absl::StrAppend(&out,
                    "Each run's per-iteration mean is its averaged RTT (the same readings summed), "
                    "so the\nper-iteration half would repeat the averaged half: shown once.\n");
  }
  std::vector<Figure> figures[4];
  std::vector<Ratio> averaged, per_iteration;
  Column size{"size (B)", {}};
  for (const CompareRow& row : rows) {
    size.cells.push_back(absl::StrCat(row.size));
    figures[0].push_back(row.a_averaged);
    figures[1].push_back(row.b_averaged);
    figures[2].push_back(row.a_per_iteration);
    figures[3].push_back(row.b_per_iteration);
    averaged.push_back(row.averaged);
    per_iteration.push_back(row.per_iteration);
  }
  std::vector<Column> columns = {size, FigureColumn("avg A us", figures[0]),
                                 FigureColumn("avg B us", figures[1])};
  auto [averaged_ratio, averaged_p] = RatioColumns("averaged B/A [95%]", averaged);
  columns.push_back(averaged_ratio);
  columns.push_back(averaged_p);
  if (!every_as_averaged) {
    columns.push_back(FigureColumn("it A us", figures[2]));
    columns.push_back(FigureColumn("it B us", figures[3]));
    auto [ratio, p] = RatioColumns("per-iteration B/A [95%]", per_iteration);
    columns.push_back(ratio);
    columns.push_back(p);
    // A row whose per-iteration half is its averaged half says so once, not twice.
    for (size_t i = 0; i < rows.size(); ++i) {
      if (!rows[i].per_iteration_as_averaged) continue;
      for (size_t c = columns.size() - 4; c < columns.size(); ++c) columns[c].cells[i] = "=";
    }
  }
  AlignColumns(columns);
  absl::StrAppend(&out, "\n", AlignedLine(columns, [](const Column& c) { return c.header; }));
  for (size_t i = 0; i < rows.size(); ++i) {
    absl::StrAppend(&out, AlignedLine(columns, [i](const Column& c) { return c.cells[i]; }));
    absl::StrAppendFormat(&out, "%8s  averaged: %s\n", "", Verdict(rows[i].averaged));
    if (!every_as_averaged) {
      absl::StrAppendFormat(
          &out, "%8s  per-iteration: %s\n", "",
          rows[i].per_iteration_as_averaged ? kAsAveraged : Verdict(rows[i].per_iteration));
    }
  }
  return out;
}

// A CSV cell or JSON number written exactly (ExactNumber), or `none` where not computed.
std::string ExactOr(bool computed, double value, absl::string_view none) {
  return computed && std::isfinite(value) ? ExactNumber(value) : std::string(none);
}

std::string CompareCsv(const std::vector<CompareRow>& rows) {
  std::string out =
      "size_bytes,a_averaged_rtt_ns,b_averaged_rtt_ns,averaged_ratio,averaged_ratio_low,"
      "averaged_ratio_high,averaged_p_value,averaged_verdict,a_per_iteration_mean_ns,"
      "b_per_iteration_mean_ns,per_iteration_ratio,per_iteration_ratio_low,"
      "per_iteration_ratio_high,per_iteration_p_value,per_iteration_verdict,"
      "per_iteration_as_averaged\n";
  // A figure's cells: the two means, the ratio, its interval and p-value (each empty where
  // not computed), the verdict; every number exact.
  auto cells = [](const Figure& a, const Figure& b, const Ratio& r, bool as_averaged) {
    return absl::StrCat(ExactOr(a.runs > 0, a.mean, ""), ",", ExactOr(b.runs > 0, b.mean, ""), ",",
                        ExactOr(r.valid, r.estimate, ""), ",", ExactOr(r.tested, r.low, ""), ",",
                        ExactOr(r.tested, r.high, ""), ",", ExactOr(r.tested, r.p_value, ""), ",",
                        CsvCell(as_averaged ? kAsAveraged : Verdict(r)));
  };
  for (const CompareRow& row : rows) {
    absl::StrAppend(&out, row.size, ",", cells(row.a_averaged, row.b_averaged, row.averaged, false),
                    ",",
                    cells(row.a_per_iteration, row.b_per_iteration, row.per_iteration,
                          row.per_iteration_as_averaged),
                    ",", row.per_iteration_as_averaged ? 1 : 0, "\n");
  }
  return out;
}

std::string CompareJson(absl::string_view a_name, absl::string_view b_name,
                        absl::string_view transport, const std::vector<CompareRow>& rows) {
  // A figure that was not computed (no valid run, no ratio) is null, never 0.
  // `as_averaged`: "" for the averaged figure, else the per-iteration figure's member.
  auto ratio_json = [&](const Figure& a, const Figure& b, const Ratio& r,
                        std::optional<bool> as_averaged) {
    return absl::StrFormat(
        "{\"a_ns\":%s,\"b_ns\":%s,\"valid\":%s,\"ratio\":%s,\"low\":%s,\"high\":%s,"
        "\"p_value\":%s,\"runs_a\":%d,\"runs_b\":%d,%s\"verdict\":%s}",
        ExactOr(a.runs > 0, a.mean, "null"), ExactOr(b.runs > 0, b.mean, "null"),
        r.valid ? "true" : "false", ExactOr(r.valid, r.estimate, "null"),
        ExactOr(r.tested, r.low, "null"), ExactOr(r.tested, r.high, "null"),
        ExactOr(r.tested, r.p_value, "null"), r.runs_a, r.runs_b,
        !as_averaged.has_value() ? ""
        : *as_averaged           ? "\"as_averaged\":true,"
                                 : "\"as_averaged\":false,",
        JsonQuote(as_averaged.value_or(false) ? kAsAveraged : Verdict(r)));
  };
  std::string out;
  // The provenance every tickbench JSON opens with (as run_context's WriteProvenanceJson).
  absl::StrAppend(&out, "{\"schema_version\":", kSchemaVersion,
                  ",\"tickbench_version\":", JsonQuote(TickbenchVersion()),
                  ",\"mode\":\"compare\",\"a\":", JsonQuote(a_name), ",\"b\":", JsonQuote(b_name),
                  ",\"transport\":", JsonQuote(transport),
                  ",\"confidence\":0.95,\"method\":", JsonQuote(kCompareMethod), ",\"sizes\":[");
  for (size_t i = 0; i < rows.size(); ++i) {
    const CompareRow& row = rows[i];
    absl::StrAppend(&out, i > 0 ? "," : "", "{\"size_bytes\":", row.size, ",\"averaged\":",
                    ratio_json(row.a_averaged, row.b_averaged, row.averaged, std::nullopt),
                    ",\"per_iteration\":",
                    ratio_json(row.a_per_iteration, row.b_per_iteration, row.per_iteration,
                               row.per_iteration_as_averaged),
                    "}");
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
    default:  // refused by RunCompareCommand's parse
      break;
  }
  return absl::InvalidArgumentError("--format: --compare reports as table, csv or json");
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
  // The formats --compare renders; a format added for the measurements' Reporter is
  // refused here, naming these, until compare renders it too.
  const absl::StatusOr<OutputFormat> format = ParseOutputFormat(
      command_line.format, {OutputFormat::kTable, OutputFormat::kCsv, OutputFormat::kJson},
      "--compare");
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
    if (const int stopped = ExitIfStopped("while --compare read its files"); stopped >= 0) {
      return stopped;
    }
    if (!text.ok()) {
      return Usage(absl::InvalidArgumentError(
          absl::StrCat("--compare: cannot read ", shown[i], ": ", text.status().message())));
    }
    texts[i] = *std::move(text);
  }
  absl::StatusOr<std::string> report =
      CompareSweepJson(texts[0], shown[0], texts[1], shown[1], *format);
  // A stop while the files were parsed or compared: nothing is printed, no half a table.
  if (const int stopped = ExitIfStopped("while --compare read its files"); stopped >= 0) {
    return stopped;
  }
  if (!report.ok()) return Usage(WithFlag("compare", report.status()));
  streams.out(*report);
  return kExitOk;
}

}  // namespace tickbench::harness
