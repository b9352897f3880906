#include "analysis/steps/line_partition.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "platform/stop_signal.h"

namespace tickbench::analysis {

LineAccumulator FitLine(const WeightedPoints& data, int first, int last) {
  LineAccumulator line;
  for (int i = first; i <= last; ++i) line.Add(data.x[i], data.y[i], data.w[i]);
  return line;
}

Partitions Partition(const WeightedPoints& data, int min_points, int max_segments) {
  const int n = static_cast<int>(data.x.size());
  Partitions p;
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  p.chi2.assign(max_segments + 1, std::vector<double>(n + 1, kInfinity));
  p.start.assign(max_segments + 1, std::vector<int>(n + 1, -1));
  for (int end = min_points; end <= n; ++end) {
    // O(n · max_segments) per end: a stop request leaves the table unfinished (see header).
    if (platform::StopRequested()) break;
    // Grow the last segment leftwards from `end`: every (start, end) pair costs one update.
    LineAccumulator line;
    for (int first = end - 1; first >= 0; --first) {
      line.Add(data.x[first], data.y[first], data.w[first]);
      if (end - first < min_points) continue;
      const double cost = line.ChiSquare();
      if (first == 0) {
        p.chi2[1][end] = cost;
        p.start[1][end] = 0;
        continue;
      }
      const int most = std::min(max_segments, first / min_points + 1);
      for (int m = 2; m <= most; ++m) {
        const double total = p.chi2[m - 1][first] + cost;
        if (total < p.chi2[m][end]) {
          p.chi2[m][end] = total;
          p.start[m][end] = first;
        }
      }
    }
  }
  return p;
}

}  // namespace tickbench::analysis
