#include "harness/compare_command.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "harness/command_status.h"
#include "harness/output_file.h"
#include "platform/system_info.h"
#include "timing/confidence.h"

namespace tickbench::harness {
namespace {

// ---- A minimal JSON reader: the subset tickbench writes (objects, arrays, strings with
// the usual escapes, numbers, true/false/null), nesting bounded. ----

struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  std::string text;
  std::vector<JsonValue> items;
  std::vector<std::pair<std::string, JsonValue>> members;

  const JsonValue* Get(absl::string_view key) const {
    for (const auto& [name, value] : members)
      if (name == key) return &value;
    return nullptr;
  }
};

constexpr int kMaxJsonDepth = 64;

class JsonParser {
 public:
  explicit JsonParser(absl::string_view text) : text_(text) {}

  absl::StatusOr<JsonValue> ParseDocument() {
    JsonValue value;
    if (absl::Status s = Parse(value, 0); !s.ok()) return s;
    SkipSpace();
    if (pos_ != text_.size()) return Error("text after the JSON value");
    return value;
  }

 private:
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrFormat("not JSON at byte %d: %s", pos_, what));
  }
  void SkipSpace() {
    while (pos_ < text_.size() && absl::ascii_isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  bool Consume(absl::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  absl::Status Parse(JsonValue& value, int depth) {
    if (depth > kMaxJsonDepth) return Error("nested too deeply");
    SkipSpace();
    if (pos_ >= text_.size()) return Error("unexpected end");
    const char c = text_[pos_];
    if (c == '{') return ParseObject(value, depth);
    if (c == '[') return ParseArray(value, depth);
    if (c == '"') {
      value.kind = JsonValue::Kind::kString;
      return ParseString(value.text);
    }
    if (Consume("true") || Consume("false")) {
      value.kind = JsonValue::Kind::kBool;
      value.boolean = text_[pos_ - 1] == 'e' && text_[pos_ - 2] == 'u';
      return absl::OkStatus();
    }
    if (Consume("null")) return absl::OkStatus();
    return ParseNumber(value);
  }

  absl::Status ParseNumber(JsonValue& value) {
    const size_t start = pos_;
    while (pos_ < text_.size() && (absl::ascii_isdigit(static_cast<unsigned char>(text_[pos_])) ||
                                   absl::string_view("+-.eE").find(text_[pos_]) !=
                                       absl::string_view::npos)) {
      ++pos_;
    }
    if (pos_ == start) return Error("expected a value");
    const std::string number(text_.substr(start, pos_ - start));
    char* end = nullptr;
    value.number = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size()) {
      pos_ = start;
      return Error("malformed number");
    }
    value.kind = JsonValue::Kind::kNumber;
    return absl::OkStatus();
  }

  absl::Status ParseString(std::string& out) {
    ++pos_;  // the quote
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return absl::OkStatus();
      if (static_cast<unsigned char>(c) < 0x20) return Error("control byte in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) break;
      const char e = text_[pos_++];
      switch (e) {
        case '"': case '\\': case '/': out += e; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (pos_ + 4 > text_.size()) return Error("short \\u escape");
          unsigned code = 0;
          for (int i = 0; i < 4; ++i) {
            const char h = text_[pos_++];
            if (!absl::ascii_isxdigit(static_cast<unsigned char>(h))) return Error("bad \\u escape");
            code = code * 16 + (absl::ascii_isdigit(static_cast<unsigned char>(h))
                                    ? h - '0'
                                    : absl::ascii_tolower(static_cast<unsigned char>(h)) - 'a' + 10);
          }
          // Names and values compared here are ASCII; anything else is kept as '?'.
          out += code < 0x80 ? static_cast<char>(code) : '?';
          break;
        }
        default:
          return Error("bad escape in a string");
      }
    }
    return Error("unterminated string");
  }

  absl::Status ParseArray(JsonValue& value, int depth) {
    value.kind = JsonValue::Kind::kArray;
    ++pos_;
    SkipSpace();
    if (Consume("]")) return absl::OkStatus();
    for (;;) {
      value.items.emplace_back();
      if (absl::Status s = Parse(value.items.back(), depth + 1); !s.ok()) return s;
      SkipSpace();
      if (Consume("]")) return absl::OkStatus();
      if (!Consume(",")) return Error("expected , or ] in an array");
    }
  }

  absl::Status ParseObject(JsonValue& value, int depth) {
    value.kind = JsonValue::Kind::kObject;
    ++pos_;
    SkipSpace();
    if (Consume("}")) return absl::OkStatus();
    for (;;) {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') return Error("expected a member name");
      std::string name;
      if (absl::Status s = ParseString(name); !s.ok()) return s;
      SkipSpace();
      if (!Consume(":")) return Error("expected : after a member name");
      JsonValue member;
      if (absl::Status s = Parse(member, depth + 1); !s.ok()) return s;
      value.members.emplace_back(std::move(name), std::move(member));
      SkipSpace();
      if (Consume("}")) return absl::OkStatus();
      if (!Consume(",")) return Error("expected , or } in an object");
    }
  }

  absl::string_view text_;
  size_t pos_ = 0;
};

