// What a sweep's plot is drawn from (declared in harness/page/sweep_plot.h): the extras of
// a measured sweep's records, its throughput, the steps to mark and the winning fit.
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "analysis/models/buffer_models.h"
#include "harness/page/sweep_plot.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {

SweepPlotExtras SweepPlotExtrasFromRecords(const std::vector<RunRecord>& records) {
  std::map<size_t, std::vector<const RunRecord*>> by_size;
  for (const RunRecord& r : records)
    if (r.valid()) by_size[r.size_bytes].push_back(&r);
  SweepPlotExtras extras;
  for (const auto& [size, runs] : by_size) {
    SweepPlotExtras::Point point;
    point.size_bytes = static_cast<double>(size);
    std::vector<double> averaged;
    double quantum = 0, median = 0, low = 0, high = 0, reference = 0;
    int per_iteration = 0, with_reference = 0;
    for (const RunRecord* r : runs) {
      averaged.push_back(r->averaged_rtt_ns);
      quantum = std::max(quantum, r->quantum_ns);
      if (r->per_iteration_ns.count > 0) {
        ++per_iteration;
        median += r->per_iteration_ns.p50;
        low += r->per_iteration_ns.p1;
        high += r->per_iteration_ns.p99;
      }
      if (r->has_reference) {
        ++with_reference;
        reference += r->reference_averaged_rtt_ns;
      }
    }
    const timing::ConfidenceInterval ci = timing::AcrossRunsInterval(
        averaged, timing::QuantizedSdFloor(quantum, static_cast<int64_t>(averaged.size())));
    point.has_interval = ci.valid;
    point.averaged_low_ns = ci.low;
    point.averaged_high_ns = ci.high;
    if (per_iteration > 0) {
      point.has_per_iteration = true;
      point.median_ns = median / per_iteration;
      point.band_low_ns = low / per_iteration;
      point.band_high_ns = high / per_iteration;
    }
    if (with_reference > 0) {
      point.has_reference = true;
      point.reference_ns = reference / with_reference;
    }
    extras.points.push_back(point);
  }
  return extras;
}

ThroughputPlot ThroughputPlotFromRecords(const std::vector<RunRecord>& records) {
  ThroughputPlot plot;
  plot.sweep.value_name = "throughput";
  plot.sweep.unit = "KB/s";
  plot.extras.value_label = "throughput";
  // As the table's lead figure: each valid run's throughput, their mean with a 95%
  // interval across runs, the SD floored at the quantization carried to throughput (to
  // first order, throughput x T/N / RTT).
  std::map<size_t, std::pair<analysis::SweepPoint, double>> points;  // point, its quantum
  for (const RunRecord& r : records) {
    if (!r.valid() || !std::isfinite(r.throughput_bytes_per_s)) continue;
    auto& [point, quantum] = points[r.size_bytes];
    point.size_bytes = static_cast<double>(r.size_bytes);
    const double kb_per_s = r.throughput_bytes_per_s / 1e3;  // 1 KB = 1000 bytes
    point.values.push_back(kb_per_s);
    if (r.averaged_rtt_ns > 0) {
      quantum = std::max(quantum, kb_per_s * r.quantum_ns / r.averaged_rtt_ns);
    }
  }
  for (auto& [size, entry] : points) {
    const auto& [point, quantum] = entry;
    const timing::ConfidenceInterval ci = timing::AcrossRunsInterval(
        point.values, timing::QuantizedSdFloor(quantum, static_cast<int64_t>(point.values.size())));
    SweepPlotExtras::Point p;
    p.size_bytes = point.size_bytes;
    p.has_interval = ci.valid && std::isfinite(ci.half_width());
    p.averaged_low_ns = ci.low;
    p.averaged_high_ns = ci.high;
    plot.extras.points.push_back(p);
    plot.sweep.points.push_back(point);
  }
  return plot;
}

std::vector<analysis::Step> FoundSteps(const absl::StatusOr<analysis::StepDetection>& detected,
                                       bool established,
                                       const std::vector<analysis::ImpliedStep>& implied) {
  std::vector<analysis::Step> steps;
  if (detected.ok() && established) steps = detected->steps;
  for (const analysis::ImpliedStep& i : implied) {
    analysis::Step step;
    step.size_before = i.size_before;
    step.size_after = i.size_after;
    step.index_after = i.index_after;
    step.kind = analysis::StepKind::kJump;
    step.direction = i.jump < 0 ? analysis::StepDirection::kDown : analysis::StepDirection::kUp;
    step.magnitude = step.jump = i.jump;
    step.jump_stderr = i.jump_stderr;
    steps.push_back(step);
  }
  std::sort(steps.begin(), steps.end(), [](const analysis::Step& a, const analysis::Step& b) {
    return a.size_before < b.size_before;
  });
  return steps;
}

void SetFit(const analysis::ModelComparison& fits, const analysis::Sweep& sweep,
            SweepPlotExtras& extras) {
  if (fits.families.empty() || sweep.points.empty() || !fits.best_fit().fitted) return;
  extras.fit_name = analysis::DescribeModel(fits.best_fit().model);
  extras.fit = FitCurve(fits, sweep.points.front().size_bytes, sweep.points.back().size_bytes);
}

std::vector<std::pair<double, double>> FitCurve(const analysis::ModelComparison& fits, double first,
                                                double last, int samples) {
  std::vector<std::pair<double, double>> curve;
  if (fits.families.empty()) return curve;
  const analysis::FamilyFit& fit = fits.best_fit();
  if (!fit.fitted || samples < 2 || !(last > first)) return curve;
  std::vector<double> sizes;
  for (int i = 0; i < samples; ++i) {
    sizes.push_back(std::round(first + (last - first) * i / (samples - 1)));
  }
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  const std::vector<std::vector<double>> columns = analysis::DesignColumns(fit.model, sizes);
  for (size_t i = 0; i < sizes.size(); ++i) {
    double value = 0;
    for (size_t j = 0; j < columns.size() && j < fit.costs.size(); ++j) {
      if (i < columns[j].size()) value += fit.costs[j] * columns[j][i];
    }
    curve.emplace_back(sizes[i], value);
  }
  return curve;
}

}  // namespace tickbench::harness
