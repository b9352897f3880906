#include "analysis/steps/system_facts.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

namespace tickbench::analysis {

std::vector<std::string> CandidateCauses(const Step& step, const SizeFacts& facts,
                                         double tolerance_fraction) {
  const double tolerance = tolerance_fraction > 0 ? tolerance_fraction : 0;  // NaN → 0
  const double low = std::min(step.size_before, step.size_after);
  const double high = std::max(step.size_before, step.size_after);
  std::vector<std::pair<double, size_t>> matches;  // (relative distance, index in facts)
  for (size_t i = 0; i < facts.size(); ++i) {
    const double size = facts[i].size_bytes;
    if (!std::isfinite(size)) continue;
    if (size >= low && size <= high) {
      matches.emplace_back(0.0, i);
      continue;
    }
    const double nearer = size < low ? low : high;
    const double distance = std::fabs(size - nearer);
    if (distance <= tolerance * nearer) matches.emplace_back(distance / nearer, i);
  }
  std::stable_sort(matches.begin(), matches.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> names;
  names.reserve(matches.size());
  for (const auto& match : matches) names.push_back(facts[match.second].name);
  return names;
}

}  // namespace tickbench::analysis
