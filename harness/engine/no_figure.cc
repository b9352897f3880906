#include "harness/engine/no_figure.h"

#include <cmath>

#include "absl/strings/str_format.h"

namespace tickbench::harness {

std::string FigureText(double value, int decimals, absl::string_view none) {
  if (std::isnan(value)) return std::string(none);
  return absl::StrFormat("%.*f", decimals, value);
}

std::string FigureTextSignificant(double value, int digits, absl::string_view none) {
  if (std::isnan(value)) return std::string(none);
  return absl::StrFormat("%.*g", digits, value);
}

void MarkUnmeasured(timing::Summary& summary) {
  for (double* figure : {&summary.mean, &summary.sd, &summary.min, &summary.p1, &summary.p50,
                         &summary.p90, &summary.p99, &summary.max, &summary.zero_fraction}) {
    *figure = kNoFigure;
  }
}

void MarkUnmeasured(RunRecord& record) {
  for (double* figure :
       {&record.averaged_rtt_ns, &record.throughput_bytes_per_s, &record.resolution_ns,
        &record.quantum_ns, &record.reference_averaged_rtt_ns}) {
    *figure = kNoFigure;
  }
  MarkUnmeasured(record.per_iteration_ns);
  MarkUnmeasured(record.reference_per_iteration_ns);
}

}  // namespace tickbench::harness
