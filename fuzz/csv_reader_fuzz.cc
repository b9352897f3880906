#include "fuzz/csv_reader_fuzz.h"

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "analysis/csv/csv_sweep_reader.h"
#include "analysis/sweep.h"
#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_text.h"

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
    FuzzCheck(!HasControlOrHighByte(sweep.status().message()),
              "an error message quotes the file escaped");
    FuzzCheck(sweep.status().message().size() < 4096, "an error message is short");
    return;
  }
  for (const char c : sweep->value_name) {
    FuzzCheck(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f,
              "the value column's name, printed as it is, has no control byte");
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
