#include "harness/report/size_summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "absl/strings/str_cat.h"

namespace tickbench::harness {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The across-runs interval of `values`, the SD floored for runs of quantum `quantum`; the
// mean alone (not valid) for one value, NaN for none.
timing::ConfidenceInterval AcrossRuns(const std::vector<double>& values, double quantum) {
  timing::ConfidenceInterval ci;
  ci.estimate = kNaN;
  if (values.empty()) return ci;
  if (values.size() == 1) {
    ci.estimate = values[0];
    return ci;
  }
  return timing::AcrossRunsInterval(
      values, timing::QuantizedSdFloor(quantum, static_cast<int64_t>(values.size())));
}

// The pooled RTT of the valid runs and its log-scale interval (SizeSummary).
timing::ConfidenceInterval PooledRtt(const std::vector<const RunRecord*>& valid, double quantum) {
  timing::ConfidenceInterval ci;
  ci.estimate = ci.low = ci.high = kNaN;
  if (valid.empty()) return ci;
  double time_ns = 0, trips = 0;
  std::vector<double> rtt;
  for (const RunRecord* r : valid) {
    time_ns += r->averaged_rtt_ns * static_cast<double>(r->timed_trips);
    trips += static_cast<double>(r->timed_trips);
    rtt.push_back(r->averaged_rtt_ns);
  }
  const double pooled = time_ns / trips;
  if (!(pooled > 0)) {  // every run read 0: no interval on the log scale (unresolved)
    ci.estimate = ci.low = ci.high = pooled;
    return ci;
  }
  if (valid.size() > 1) {
    const timing::ConfidenceInterval across = AcrossRuns(rtt, quantum);
    ci = timing::LogScaleInterval(pooled, across.standard_error, across.degrees_of_freedom);
    ci.floored = across.floored;
    return ci;
  }
  // One run: its batch means, and the quantum's own share (the total time is read to
  // within one quantum: two uniform phase errors, SD quantum / sqrt(6)).
  const timing::ConfidenceInterval& batches = valid[0]->per_iteration_mean_ci95;
  if (!batches.valid || !(batches.degrees_of_freedom > 0)) {
    ci.estimate = ci.low = ci.high = pooled;
    return ci;
  }
  return timing::LogScaleInterval(pooled,
                                  std::hypot(batches.standard_error, quantum / std::sqrt(6.0)),
                                  batches.degrees_of_freedom);
}

}  // namespace

SizeSummary SummarizeSize(absl::Span<const RunRecord* const> runs) {
  SizeSummary s;
  std::vector<const RunRecord*> valid;
  std::vector<double> rtt;
  int64_t completed = 0;
  for (const RunRecord* r : runs) {
    s.size_bytes = r->size_bytes;
    ++s.runs;
    if (r->attempt > 1) ++s.retried_runs;
    completed += r->completed;
    s.lost += r->integrity.lost;
    if (!r->size_stop.empty()) s.stop = r->size_stop;
    // A run of a coarse clock may read 0: a valid reading, kept (dropping it would bias up).
    if (!r->valid() || !(r->averaged_rtt_ns >= 0)) continue;
    ++s.valid_runs;
    valid.push_back(r);
    rtt.push_back(r->averaged_rtt_ns);
    s.timed_trips += r->timed_trips;
    s.quantum_ns = std::max(s.quantum_ns, r->quantum_ns);
    s.unresolved = s.unresolved || r->averaged_unresolved;
    s.round_trips_to_resolve = std::max(s.round_trips_to_resolve, r->round_trips_to_resolve);
  }
  s.loss_rate = completed > 0 ? static_cast<double>(s.lost) / static_cast<double>(completed) : kNaN;
  s.averaged_rtt_ns = PooledRtt(valid, s.quantum_ns);
  s.throughput_bytes_per_s =
      timing::RateInterval(s.averaged_rtt_ns, 2.0 * static_cast<double>(s.size_bytes) * 1e9);
  if (!s.averaged_rtt_ns.valid) s.throughput_bytes_per_s.valid = false;
  s.relative_half_width =
      s.averaged_rtt_ns.valid ? timing::IntervalFactor(s.averaged_rtt_ns) - 1 : kNaN;
  s.groups = timing::TestRunGroups(rtt, s.quantum_ns);
  return s;
}

std::vector<SizeSummary> SummarizeSizes(const std::vector<RunRecord>& records) {
  std::map<size_t, std::vector<const RunRecord*>> by_size;
  for (const RunRecord& r : records) by_size[r.size_bytes].push_back(&r);
  std::vector<SizeSummary> sizes;
  for (const auto& [size, runs] : by_size) sizes.push_back(SummarizeSize(runs));
  return sizes;
}

std::string FigureWithInterval(const timing::ConfidenceInterval& ci, double quantum) {
  if (!ci.valid || !(ci.estimate > 0)) return timing::FormatRounded(ci.estimate, quantum);
  const double f = timing::IntervalFactor(ci);
  if (f - 1 <= kPlusMinusLimit)
    return timing::FormatWithHalfWidth(ci.estimate, ci.high - ci.estimate);
  return absl::StrCat(timing::FormatRounded(ci.estimate, ci.estimate - ci.low), " ×÷ ",
                      FactorText(f));
}

std::string FactorText(double f) { return timing::FormatDecimals(f, f < 10 ? 1 : 0); }

int64_t RunsForPrecision(const SizeSummary& size, double target) {
  if (!(size.relative_half_width > 0) || !(target > 0)) return 0;
  // The log-scale half-width shrinks as 1 / sqrt(runs).
  const double ratio = std::log1p(size.relative_half_width) / std::log1p(target);
  return std::max<int64_t>(size.valid_runs,
                           static_cast<int64_t>(std::ceil(size.valid_runs * ratio * ratio)));
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
  rate.ppm = AcrossRuns(ppm, rate.bound_ppm);
  return rate;
}

}  // namespace tickbench::harness
