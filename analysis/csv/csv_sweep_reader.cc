#include "analysis/csv/csv_sweep_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analysis/csv/csv_cells.h"

namespace tickbench::analysis {
namespace {

constexpr const char* kDefaultValueColumns[] = {"averaged_rtt_ns", "rtt_ns", "value"};

using csv_internal::Escaped;
using csv_internal::LineError;
using csv_internal::Quoted;

// The header's columns for a message: each escaped, at most the first 20.
std::string ColumnList(const std::vector<std::string>& header) {
  constexpr size_t kMaxListed = 20;
  std::vector<std::string> names;
  for (size_t i = 0; i < header.size() && i < kMaxListed; ++i) names.push_back(Escaped(header[i]));
  std::string list = absl::StrJoin(names, ",");
  if (header.size() > kMaxListed) absl::StrAppendFormat(&list, ",... (%d columns)", header.size());
  return list;
}

// Whether a column name may become the sweep's value_name, which is printed as it is: valid
// UTF-8 without control characters (C0, DEL, C1), so that no terminal escape comes through.
bool PrintableName(absl::string_view name) {
  for (size_t i = 0; i < name.size();) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7f) return false;
      ++i;
      continue;
    }
    size_t length = 0;
    uint32_t code = 0;
    if ((c & 0xe0) == 0xc0) {
      length = 2, code = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      length = 3, code = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      length = 4, code = c & 0x07;
    } else {
      return false;
    }
    if (length > name.size() - i) return false;
    for (size_t k = 1; k < length; ++k) {
      const unsigned char next = static_cast<unsigned char>(name[i + k]);
      if ((next & 0xc0) != 0x80) return false;
      code = (code << 6) | (next & 0x3f);
    }
    constexpr uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < kSmallest[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      return false;  // overlong, beyond Unicode, or a surrogate
    }
    if (code <= 0x9f) return false;  // C1 controls, CSI among them
    i += length;
  }
  return true;
}

// Splits one line into trimmed fields; a field may be double-quoted, with "" for a quote.
absl::StatusOr<std::vector<std::string>> SplitFields(absl::string_view line, int line_number) {
  std::vector<std::string> fields;
  std::string field;
  bool in_quotes = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_quotes) {
      if (c != '"') {
        field += c;
      } else if (i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else {
        in_quotes = false;
      }
    } else if (c == ',') {
      fields.push_back(std::string(absl::StripAsciiWhitespace(field)));
      field.clear();
    } else if (c == '"' && absl::StripAsciiWhitespace(field).empty()) {
      field.clear();
      in_quotes = true;
    } else {
      field += c;
    }
  }
  if (in_quotes) return LineError(line_number, "unterminated quote");
  fields.push_back(std::string(absl::StripAsciiWhitespace(field)));
  return fields;
}

struct UnitSuffix {
  const char* suffix;
  const char* unit;  // of the values once scaled: "ns" or "B/s"
  double scale;      // to that unit
};

// Longest first where one ends another ("_bytes_per_s" before "_s").
constexpr UnitSuffix kUnitSuffixes[] = {
    {"_bytes_per_second", "B/s", 1},
    {"_bytes_per_s", "B/s", 1},
    {"_kib_per_s", "B/s", 1024},
    {"_kb_per_s", "B/s", 1e3},
    {"_mb_per_s", "B/s", 1e6},
    {"_ns", "ns", 1},
    {"_us", "ns", 1e3},
    {"_ms", "ns", 1e6},
    {"_s", "ns", 1e9},
};

const UnitSuffix* KnownUnit(absl::string_view column) {
  // A rate's "_per_s" is a time's "_s" too: a name with "_per_" has a rate or nothing.
  const bool rate = column.find("_per_") != absl::string_view::npos;
  for (const UnitSuffix& u : kUnitSuffixes) {
    if (rate && std::strstr(u.suffix, "_per_") == nullptr) continue;
    if (absl::EndsWith(column, u.suffix) && column.size() > strlen(u.suffix)) return &u;
  }
  return nullptr;
}

std::string KnownUnitList() {
  std::vector<std::string> names;
  for (const UnitSuffix& u : kUnitSuffixes) names.push_back(u.suffix);
  return absl::StrJoin(names, ", ");
}