double NumberAt(const JsonValue& object, absl::string_view group, absl::string_view key,
                double fallback = 0) {
  const JsonValue* g = group.empty() ? &object : object.Get(group);
  if (g == nullptr) return fallback;
  const JsonValue* v = g->Get(key);
  return v != nullptr && v->kind == JsonValue::Kind::kNumber ? v->number : fallback;
}

std::string StringAt(const JsonValue& object, absl::string_view key) {
  const JsonValue* v = object.Get(key);
  return v != nullptr && v->kind == JsonValue::Kind::kString ? v->text : "";
}

// ---- One file's figures per size. ----

struct SizeRuns {
  std::vector<double> averaged;       // averaged RTT of each valid run, ns
  std::vector<double> per_iteration;  // per-iteration mean of each valid run, ns
  double averaged_quantum = 0;        // the largest T/N of the runs
  double per_iteration_quantum = 0;   // the largest T/intervals of the runs
};

struct SweepFile {
  std::string transport;
  std::string clock;
  std::map<int64_t, SizeRuns> sizes;
};

absl::StatusOr<SweepFile> ReadSweepFile(absl::string_view text, absl::string_view name) {
  absl::StatusOr<JsonValue> root = JsonParser(text).ParseDocument();
  if (!root.ok()) return absl::InvalidArgumentError(absl::StrCat(name, ": ", root.status().message()));
  const JsonValue* results = root->Get("results");
  if (results == nullptr || results->kind != JsonValue::Kind::kArray) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, ": no \"results\" array (a sweep's --format=json output is expected)"));
  }
  SweepFile file;
  std::set<std::string> transports;
  for (const JsonValue& record : results->items) {
    if (record.kind != JsonValue::Kind::kObject) continue;
    transports.insert(StringAt(record, "transport"));
    if (file.clock.empty()) file.clock = StringAt(record, "clock");
    const JsonValue* size = record.Get("size_bytes");
    if (size == nullptr || size->kind != JsonValue::Kind::kNumber) {
      return absl::InvalidArgumentError(absl::StrCat(name, ": a result without size_bytes"));
    }
    SizeRuns& runs = file.sizes[static_cast<int64_t>(size->number)];
    const JsonValue* valid = record.Get("valid");
    if (valid != nullptr && valid->kind == JsonValue::Kind::kBool && !valid->boolean) continue;
    runs.averaged.push_back(NumberAt(record, "averaged", "rtt_ns"));
    runs.per_iteration.push_back(NumberAt(record, "per_iteration", "mean_ns"));
    runs.averaged_quantum =
        std::max(runs.averaged_quantum, NumberAt(record, "averaged", "quantum_ns"));
    const double intervals = NumberAt(record, "per_iteration", "intervals");
    if (intervals > 0) {
      runs.per_iteration_quantum =
          std::max(runs.per_iteration_quantum,
                   NumberAt(record, "averaged", "resolution_ns") / intervals);
    }
  }
  if (file.sizes.empty()) return absl::InvalidArgumentError(absl::StrCat(name, ": no results"));
  if (transports.size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, ": results of more than one transport (", absl::CHexEscape(absl::StrJoin(transports, ",")),
        ")"));
  }
  file.transport = *transports.begin();
  return file;
}

// ---- The ratio. ----

