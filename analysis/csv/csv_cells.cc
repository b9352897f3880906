#include "analysis/csv/csv_cells.h"

#include <cmath>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analysis/csv/csv_sweep_reader.h"
#include "analysis/csv/printed_resolution.h"
#include "analysis/sweep.h"

namespace tickbench::analysis::csv_internal {

absl::Status LineError(int line, absl::string_view problem) {
  return absl::InvalidArgumentError(absl::StrFormat("line %d: %s", line, problem));
}

std::string Escaped(absl::string_view text) {
  if (text.size() <= kMaxQuotedBytes) return absl::CHexEscape(text);
  return absl::StrCat(absl::CHexEscape(text.substr(0, kMaxQuotedBytes)), "...");
}

std::string Quoted(absl::string_view text) { return absl::StrCat("'", Escaped(text), "'"); }

bool LooksNumeric(absl::string_view field) {
  double ignored;
  return absl::SimpleAtod(field, &ignored);
}

absl::StatusOr<double> ParseDecimal(absl::string_view field, absl::string_view column, int line) {
  double value;
  const char* problem = nullptr;
  if (!absl::SimpleAtod(field, &value)) {
    problem = "is not a number";
  } else if (!std::isfinite(value)) {
    problem = "is not finite";
  } else if (!IsPlainDecimal(field)) {
    problem = "is not a decimal number";
  }
  if (problem != nullptr) {
    return LineError(line, absl::StrFormat("%s %s %s", Escaped(column), Quoted(field), problem));
  }
  return value;
}

absl::StatusOr<double> ParseSize(absl::string_view field, int line) {
  absl::StatusOr<double> size = ParseDecimal(field, "size", line);
  if (!size.ok()) return size.status();
  if (*size <= 0) return LineError(line, absl::StrFormat("size %g is not positive", *size));
  if (*size > kMaxSweepSizeBytes) {
    return LineError(line, absl::StrFormat("size %s is past %.0f bytes, the transports' "
                                           "largest message",
                                           Quoted(field), kMaxSweepSizeBytes));
  }
  if (*size != std::floor(*size)) {
    return LineError(line,
                     absl::StrFormat("size %s is not a whole number of bytes", Quoted(field)));
  }
  return size;
}

absl::StatusOr<ValueCell> ParseValue(absl::string_view field, absl::string_view column,
                                     absl::string_view unit, double scale, int line) {
  absl::StatusOr<double> cell = ParseDecimal(field, column, line);
  if (!cell.ok()) return cell.status();
  const double value = *cell * scale;
  if (value < 0) {
    return LineError(line, absl::StrFormat("%s %s is negative: a time or a throughput is not",
                                           Escaped(column), Quoted(field)));
  }
  if (unit == "B/s" && value == 0) {
    return LineError(line, absl::StrFormat("%s %s is not positive: a throughput of 0 has no "
                                           "round-trip time",
                                           Escaped(column), Quoted(field)));
  }
  if (!InSweepRange(value)) {
    const std::string unit_text = unit.empty() ? "" : absl::StrCat(" ", unit);
    return LineError(
        line, absl::StrFormat("%s %s is out of range%s: the analysis takes %s%s", Escaped(column),
                              Quoted(field),
                              scale == 1 ? "" : absl::StrFormat(" (%g%s)", value, unit_text),
                              SweepRangeText(), unit_text));
  }
  const double resolution = scale * PrintedResolution(field);
  if (resolution > kMaxSweepMagnitude) {
    return LineError(
        line, absl::StrFormat("%s %s is written to +-%g: the analysis takes a "
                              "resolution of at most %g",
                              Escaped(column), Quoted(field), resolution, kMaxSweepMagnitude));
  }
  return ValueCell{value, resolution};
}

}  // namespace tickbench::analysis::csv_internal
