// Whether a figure's runs fall into two groups, and the interval of a positive mean.
//
// Runs of one size are repetitions of the same measurement; on a quiet machine their
// averaged figures scatter about one value. On a virtual machine they often do not: a run
// whose vCPU stayed awake reads 9 us, the three whose vCPU halted between round trips
// 62-73 us. A mean and a Student t interval over such runs describe neither group, so the
// groups are tested for and named.
//
// The test (TestRunGroups). Sort the k run figures; for every split into the j lowest and
// the k - j highest, each side at least SmallestGroup(k) runs (2, and a fifth of the runs:
// one disturbed run, or two of twenty, is a tail, not a group), the gap between the two groups'
// means in units of their pooled within-group SD, G_j = (mean_high - mean_low) / (s_pooled sqrt(1/j
// + 1/(k - j))), s_pooled on k - 2 degrees of freedom; the statistic is G = max_j G_j (the best
// split). Under the null hypothesis that the runs are independent draws from one normal
// distribution (any mean, any SD: run-to-run drift of a normal size is not "groups"), G's
// distribution depends on k alone; its p-value is found by Monte Carlo over
// kGroupNullSamples null sets drawn from a fixed seed (deterministic), and the runs are
// "in groups" when p < level (kGroupsLevel, 1%). So:
//   Promised: the false-alarm rate on independent normal runs is at most `level` (plus the
//   Monte Carlo's error, +-0.2% at 1%), for every k >= kMinRunsForGroups; the power on
//   two-mode runs is checked in simulation (run_groups_test): modes 10 SDs apart are found
//   86% of the time at 8 runs, 7 SDs apart 89% at 12 runs and 98% at 16. Four runs have almost no
//   power (the pooled SD has 2 degrees of freedom), so a sweep that is to name groups makes
//   kRunsToNameGroups runs at least.
//   Promised: the SD is floored at QuantizedSdFloor(quantum, k), so that runs that all
//   read the same quantum of a coarse clock are not "groups" of identical values.
//   Not promised: that a skewed (non-normal) run distribution is never called groups.
#ifndef TIMING_STATS_RUN_GROUPS_H_
#define TIMING_STATS_RUN_GROUPS_H_

#include <cstdint>

#include "absl/types/span.h"
#include "timing/stats/confidence.h"

namespace tickbench::timing {

inline constexpr int kMinRunsForGroups = 4;
// The fewest runs a group may have among `runs`: max(2, ceil(runs / 5)).
int SmallestGroup(int runs);
inline constexpr int kRunsToNameGroups = 8;
inline constexpr double kGroupsLevel = 0.01;
inline constexpr int kGroupNullSamples = 4000;

struct RunGroups {
  bool tested = false;   // at least kMinRunsForGroups finite values
  bool grouped = false;  // p_value < level
  double statistic = 0;  // G, the best split's gap in pooled SDs (inf for SD 0)
  double p_value = 1;
  // The best split's two groups (valid when tested): their sizes, means and ranges.
  struct Group {
    int runs = 0;
    double mean = 0, min = 0, max = 0;
  };
  Group low, high;
};

// The test above over `values` (one figure per run, in any order), the SD floored for
// values on a grid of `quantum` (0: none).
RunGroups TestRunGroups(absl::Span<const double> values, double quantum = 0,
                        double level = kGroupsLevel);

// The 95% interval of a positive quantity from its estimate and standard error on
// `degrees_of_freedom`, on the log scale: estimate / f to estimate * f with
// f = exp(t se / estimate). It never reaches 0, maps through any power of the quantity (a
// rate's interval is 1 / the time's: RateInterval), and equals the Student t interval to
// first order in se / estimate. Invalid for a non-positive or non-finite estimate or
// standard error, or df <= 0.
ConfidenceInterval LogScaleInterval(double estimate, double standard_error,
                                    double degrees_of_freedom, double confidence = kConfidence95);

// The interval of `numerator / x` for x in `interval` (a rate from a time): the estimate
// numerator / estimate, the ends swapped; invalid where `interval` is or numerator <= 0.
ConfidenceInterval RateInterval(const ConfidenceInterval& interval, double numerator);

// f of a LogScaleInterval: high / estimate (1 where invalid). "within +-P%" reads f - 1.
double IntervalFactor(const ConfidenceInterval& interval);

}  // namespace tickbench::timing

#endif  // TIMING_STATS_RUN_GROUPS_H_
