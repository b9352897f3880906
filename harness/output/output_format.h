// The formats a report is written in (--format), and the one parser of their names.
// A new format: its enumerator and its row in kOutputFormatNames here, and its renderer.
#ifndef HARNESS_OUTPUT_OUTPUT_FORMAT_H_
#define HARNESS_OUTPUT_OUTPUT_FORMAT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace tickbench::harness {

enum class OutputFormat { kTable, kCsv, kJson };

// Every format with the name --format takes, in the order messages list them.
struct OutputFormatName {
  OutputFormat format;
  const char* name;
};
inline constexpr OutputFormatName kOutputFormatNames[] = {
    {OutputFormat::kTable, "table"},
    {OutputFormat::kCsv, "csv"},
    {OutputFormat::kJson, "json"},
};

// The name --format takes for `format`.
std::string OutputFormatFlagName(OutputFormat format);

// --format's value as a format. InvalidArgument "--format: unknown format 'xml'; allowed:
// table, csv, json" for a name that is none; where only `allowed` formats are (a mode that
// reports no measurement, named by `mode_flag`), "--format: --list_clocks reports as table
// or json; got 'csv'" for another.
absl::StatusOr<OutputFormat> ParseOutputFormat(absl::string_view name);
absl::StatusOr<OutputFormat> ParseOutputFormat(absl::string_view name,
                                               absl::Span<const OutputFormat> allowed,
                                               absl::string_view mode_flag);

}  // namespace tickbench::harness

#endif  // HARNESS_OUTPUT_OUTPUT_FORMAT_H_
