#include "harness/output/output_format.h"

#include <algorithm>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tickbench::harness {
namespace {

std::string Names(absl::Span<const OutputFormat> formats, absl::string_view separator) {
  std::vector<std::string> names;
  for (OutputFormat format : formats) names.push_back(OutputFormatFlagName(format));
  return absl::StrJoin(names, separator);
}

const std::vector<OutputFormat>& AllFormats() {
  static const std::vector<OutputFormat>* const all = [] {
    auto* formats = new std::vector<OutputFormat>;
    for (const OutputFormatName& row : kOutputFormatNames) formats->push_back(row.format);
    return formats;
  }();
  return *all;
}

}  // namespace

std::string OutputFormatFlagName(OutputFormat format) {
  for (const OutputFormatName& row : kOutputFormatNames)
    if (row.format == format) return row.name;
  return "?";
}

absl::StatusOr<OutputFormat> ParseOutputFormat(absl::string_view name) {
  return ParseOutputFormat(name, AllFormats(), "");
}

absl::StatusOr<OutputFormat> ParseOutputFormat(absl::string_view name,
                                               absl::Span<const OutputFormat> allowed,
                                               absl::string_view mode_flag) {
  const std::string quoted = absl::StrCat("'", absl::CHexEscape(name), "'");
  for (const OutputFormatName& row : kOutputFormatNames) {
    if (row.name != name) continue;
    if (std::find(allowed.begin(), allowed.end(), row.format) != allowed.end()) return row.format;
    return absl::InvalidArgumentError(absl::StrCat("--format: --", mode_flag, " reports as ",
                                                   Names(allowed, " or "), "; got ", quoted));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("--format: unknown format ", quoted, "; allowed: ", Names(allowed, ", ")));
}

}  // namespace tickbench::harness
