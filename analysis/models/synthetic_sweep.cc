#include "analysis/models/synthetic_sweep.h"

#include <cmath>

namespace tickbench::analysis {

double NormalSource::Uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

double NormalSource::Next() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  // Box–Muller; 1 − u lies in (0, 1], so the logarithm is finite.
  const double radius = std::sqrt(-2.0 * std::log(1.0 - Uniform()));
  const double angle = 2.0 * M_PI * Uniform();
  spare_ = radius * std::sin(angle);
  has_spare_ = true;
  return radius * std::cos(angle);
}

Sweep MakeSweep(const std::vector<double>& sizes, const std::function<double(double)>& truth,
                const NoiseSpec& noise, uint64_t seed) {
  NormalSource normal(seed);
  Sweep sweep;
  sweep.value_name = "rtt_ns";
  sweep.unit = "ns";
  for (double size : sizes) {
    SweepPoint point;
    point.size_bytes = size;
    const double value = truth(size);
    for (int run = 0; run < noise.runs; ++run) {
      const double relative = noise.relative_sd * normal.Next();
      const double absolute = noise.absolute_sd * normal.Next();
      point.values.push_back(value * (1 + relative) + absolute);
    }
    sweep.points.push_back(std::move(point));
  }
  return sweep;
}

std::function<double(double)> LayoutTruth(const BufferModel& model, std::vector<double> costs) {
  return [=](double n) {
    const std::vector<std::vector<double>> columns = DesignColumns(model, {n});
    double value = 0;
    for (size_t j = 0; j < columns.size(); ++j) value += costs[j] * columns[j][0];
    return value;
  };
}

std::vector<double> EvenSizes(double first, double last, double step) {
  std::vector<double> sizes;
  // Integer stepping, so that 32..8192 step 32 has exactly 256 sizes without drift.
  const long count = std::lround(std::floor((last - first) / step)) + 1;
  for (long i = 0; i < count; ++i) sizes.push_back(first + i * step);
  return sizes;
}

std::vector<double> ClassicTableSizes() {
  return {32, 512, 1024, 1300, 1400, 1460, 1492, 1536, 2032, 2984, 4096};
}

}  // namespace tickbench::analysis
