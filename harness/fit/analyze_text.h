// What --analyze does with a CSV's text, apart from reading the file, the plot and the JSON:
// the sweep the text holds, in round-trip time (a throughput column turned into the time it
// implies); its steps and, with `explain`, the buffer layouts that explain them; with
// `fit_sim`, the simulation's flags that replay it. The command and its fuzz target run
// this one function.
#ifndef HARNESS_FIT_ANALYZE_TEXT_H_
#define HARNESS_FIT_ANALYZE_TEXT_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "analysis/sweep.h"
#include "harness/fit/sweep_analysis.h"

namespace tickbench::harness {

struct TextAnalysis {
  analysis::Sweep sweep;  // in round-trip time
  SweepAnalysis analyzed;
  // What --analyze prints with --format=table: a line when a throughput was converted, the
  // sweep's sizes and column, the analysis, and with fit_sim the simulation's flags.
  std::string report;
  // --fit_sim's refusal ("--fit_sim: ...", InvalidArgument: exit 2); OK when it printed the
  // flags or was not asked for.
  absl::Status fit_sim;
};

// `text` is the file's, `shown` its name as messages show it (already escaped), `column`
// --analyze_column ("" for the default). InvalidArgument "--analyze: SHOWN: <problem>" for a
// text the CSV reader refuses (analysis/csv/csv_sweep_reader.h) or a throughput without a unit.
// Cancelled when SIGINT or SIGTERM asked to stop meanwhile: the analysis and its fits check
// the request at bounded intervals (well under a second on 10,000 sizes), so that
// --analyze (with --explain, --fit_sim) answers a signal within a second, printing nothing.
absl::StatusOr<TextAnalysis> AnalyzeCsvText(absl::string_view text, absl::string_view shown,
                                            const std::string& column, bool explain, bool fit_sim);

}  // namespace tickbench::harness

#endif  // HARNESS_FIT_ANALYZE_TEXT_H_