// A name that ends the way a unit does without being a known one: "_per_<anything>", "_"
// and one to three letters ("rtt_sec", "rtt_min"), or a longer unit word ("rtt_usec",
// "throughput_mbps", "rtt_cycles").
bool LooksLikeUnknownUnit(absl::string_view column) {
  if (KnownUnit(column) != nullptr) return false;
  const size_t per = column.rfind("_per_");
  if (per != absl::string_view::npos && per > 0) return true;
  const size_t underscore = column.rfind('_');
  if (underscore == absl::string_view::npos || underscore == 0) return false;
  const std::string tail = absl::AsciiStrToLower(column.substr(underscore + 1));
  constexpr const char* kUnitWords[] = {"usec",   "nsec",   "msec",   "secs",  "seconds",
                                        "micros", "millis", "nanos",  "mbps",  "kbps",
                                        "gbps",   "bps",    "cycles", "ticks", "clocks"};
  for (const char* word : kUnitWords) {
    if (tail == word) return true;
  }
  return !tail.empty() && tail.size() <= 3 &&
         std::all_of(tail.begin(), tail.end(), [](char c) { return absl::ascii_isalpha(c); });
}

// Where the columns are, once the first content line has been read.
struct Layout {
  size_t fields = 2;
  size_t size = 0;
  size_t value = 1;
  int run = -1;  // no run column
  std::string value_name = "value";
  const UnitSuffix* unit = nullptr;  // the value column's, if known
  // tickbench's own CSV: the `valid` column (0 for a run that faults left with nothing
  // to time, whose figures are empty cells); -1 when absent.
  int valid = -1;
  // tickbench's averaged_quantum_ns (T/N of each run), read when the value column is
  // averaged_rtt_ns: the noise model's floor (SweepPoint::quantum); -1 when absent.
  int quantum = -1;
};

// The value column when none is named: the first of kDefaultValueColumns, else the first
// column (not `size`) whose name carries a known unit (rtt_ms, throughput_kb_per_s).
absl::StatusOr<int> DefaultValueColumn(const std::vector<std::string>& header, int size,
                                       int line_number) {
  int value = -1;
  for (const char* name : kDefaultValueColumns) {
    auto it = std::find(header.begin(), header.end(), name);
    if (it != header.end()) {
      value = static_cast<int>(it - header.begin());
      break;
    }
  }
  for (size_t i = 0; value < 0 && i < header.size(); ++i) {
    if (static_cast<int>(i) != size && KnownUnit(header[i]) != nullptr) value = i;
  }
  for (size_t i = 0; value < 0 && i < header.size(); ++i) {
    if (static_cast<int>(i) != size && LooksLikeUnknownUnit(header[i])) {
      return LineError(line_number,
                       absl::StrFormat("the column %s ends in an unknown unit; known: %s",
                                       Quoted(header[i]), KnownUnitList()));
    }
  }
  if (value < 0) {
    return LineError(line_number,
                     absl::StrFormat("no value column (averaged_rtt_ns, rtt_ns, value, or a "
                                     "name ending in a unit: %s); columns are %s",
                                     KnownUnitList(), ColumnList(header)));
  }
  return value;
}

absl::StatusOr<Layout> LayoutFromHeader(const std::vector<std::string>& header,
                                        const CsvSweepOptions& options, int line_number) {
  auto find = [&](absl::string_view name) -> int {
    auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
  };
  Layout layout;
  layout.fields = header.size();
  const int size = find("size_bytes");
  if (size < 0 && header.size() != 2) {
    return LineError(line_number,
                     absl::StrFormat("the header has no size_bytes column and is not two "
                                     "columns of size,value: %s",
                                     ColumnList(header)));
  }
  layout.size = size < 0 ? 0 : size;
  int value = -1;
  if (!options.value_column.empty()) {
    value = find(options.value_column);
    if (value < 0) {
      return LineError(line_number,
                       absl::StrFormat("no column named %s; columns are %s",
                                       Quoted(options.value_column), ColumnList(header)));
    }
  } else if (size < 0) {
    value = 1;
  } else {
    absl::StatusOr<int> found = DefaultValueColumn(header, size, line_number);
    if (!found.ok()) return found.status();
    value = *found;
  }
  if (value == static_cast<int>(layout.size)) {
    return LineError(line_number, "the value column is the size column");
  }
  if (!PrintableName(header[value])) {
    return LineError(line_number,
                     absl::StrFormat("the value column's name %s has control characters or is "
                                     "not UTF-8",
                                     Quoted(header[value])));
  }
  if (LooksLikeUnknownUnit(header[value])) {
    return LineError(line_number,
                     absl::StrFormat("the value column %s ends in an unknown unit; known: %s",
                                     Quoted(header[value]), KnownUnitList()));
  }
  layout.value = value;
  layout.value_name = header[value];
  layout.unit = KnownUnit(layout.value_name);
  if (layout.value_name == "averaged_rtt_ns") layout.quantum = find("averaged_quantum_ns");
  if (size >= 0) layout.run = find("run");
  if (size >= 0) layout.valid = find("valid");
  return layout;
}

