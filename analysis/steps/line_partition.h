// Piecewise-linear fitting pieces of the step detector (step_detector.h): a weighted line
// fitted one point at a time, and the dynamic programme that cuts a sweep into segments of
// least total χ². Internal to the analysis package.
//
// Promised: exact weighted least squares on centred sums (no cancellation from raw sums);
// Partition's χ² is the least over every cut into at least `min_points` per segment.
// Not promised: anything for non-positive or non-finite weights, or unsorted sizes.
#ifndef ANALYSIS_LINE_PARTITION_H_
#define ANALYSIS_LINE_PARTITION_H_

#include <algorithm>
#include <limits>
#include <vector>

namespace tickbench::analysis {

// Weighted least-squares line built one point at a time with West's (CACM 22(9), 1979)
// updates of centred sums. With 1 % noise each point adds w·y² ≈ 1e4 to a raw sum of squares
// but ≈ 1 to χ², so χ² from raw prefix sums would lose four digits to cancellation (twelve at
// the noise model's 1e-6 floor); centred sums lose none.
class LineAccumulator {
 public:
  void Add(double x, double y, double weight) {
    const double total = weight_ + weight;
    const double dx = x - mean_x_;
    const double dy = y - mean_y_;
    mean_x_ += dx * weight / total;
    mean_y_ += dy * weight / total;
    sxx_ += weight * dx * (x - mean_x_);
    syy_ += weight * dy * (y - mean_y_);
    sxy_ += weight * dx * (y - mean_y_);
    weight_ = total;
  }
  double ChiSquare() const {
    if (!(sxx_ > 0)) return std::max(0.0, syy_);
    return std::max(0.0, syy_ - sxy_ * sxy_ / sxx_);
  }
  double slope() const { return sxx_ > 0 ? sxy_ / sxx_ : 0; }
  double At(double x) const { return mean_y_ + slope() * (x - mean_x_); }
  // Variances of the fit in units of the weights' scale (weights = 1 / variance).
  double AtVariance(double x) const {
    return 1 / weight_ + (sxx_ > 0 ? (x - mean_x_) * (x - mean_x_) / sxx_ : 0);
  }
  double SlopeVariance() const {
    return sxx_ > 0 ? 1 / sxx_ : std::numeric_limits<double>::infinity();
  }
  double weight() const { return weight_; }
  double mean_x() const { return mean_x_; }
  double mean_y() const { return mean_y_; }
  double sxx() const { return sxx_; }

 private:
  double weight_ = 0, mean_x_ = 0, mean_y_ = 0, sxx_ = 0, syy_ = 0, sxy_ = 0;
};

// Sizes, values and weights (1 / variance) of a sweep's points, in size order.
struct WeightedPoints {
  std::vector<double> x, y, w;
};

// The line through points first..last (inclusive) of `data`.
LineAccumulator FitLine(const WeightedPoints& data, int first, int last);

// Segment-neighbourhood dynamic programme: chi2[m][j] is the least total χ² of the first j
// points cut into m segments of at least `min_points`; start[m][j] where the last one starts.
struct Partitions {
  std::vector<std::vector<double>> chi2;
  std::vector<std::vector<int>> start;
};

// O(n² · max_segments): a stop request (platform/stop_signal.h, checked once per end point)
// leaves the table unfinished; the caller checks StopRequested() and discards it.
Partitions Partition(const WeightedPoints& data, int min_points, int max_segments);

}  // namespace tickbench::analysis

#endif  // ANALYSIS_LINE_PARTITION_H_
