// Deterministic synthetic sweeps for this package's tests: a known curve plus Gaussian noise
// drawn from std::mt19937_64 through Box–Muller. Both are fully specified by the C++ standard
// and this file, unlike std::normal_distribution or absl's distributions, so a seed gives the
// same sweep with any standard library and any Abseil release.
#ifndef ANALYSIS_SYNTHETIC_SWEEP_H_
#define ANALYSIS_SYNTHETIC_SWEEP_H_

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "analysis/models/buffer_models.h"
#include "analysis/sweep.h"

namespace tickbench::analysis {

// Standard normal variates from a seeded 64-bit Mersenne Twister.
class NormalSource {
 public:
  explicit NormalSource(uint64_t seed) : engine_(seed) {}
  double Next();

 private:
  double Uniform();  // in [0, 1), 53 random bits
  std::mt19937_64 engine_;
  bool has_spare_ = false;
  double spare_ = 0;
};

struct NoiseSpec {
  double relative_sd = 0;  // SD as a fraction of the true value (0.01 = 1 %)
  double absolute_sd = 0;  // SD in value units, added in quadrature
  int runs = 1;            // values per size
};

// One point per size; each run is truth(size) · (1 + relative_sd·z1) + absolute_sd·z2.
Sweep MakeSweep(const std::vector<double>& sizes, const std::function<double(double)>& truth,
                const NoiseSpec& noise, uint64_t seed);

// A layout's curve with known costs (in DesignColumns order) as a truth for MakeSweep.
std::function<double(double)> LayoutTruth(const BufferModel& model, std::vector<double> costs);

// first, first + step, ..., up to and including last.
std::vector<double> EvenSizes(double first, double last, double step);

// The uneven sizes of the classic measurement table: 32, 512, 1024, 1300, 1400, 1460, 1492,
// 1536, 2032, 2984, 4096 bytes.
std::vector<double> ClassicTableSizes();

}  // namespace tickbench::analysis

#endif  // ANALYSIS_SYNTHETIC_SWEEP_H_
