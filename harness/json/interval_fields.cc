#include "harness/json/interval_fields.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tickbench::harness {

void WriteIntervalJson(JsonWriter& json, absl::string_view name,
                       const timing::ConfidenceInterval& ci) {
  json.Key(absl::StrCat(name, "_ci95"));
  json.BeginArray();
  if (ci.valid) {
    json.Number(ci.low);
    json.Number(ci.high);
  }
  json.EndArray();
}

std::string CsvInterval(const timing::ConfidenceInterval& ci, CsvDigits digits) {
  if (!ci.valid) return ",";
  switch (digits) {
    case CsvDigits::kFixed3:
      return absl::StrFormat("%.3f,%.3f", ci.low, ci.high);
    case CsvDigits::kSignificant6:
      return absl::StrFormat("%.6g,%.6g", ci.low, ci.high);
  }
  return ",";
}

}  // namespace tickbench::harness
