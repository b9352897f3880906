#include "bench/loop_line.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"

namespace tickbench::bench {

double NearestRank(const std::vector<double>& values, double q) {
  const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
  return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

std::string LoopLine(const std::string& transport, int64_t size, bool busy_poll,
                     const std::vector<int64_t>& marks) {
  std::vector<double> rtts(marks.size() - 1);
  for (size_t i = 0; i < rtts.size(); ++i) rtts[i] = static_cast<double>(marks[i + 1] - marks[i]);
  const double mean_ns = static_cast<double>(marks.back() - marks.front()) / rtts.size();
  std::sort(rtts.begin(), rtts.end());
  return absl::StrFormat("%s %d %s %d %.3f %.3f %.3f %.3f", transport, size,
                         busy_poll ? "busy_poll" : "blocking", rtts.size(),
                         rtts[rtts.size() / 2] / 1e3, mean_ns / 1e3, NearestRank(rtts, 0.90) / 1e3,
                         NearestRank(rtts, 0.99) / 1e3);
}

}  // namespace tickbench::bench