struct Ratio {
  bool valid = false;
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
  const double df = denominator > 0 ? std::pow(se, 4) / denominator
                                    : std::numeric_limits<double>::infinity();
  const double t = timing::StudentTQuantile(0.975, df);
  const double log_ratio = std::log(r.estimate);
  r.low = std::exp(log_ratio - t * se);
  r.high = std::exp(log_ratio + t * se);
  r.p_value = 2 * (1 - timing::StudentTCdf(std::fabs(log_ratio) / se, df));
  return r;
}

std::string Verdict(const Ratio& r) {
  if (!r.valid) return "no figure";
  if (r.low > 1) {
    return absl::StrFormat("B slower by %.1f%% [%.1f, %.1f], p < 0.05", (r.estimate - 1) * 100,
                           (r.low - 1) * 100, (r.high - 1) * 100);
  }
  if (r.high < 1) {
    return absl::StrFormat("B faster by %.1f%% [%.1f, %.1f], p < 0.05", (1 - r.estimate) * 100,
                           (1 - r.high) * 100, (1 - r.low) * 100);
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
    } else if (u < 0x20) {
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

}  // namespace

absl::StatusOr<std::string> CompareSweepJson(absl::string_view a_text, absl::string_view a_name,
                                             absl::string_view b_text, absl::string_view b_name,
                                             OutputFormat format) {
  absl::StatusOr<SweepFile> a = ReadSweepFile(a_text, a_name);
  if (!a.ok()) return a.status();
  absl::StatusOr<SweepFile> b = ReadSweepFile(b_text, b_name);
  if (!b.ok()) return b.status();
  if (a->transport != b->transport) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the transports differ: %s in %s, %s in %s", absl::CHexEscape(a->transport), a_name,
        absl::CHexEscape(b->transport), b_name));
  }
  std::vector<int64_t> only_a, only_b;
  for (const auto& [size, runs] : a->sizes)
    if (b->sizes.count(size) == 0) only_a.push_back(size);
  for (const auto& [size, runs] : b->sizes)
    if (a->sizes.count(size) == 0) only_b.push_back(size);
  if (!only_a.empty() || !only_b.empty()) {
    std::string message = "the sizes differ:";
    if (!only_a.empty())
      absl::StrAppend(&message, " only in ", a_name, ": ", absl::StrJoin(only_a, ","), ";");
    if (!only_b.empty())
      absl::StrAppend(&message, " only in ", b_name, ": ", absl::StrJoin(only_b, ","), ";");
    message.pop_back();
    return absl::InvalidArgumentError(message);
  }

  struct Row {
    int64_t size;
    double a_averaged, b_averaged, a_per_iteration, b_per_iteration;
    Ratio averaged, per_iteration;
  };
  std::vector<Row> rows;
  for (const auto& [size, ra] : a->sizes) {
    const SizeRuns& rb = b->sizes.at(size);
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

  std::string out;
  const char* const kMethod =
      "ratio of means across runs; 95% interval by the delta method on log(B/A), Student t "
      "with Welch-Satterthwaite df; verdict: a two-sided test at 5% per size";
  switch (format) {
    case OutputFormat::kTable: {
      absl::StrAppendFormat(&out, "A: %s (%s, clock %s)\nB: %s (%s, clock %s)\n", a_name,
                            absl::CHexEscape(a->transport), absl::CHexEscape(a->clock), b_name,
                            absl::CHexEscape(b->transport), absl::CHexEscape(b->clock));
      absl::StrAppendFormat(&out, "(%s)\n\n", absl::StrReplaceAll(kMethod, {{"; ", ";\n "}}));
      absl::StrAppendFormat(&out, "%8s  %8s %8s  %-24s  %8s %8s  %s\n", "size (B)", "avg A us",
                            "avg B us", "averaged B/A [95%]", "it A us", "it B us",
                            "per-iteration B/A [95%]");
      for (const Row& row : rows) {
        auto cell = [](const Ratio& r) {
          return r.valid ? absl::StrFormat("%.4f [%.4f, %.4f]", r.estimate, r.low, r.high)
                         : std::string("-");
        };
        absl::StrAppendFormat(&out, "%8d  %8.3f %8.3f  %-24s  %8.3f %8.3f  %s\n", row.size,
                              row.a_averaged / 1e3, row.b_averaged / 1e3, cell(row.averaged),
                              row.a_per_iteration / 1e3, row.b_per_iteration / 1e3,
                              cell(row.per_iteration));
        absl::StrAppendFormat(&out, "%8s  averaged: %s\n%8s  per-iteration: %s\n", "",
                              Verdict(row.averaged), "", Verdict(row.per_iteration));
      }
      break;
    }
    case OutputFormat::kCsv: {
      out = "size_bytes,a_averaged_rtt_ns,b_averaged_rtt_ns,averaged_ratio,averaged_ratio_low,"
            "averaged_ratio_high,averaged_p_value,averaged_verdict,a_per_iteration_mean_ns,"
            "b_per_iteration_mean_ns,per_iteration_ratio,per_iteration_ratio_low,"
            "per_iteration_ratio_high,per_iteration_p_value,per_iteration_verdict\n";
      for (const Row& row : rows) {
        absl::StrAppendFormat(&out, "%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.4g,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.4g,%s\n",
                              row.size, row.a_averaged, row.b_averaged, row.averaged.estimate,
                              row.averaged.low, row.averaged.high, row.averaged.p_value,
                              CsvCell(Verdict(row.averaged)), row.a_per_iteration,
                              row.b_per_iteration, row.per_iteration.estimate,
                              row.per_iteration.low, row.per_iteration.high,
                              row.per_iteration.p_value, CsvCell(Verdict(row.per_iteration)));
      }
      break;
    }
    case OutputFormat::kJson: {
      auto ratio_json = [](const Ratio& r, double a_ns, double b_ns) {
        return absl::StrFormat(
            "{\"a_ns\":%.6g,\"b_ns\":%.6g,\"valid\":%s,\"ratio\":%.6g,\"low\":%.6g,\"high\":%.6g,"
            "\"p_value\":%.4g,\"runs_a\":%d,\"runs_b\":%d,\"verdict\":%s}",
            a_ns, b_ns, r.valid ? "true" : "false", r.estimate, r.low, r.high, r.p_value,
            r.runs_a, r.runs_b, JsonString(Verdict(r)));
      };
      absl::StrAppend(&out, "{\"a\":", JsonString(a_name), ",\"b\":", JsonString(b_name),
                      ",\"transport\":", JsonString(a->transport),
                      ",\"confidence\":0.95,\"method\":", JsonString(kMethod), ",\"sizes\":[");
      for (size_t i = 0; i < rows.size(); ++i) {
        const Row& row = rows[i];
        absl::StrAppend(&out, i > 0 ? "," : "", "{\"size_bytes\":", row.size,
                        ",\"averaged\":", ratio_json(row.averaged, row.a_averaged, row.b_averaged),
                        ",\"per_iteration\":",
                        ratio_json(row.per_iteration, row.a_per_iteration, row.b_per_iteration),
                        "}");
      }
      absl::StrAppend(&out, "]}\n");
      break;
    }
  }
  return out;
}

int RunCompareCommand(const CommandLine& command_line, const ReportStreams& streams) {
  for (const std::string& flag : command_line.specified) {
    if (flag != "compare" && flag != "format" && flag != "flagfile" && flag != "fromenv" &&
        flag != "tryfromenv" && flag != "undefok") {
      return Usage(absl::InvalidArgumentError(absl::StrCat(
          "--", flag, ": does nothing with --compare; it applies to ",
          flag == "analyze" || flag == "list_clocks" || flag == "clock_info"
              ? "a mode of its own"
              : "a measurement or another mode")));
    }
  }
  OutputFormat format = OutputFormat::kTable;
  if (command_line.format == "csv") {
    format = OutputFormat::kCsv;
  } else if (command_line.format == "json") {
    format = OutputFormat::kJson;
  } else if (command_line.format != "table") {
    return Usage(absl::InvalidArgumentError(
        absl::StrCat("--format: ", absl::CHexEscape(command_line.format),
                     " is not one of table, csv, json")));
  }
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
      CompareSweepJson(texts[0], shown[0], texts[1], shown[1], format);
  if (!report.ok()) return Usage(WithFlag("compare", report.status()));
  streams.out(*report);
  return kExitOk;
}

}  // namespace tickbench::harness
