#include "fuzz/csv_reader_fuzz.h"

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "analysis/csv_sweep_reader.h"
#include "analysis/sweep.h"
#include "fuzz/fuzz_check.h"

namespace tickbench::fuzz {

void FuzzCsvReader(const uint8_t* data, size_t size) {
  const absl::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t line_end = input.find('\n');
  if (line_end == absl::string_view::npos) return;
  analysis::CsvSweepOptions options;
  options.value_column = std::string(input.substr(0, line_end));
  const absl::string_view text = input.substr(line_end + 1);

  const absl::StatusOr<analysis::Sweep> sweep = analysis::ParseSweepCsv(text, options);
  if (!sweep.ok()) {
    FuzzCheck(absl::IsInvalidArgument(sweep.status()), "a rejected file is InvalidArgument");
    return;
  }
  FuzzCheck(analysis::ValidateSweep(*sweep).ok(), "an accepted sweep passes ValidateSweep");
  FuzzCheck(!sweep->points.empty(), "an accepted sweep has data");
  size_t values = 0;
  for (const analysis::SweepPoint& point : sweep->points) values += point.values.size();
  FuzzCheck(values <= analysis::kMaxCsvRows, "at most kMaxCsvRows values");
  // A file without a header has no column names, so the column asked for does not apply:
  // its values are "value".
  FuzzCheck(options.value_column.empty() || sweep->value_name == options.value_column ||
                sweep->value_name == "value",
            "the sweep is named after the value column asked for");
}

}  // namespace tickbench::fuzz