// One data row of `layout` into `points` (by size); `runs_seen` catches a run repeated.
absl::Status AddDataRow(const std::vector<std::string>& fields, const Layout& layout,
                        int line_number, std::map<double, SweepPoint>& points,
                        std::set<std::pair<double, double>>& runs_seen) {
  // A run without a figure (retried, or a size that got none) is no data point.
  if (layout.valid >= 0 && fields[layout.valid] == "0") return absl::OkStatus();
  absl::StatusOr<double> size = csv_internal::ParseSize(fields[layout.size], line_number);
  if (!size.ok()) return size.status();
  const double scale = layout.unit == nullptr ? 1 : layout.unit->scale;
  absl::StatusOr<csv_internal::ValueCell> value =
      csv_internal::ParseValue(fields[layout.value], layout.value_name,
                               layout.unit == nullptr ? "" : layout.unit->unit, scale, line_number);
  if (!value.ok()) return value.status();
  if (layout.run >= 0) {
    absl::StatusOr<double> run = csv_internal::ParseDecimal(fields[layout.run], "run", line_number);
    if (!run.ok()) return run.status();
    if (*run < 0 || *run != std::floor(*run)) {
      return LineError(line_number, absl::StrFormat("run %g is not a whole number >= 0", *run));
    }
    if (!runs_seen.emplace(*size, *run).second) {
      return LineError(line_number,
                       absl::StrFormat("run %g of size %g appears twice", *run, *size));
    }
  }
  auto [where, added] = points.try_emplace(*size);
  if (added && points.size() > kMaxCsvSizes) {
    return LineError(
        line_number,
        absl::StrFormat("more than %d distinct sizes, the most the analysis takes", kMaxCsvSizes));
  }
  SweepPoint& point = where->second;
  point.size_bytes = *size;
  point.values.push_back(value->value);
  point.resolution = std::max(point.resolution, value->resolution);
  if (layout.quantum >= 0) {
    // An empty, unreadable or absurd quantum cell only leaves the floor out.
    double quantum = 0;
    if (absl::SimpleAtod(fields[layout.quantum], &quantum) && quantum <= kMaxSweepMagnitude &&
        quantum > point.quantum) {
      point.quantum = quantum;
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Sweep> ParseSweepCsv(absl::string_view text, const CsvSweepOptions& options) {
  Layout layout;
  bool have_layout = false;
  size_t rows = 0;
  std::map<double, SweepPoint> points;
  std::set<std::pair<double, double>> runs_seen;  // (size, run)
  int line_number = 0;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    absl::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (absl::EndsWith(line, "\r")) line.remove_suffix(1);
    if (line.size() > kMaxCsvLineBytes) {
      return LineError(line_number, absl::StrFormat("longer than %d bytes", kMaxCsvLineBytes));
    }
    const absl::string_view content = absl::StripAsciiWhitespace(line);
    if (content.empty() || content[0] == '#') continue;
    absl::StatusOr<std::vector<std::string>> fields = SplitFields(line, line_number);
    if (!fields.ok()) return fields.status();

    if (!have_layout) {
      have_layout = true;
      if (!std::all_of(fields->begin(), fields->end(), csv_internal::LooksNumeric)) {
        absl::StatusOr<Layout> from_header = LayoutFromHeader(*fields, options, line_number);
        if (!from_header.ok()) return from_header.status();
        layout = *std::move(from_header);
        continue;
      }
      if (!options.value_column.empty()) {
        return LineError(line_number, absl::StrFormat("no header, so no column named %s",
                                                      Quoted(options.value_column)));
      }
    }
    if (fields->size() != layout.fields) {
      return LineError(line_number, absl::StrFormat("expected %d fields, found %d", layout.fields,
                                                    fields->size()));
    }
    if (++rows > kMaxCsvRows) {
      return LineError(line_number, absl::StrFormat("more than %d data rows", kMaxCsvRows));
    }
    if (absl::Status s = AddDataRow(*fields, layout, line_number, points, runs_seen); !s.ok()) {
      return s;
    }
  }
  if (points.empty()) return absl::InvalidArgumentError("no data rows");
  Sweep sweep;
  sweep.value_name = layout.value_name;
  sweep.unit = layout.unit == nullptr ? "" : layout.unit->unit;
  for (auto& entry : points) sweep.points.push_back(std::move(entry.second));
  return sweep;
}

}  // namespace tickbench::analysis
