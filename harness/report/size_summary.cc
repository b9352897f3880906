#include "harness/report/size_summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace tickbench::harness {
namespace {

// The across-runs interval of `values`, the SD floored for runs of quantum `quantum`; the
// mean alone (not valid) for one value, NaN for none.
timing::ConfidenceInterval AcrossRuns(const std::vector<double>& values, double quantum,
                                      bool non_negative = true) {
  timing::ConfidenceInterval ci;
  ci.estimate = std::numeric_limits<double>::quiet_NaN();
  if (values.empty()) return ci;
  if (values.size() == 1) {
    ci.estimate = values[0];
    return ci;
  }
  ci = timing::AcrossRunsInterval(
      values, timing::QuantizedSdFloor(quantum, static_cast<int64_t>(values.size())));
  if (non_negative) ci.low = std::max(ci.low, 0.0);  // an RTT or a throughput is never below 0
  return ci;
}

}  // namespace

std::vector<SizeSummary> SummarizeSizes(const std::vector<RunRecord>& records) {
  std::map<size_t, std::vector<const RunRecord*>> by_size;
  for (const RunRecord& r : records) by_size[r.size_bytes].push_back(&r);
  std::vector<SizeSummary> sizes;
  for (const auto& [size, runs] : by_size) {
    SizeSummary s;
    s.size_bytes = size;
    std::vector<double> rtt, throughput;
    double rtt_quantum = 0, throughput_quantum = 0;
    int64_t completed = 0;
    for (const RunRecord* r : runs) {
      ++s.runs;
      if (r->attempt > 1) ++s.retried_runs;
      completed += r->completed;
      s.lost += r->integrity.lost;
      if (!r->valid()) continue;
      ++s.valid_runs;
      s.timed_trips += r->timed_trips;
      rtt.push_back(r->averaged_rtt_ns);
      rtt_quantum = std::max(rtt_quantum, r->quantum_ns);
      if (std::isfinite(r->throughput_bytes_per_s) && r->averaged_rtt_ns > 0) {
        throughput.push_back(r->throughput_bytes_per_s);
        throughput_quantum = std::max(
            throughput_quantum, r->throughput_bytes_per_s * r->quantum_ns / r->averaged_rtt_ns);
      }
      s.unresolved = s.unresolved || r->averaged_unresolved;
      s.round_trips_to_resolve = std::max(s.round_trips_to_resolve, r->round_trips_to_resolve);
    }
    s.loss_rate = completed > 0 ? static_cast<double>(s.lost) / static_cast<double>(completed)
                                : std::numeric_limits<double>::quiet_NaN();
    s.averaged_rtt_ns = AcrossRuns(rtt, rtt_quantum);
    s.throughput_bytes_per_s = AcrossRuns(throughput, throughput_quantum);
    sizes.push_back(s);
  }
  return sizes;
}

RateSummary SummarizeRate(const std::vector<RunRecord>& records) {
  RateSummary rate;
  std::vector<double> ppm;
  for (const RunRecord& r : records) {
    if (!r.valid() || !r.has_reference || !(r.reference_averaged_rtt_ns > 0)) continue;
    ppm.push_back(1e6 * (r.averaged_rtt_ns / r.reference_averaged_rtt_ns - 1));
    rate.bound_ppm = std::max(rate.bound_ppm, 1e6 * r.quantum_ns / r.reference_averaged_rtt_ns);
  }
  rate.runs = static_cast<int>(ppm.size());
  rate.ppm = AcrossRuns(ppm, rate.bound_ppm, /*non_negative=*/false);
  return rate;
}

}  // namespace tickbench::harness
