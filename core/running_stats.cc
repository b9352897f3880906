#include "core/running_stats.h"

#include <cmath>

namespace tickbench::core {

double RunningStats::sd() const { return std::sqrt(variance()); }

}  // namespace tickbench::core
