// A measured curve: one value column (round-trip time, throughput, ...) against message
// size, keeping the value of every run so that the spread across runs can weight the
// analysis.
#ifndef ANALYSIS_SWEEP_H_
#define ANALYSIS_SWEEP_H_

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace tickbench::analysis {

struct SweepPoint {
  double size_bytes = 0;
  std::vector<double> values;  // one per run; a single value is allowed
  // The quantization step of one run's value, 0 when unknown: T/N for an RTT averaged
  // over N round trips read by a clock of resolution T. The noise model never lets a
  // run's variance fall below what this step alone gives (analysis/steps/noise_model.h).
  double quantum = 0;
  // The printed resolution of the least precise run's value, in the sweep's unit, 0 when
  // unknown: half a unit of the last digit written (a CSV cell "42" in kB/s gives 500 B/s).
  // Rounding to it is an error uniform on ±resolution, of variance resolution²/3; the noise
  // model never lets a run's variance fall below that either.
  double resolution = 0;
};

struct Sweep {
  std::string value_name;          // "averaged_rtt_ns"
  std::string unit;                // "ns"
  std::vector<SweepPoint> points;  // strictly increasing size_bytes; steps may be uneven
};

// The largest size of a sweep: the transports' largest message (16 MiB, that of the stream
// transports). Whole sizes up to it are exact in a double, so distinct sizes stay distinct.
inline constexpr double kMaxSweepSizeBytes = 16 * 1024 * 1024;

// The magnitudes the analysis computes with: its fits square values and invert the variances
// of their means, so a value is 0 or of magnitude from kMinSweepMagnitude to
// kMaxSweepMagnitude: 1e-20 to 1e20, far past any time in ns (1e20 ns is 3000 years) or
// throughput in B/s, and far inside a double's range once squared twice.
inline constexpr double kMinSweepMagnitude = 1e-20;
inline constexpr double kMaxSweepMagnitude = 1e20;

// Whether `value` is 0 or of a magnitude within the range above (false for NaN, infinities).
bool InSweepRange(double value);

// "0 or a magnitude from 1e-20 to 1e+20": the range above, for messages.
const char* SweepRangeText();

// OK when sizes are finite, non-negative, at most kMaxSweepSizeBytes and strictly
// increasing, and every point has at least one value, all in the range above, and a quantum
// and resolution from 0 to kMaxSweepMagnitude. Everything in this package checks this first.
absl::Status ValidateSweep(const Sweep& sweep);

// Mean of the point's runs.
double PointMean(const SweepPoint& point);

// Unbiased sample variance of the point's runs (divisor runs - 1); 0 for a single run.
double PointVariance(const SweepPoint& point);

// The sizes and the per-size means, as parallel vectors.
std::vector<double> Sizes(const Sweep& sweep);
std::vector<double> Means(const Sweep& sweep);

}  // namespace tickbench::analysis

#endif  // ANALYSIS_SWEEP_H_
