#include "analysis/sweep.h"

#include <cmath>
#include <cstddef>

#include "absl/strings/str_format.h"

namespace tickbench::analysis {

bool InSweepRange(double value) {
  const double magnitude = std::fabs(value);
  return value == 0 || (magnitude >= kMinSweepMagnitude && magnitude <= kMaxSweepMagnitude);
}

const char* SweepRangeText() { return "0 or a magnitude from 1e-20 to 1e+20"; }

absl::Status ValidateSweep(const Sweep& sweep) {
  for (size_t i = 0; i < sweep.points.size(); ++i) {
    const SweepPoint& point = sweep.points[i];
    if (!(point.size_bytes >= 0 && point.size_bytes <= kMaxSweepSizeBytes)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("point %d: size %g is not from 0 to %.0f bytes", i, point.size_bytes,
                          kMaxSweepSizeBytes));
    }
    if (i > 0 && !(point.size_bytes > sweep.points[i - 1].size_bytes)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("point %d: size %g does not follow %g: sizes must increase", i,
                          point.size_bytes, sweep.points[i - 1].size_bytes));
    }
    if (point.values.empty()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("point %d (size %g) has no values", i, point.size_bytes));
    }
    for (double value : point.values) {
      if (!InSweepRange(value)) {
        return absl::InvalidArgumentError(
            absl::StrFormat("point %d (size %g) has the value %g: the analysis takes values of %s",
                            i, point.size_bytes, value, SweepRangeText()));
      }
    }
    if (!(point.quantum >= 0 && point.quantum <= kMaxSweepMagnitude && point.resolution >= 0 &&
          point.resolution <= kMaxSweepMagnitude)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "point %d (size %g): its quantum %g or resolution %g is not from 0 to %g", i,
          point.size_bytes, point.quantum, point.resolution, kMaxSweepMagnitude));
    }
  }
  return absl::OkStatus();
}

double PointMean(const SweepPoint& point) {
  if (point.values.empty()) return 0;
  double sum = 0;
  for (double value : point.values) sum += value;
  return sum / static_cast<double>(point.values.size());
}

double PointVariance(const SweepPoint& point) {
  const size_t runs = point.values.size();
  if (runs < 2) return 0;
  // Two passes around the mean: the one-pass sum of squares cancels badly when the spread
  // is 1e-4 of the value, which is typical of averaged round-trip times.
  const double mean = PointMean(point);
  double sum_squares = 0;
  for (double value : point.values) sum_squares += (value - mean) * (value - mean);
  return sum_squares / static_cast<double>(runs - 1);
}

std::vector<double> Sizes(const Sweep& sweep) {
  std::vector<double> sizes;
  sizes.reserve(sweep.points.size());
  for (const SweepPoint& point : sweep.points) sizes.push_back(point.size_bytes);
  return sizes;
}

std::vector<double> Means(const Sweep& sweep) {
  std::vector<double> means;
  means.reserve(sweep.points.size());
  for (const SweepPoint& point : sweep.points) means.push_back(PointMean(point));
  return means;
}

}  // namespace tickbench::analysis
