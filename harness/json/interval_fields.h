#ifndef TICKBENCH_HARNESS_REPORT_INTERVAL_FIELDS_H_
#define TICKBENCH_HARNESS_REPORT_INTERVAL_FIELDS_H_

#include <string>

#include "absl/strings/string_view.h"
#include "harness/json/json_writer.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {

// The one writer of a 95% interval in the reports, JSON and CSV.

// "<name>_ci95": [low, high], or an empty array when there is no interval.
void WriteIntervalJson(JsonWriter& json, absl::string_view name,
                       const timing::ConfidenceInterval& ci);

// How an interval's CSV cells print. The difference is on purpose: each follows the figures
// of its report, the sweep's nanoseconds at 3 decimals (%.3f), and the study's, which
// include fractions and percentages, at 6 significant digits (%.6g).
enum class CsvDigits { kFixed3, kSignificant6 };

// The two cells "<low>,<high>" of an interval's *_ci95_low and *_ci95_high columns, or ","
// (both empty) when there is no interval; no separator before or after.
std::string CsvInterval(const timing::ConfidenceInterval& ci, CsvDigits digits);

}  // namespace tickbench::harness

#endif  // TICKBENCH_HARNESS_REPORT_INTERVAL_FIELDS_H_
