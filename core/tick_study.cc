#include "core/tick_study.h"

#include <algorithm>
#include <cmath>

#include "core/running_stats.h"

namespace tickbench::core {

StudyAccumulator::StudyAccumulator(StudyCell& cell, const StudyWorkspace& workspace)
    : cell_(cell), workspace_(workspace) {}

void StudyAccumulator::AddAveragedRun(double averaged_ns, double truth_ns) {
  averaged_sum_ += averaged_ns;
  truth_sum_ += truth_ns;
  truth_square_sum_ += truth_ns * truth_ns;
  const double n = static_cast<double>(cell_.iterations);
  cell_.averaged_bound_ns = cell_.resolution_ns / n;
  cell_.pairing_bound_ns = cell_.pair_skew_ns / n;
  cell_.reference_bound_ns = cell_.reference_resolution_ns / n;
  const double error = std::fabs(averaged_ns - truth_ns);
  if (error > cell_.worst_run_error_ns) cell_.worst_run_error_ns = error;
  if (!(error < cell_.total_bound_ns())) all_within_ = false;
}

void StudyAccumulator::AddPerIterationRun(int64_t count) {
  const int64_t offset = cell_.readings;
  const double t = cell_.resolution_ns;
  int64_t zeros = 0;
  for (int64_t i = 0; i < count; ++i) {
    if (workspace_.reading_ticks[offset + i] == 0) ++zeros;
    if (!(workspace_.truths_ns[offset + i] < t)) all_short_ = false;
  }
  const TickMixture run = PredictTickMixture(workspace_.truths_ns + offset, count, t);
  const double zero_share = static_cast<double>(zeros) / static_cast<double>(count);
  const double error = std::fabs(zero_share - run.zero_share);
  if (error > cell_.worst_run_zero_error) cell_.worst_run_zero_error = error;
  cell_.zero_bound = (1 + (2 * cell_.reference_resolution_ns + cell_.pair_skew_ns) / t) /
                     static_cast<double>(count);
  if (!(error < cell_.zero_bound)) all_zero_within_ = false;
  cell_.readings += count;
}

void StudyAccumulator::Finish() {
  const int64_t runs = cell_.runs > 0 ? cell_.runs : 1;
  const double runs_d = static_cast<double>(runs);
  cell_.truth_ns = truth_sum_ / runs_d;
  cell_.averaged_ns = averaged_sum_ / runs_d;
  const double truth_variance =
      runs > 1 ? (truth_square_sum_ - runs_d * cell_.truth_ns * cell_.truth_ns) / (runs_d - 1) : 0;
  cell_.truth_sd_ns = std::sqrt(truth_variance > 0 ? truth_variance : 0);
  cell_.averaged_error_ns = cell_.averaged_ns - cell_.truth_ns;  // signed, as the host's
  cell_.averaged_within_bound = cell_.runs > 0 && all_within_;

  const int64_t count = cell_.readings;
  if (count == 0) return;
  RunningStats readings, truths;
  int64_t zeros = 0;
  for (int64_t i = 0; i < count; ++i) {
    readings.Add(workspace_.readings_ns[i]);
    truths.Add(workspace_.truths_ns[i]);
    const int64_t ticks = workspace_.reading_ticks[i];
    if (ticks == 0) ++zeros;
    ++cell_.histogram[ticks < 0 ? 0 : (ticks >= kHistogramBins - 1 ? kHistogramBins - 1 : ticks)];
  }
  cell_.per_iteration_mean_ns = readings.mean();
  cell_.per_iteration_sd_ns = readings.sd();
  cell_.per_iteration_min_ns = readings.min();
  cell_.per_iteration_truth_ns = truths.mean();
  cell_.zero_fraction = static_cast<double>(zeros) / static_cast<double>(count);
  double* sorted = workspace_.readings_ns;
  std::sort(sorted, sorted + count);
  // The median, interpolated between the two middle ranks (as timing::QuantileOfSorted).
  const double position = 0.5 * static_cast<double>(count - 1);
  const int64_t below = static_cast<int64_t>(position);
  const int64_t above = below + 1 < count ? below + 1 : below;
  cell_.per_iteration_p50_ns =
      sorted[below] + (position - static_cast<double>(below)) * (sorted[above] - sorted[below]);

  cell_.prediction = PredictTickMixture(workspace_.truths_ns, count, cell_.resolution_ns);
  int64_t above_n = 0;
  for (int64_t i = 0; i < count; ++i) {
    if (workspace_.reading_ticks[i] > cell_.prediction.n) ++above_n;
  }
  cell_.observed_f = static_cast<double>(above_n) / static_cast<double>(count);
  const double floor_share = 1 / static_cast<double>(cell_.iterations);
  const double share_tolerance = std::max(3 * cell_.prediction.share_standard_error, floor_share);
  const double mean_tolerance =
      std::max(3 * cell_.prediction.mean_standard_error_ns, cell_.resolution_ns * floor_share);
  cell_.theory_agrees =
      std::fabs(cell_.observed_f - cell_.prediction.f) <= share_tolerance &&
      std::fabs(cell_.per_iteration_mean_ns - cell_.prediction.mean_ns) <= mean_tolerance;
  cell_.zero_bound_applies = all_short_;
  cell_.zero_within_bound = all_short_ && all_zero_within_;
}

}  // namespace tickbench::core
