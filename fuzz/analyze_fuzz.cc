#include "fuzz/analyze_fuzz.h"

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "analysis/sweep.h"
#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_text.h"
#include "harness/fit/analysis_json.h"
#include "harness/fit/analyze_text.h"
#include "harness/json/json_reader.h"

namespace tickbench::fuzz {

void FuzzAnalyze(const uint8_t* data, size_t size) {
  const absl::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t line_end = input.find('\n');
  if (line_end == absl::string_view::npos) return;
  const std::string column(input.substr(0, line_end));
  const absl::string_view text = input.substr(line_end + 1);

  const absl::StatusOr<harness::TextAnalysis> done =
      harness::AnalyzeCsvText(text, "fuzz.csv", column, /*explain=*/true, /*fit_sim=*/true);
  if (!done.ok()) {
    FuzzCheck(absl::IsInvalidArgument(done.status()), "a refused text is InvalidArgument");
    FuzzCheck(!HasControlOrHighByte(done.status().message()), "a refusal quotes the text escaped");
    FuzzCheck(done.status().message().size() < 4096, "a refusal is short");
    return;
  }
  FuzzCheck(analysis::ValidateSweep(done->sweep).ok(), "the analysed sweep is valid");
  FuzzCheck(done->fit_sim.ok() || absl::IsInvalidArgument(done->fit_sim),
            "--fit_sim prints its flags or is refused with InvalidArgument");
  FuzzCheck(!HasControlByte(done->report), "the report has no control byte");
  FuzzCheck(!PrintsNonFinite(done->report), "the report prints no nan or inf");
  const std::string json =
      harness::FormatAnalysisJson("fuzz.csv", done->sweep, done->analyzed, done->report);
  FuzzCheck(harness::ParseJson(json).ok(), "--format=json's output is JSON");
}

}  // namespace tickbench::fuzz
