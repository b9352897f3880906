// Sizes that the host or its protocol stack makes special (a link MTU, the largest
// unfragmented UDP payload, a page, a socket-buffer limit, a cluster), and which of them lie
// next to a detected step. Collecting the facts from the OS is done elsewhere; this is only
// the matching.
#ifndef ANALYSIS_SYSTEM_FACTS_H_
#define ANALYSIS_SYSTEM_FACTS_H_

#include <string>
#include <vector>

#include "analysis/steps/step_detector.h"

namespace tickbench::analysis {

struct SizeFact {
  std::string name;       // e.g. "eth0 largest unfragmented UDP payload (MTU 1500 − 28)"
  double size_bytes = 0;  // e.g. 1472
};

using SizeFacts = std::vector<SizeFact>;

// The names of the facts at or next to the step: those inside [size_before, size_after] (a
// step between 1460 and 1492 brackets 1472), or within tolerance_fraction of either end
// (0.02 matches 1500 to a step ending at 1492: 8 ≤ 29.8). Nearest first: facts inside the
// interval (distance 0), then by relative distance to the nearer end; equal distances keep
// the order of `facts`. A negative or NaN tolerance counts as 0.
std::vector<std::string> CandidateCauses(const Step& step, const SizeFacts& facts,
                                         double tolerance_fraction);

}  // namespace tickbench::analysis

#endif  // ANALYSIS_SYSTEM_FACTS_H_
