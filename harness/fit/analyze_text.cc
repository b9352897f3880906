#include "harness/fit/analyze_text.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analysis/csv/csv_sweep_reader.h"
#include "analysis/fits/model_fit.h"
#include "analysis/steps/system_facts.h"
#include "harness/fit/simulation_fit.h"
#include "harness/output/command_status.h"
#include "platform/stop_signal.h"

namespace tickbench::harness {
namespace {

// The sweep in `text`, in round-trip time: a throughput column is turned into the time it
// implies, with a line in `report` that says so.
absl::StatusOr<analysis::Sweep> ReadSweep(absl::string_view text, absl::string_view shown,
                                          const std::string& column, std::string& report) {
  analysis::CsvSweepOptions options;
  options.value_column = column;
  absl::StatusOr<analysis::Sweep> sweep = analysis::ParseSweepCsv(text, options);
  if (!sweep.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--analyze: ", shown, ": ", sweep.status().message()));
  }
  const bool throughput = absl::StrContains(absl::AsciiStrToLower(sweep->value_name), "throughput");
  if (throughput && sweep->unit != "B/s") {
    // A throughput without a unit could be bytes, bits or kB per second: never assumed.
    return absl::InvalidArgumentError(absl::StrFormat(
        "--analyze: %s: the column %s is a throughput without a unit; name its unit with a "
        "suffix (_bytes_per_s, _kb_per_s, _kib_per_s, _mb_per_s) or choose another column with "
        "--analyze_column",
        shown, absl::CHexEscape(sweep->value_name)));
  }
  if (!throughput && sweep->unit != "B/s") return sweep;
  absl::StatusOr<analysis::Sweep> rtt = analysis::RttFromThroughput(*sweep);
  if (!rtt.ok()) return WithFlag("analyze", rtt.status());
  absl::StrAppendFormat(
      &report, "(throughput column %s read as the round-trip time it implies, 2n / throughput)\n",
      absl::CHexEscape(sweep->value_name));
  return rtt;
}

}  // namespace

absl::StatusOr<TextAnalysis> AnalyzeCsvText(absl::string_view text, absl::string_view shown,
                                            const std::string& column, bool explain, bool fit_sim) {
  TextAnalysis result;
  absl::StatusOr<analysis::Sweep> sweep = ReadSweep(text, shown, column, result.report);
  if (!sweep.ok()) return sweep.status();
  result.sweep = *std::move(sweep);
  absl::StrAppendFormat(&result.report, "%s: %d sizes, %s\n", shown, result.sweep.points.size(),
                        absl::CHexEscape(result.sweep.value_name));
  // The file's machine is not known to be this one: none of this host's sizes is offered
  // as a cause (the report says so).
  const analysis::SizeFacts facts;
  result.analyzed = AnalyzeSweep(result.sweep, facts, explain);
  // A stop (SIGINT, SIGTERM) cuts the analysis short: what it left is no result.
  TICKBENCH_RETURN_IF_STOPPED("analysing --analyze's sweep");
  absl::StrAppend(&result.report, FormatSweepAnalysis(result.sweep, facts, result.analyzed));
  if (fit_sim) {
    absl::StatusOr<SimulationFit> fit =
        result.analyzed.fits.ok()
            ? FitSimulation(result.sweep, *result.analyzed.fits, &result.analyzed.fit_options)
            : absl::StatusOr<SimulationFit>(result.analyzed.fits.status());
    if (fit.ok()) {
      absl::StrAppend(&result.report, FormatSimulationFit(*fit));
    } else {
      result.fit_sim = WithFlag("fit_sim", fit.status());
    }
  }
  TICKBENCH_RETURN_IF_STOPPED("fitting the simulation");
  return result;
}

}  // namespace tickbench::harness
