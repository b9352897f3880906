#include "harness/mpi/matrix_verdict.h"

#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tickbench::harness {
namespace {

// Every measured pair, row by row.
std::vector<RankPair> MeasuredPairs(const Matrix& matrix) {
  std::vector<RankPair> pairs;
  for (int c = 0; c < matrix.ranks(); ++c) {
    for (int s = 0; s < matrix.ranks(); ++s) {
      if (c != s && matrix.at(c, s).status == PairStatus::kMeasured) pairs.push_back({c, s});
    }
  }
  return pairs;
}

const MatrixCell& CellOf(const Matrix& matrix, const RankPair& pair) {
  return matrix.at(pair.client, pair.server);
}

bool SamePair(const RankPair& a, const RankPair& b) {
  return a.client == b.client && a.server == b.server;
}

}  // namespace

timing::ConfidenceInterval CellInterval(const MatrixCell& cell) {
  timing::ConfidenceInterval ci;
  if (cell.status != PairStatus::kMeasured || cell.valid_runs < 2) return ci;
  const double df = cell.valid_runs - 1;
  ci.estimate = cell.rtt_ns;
  // The cell's interval is on the log scale (timing::OnLogScale): its half-width back on
  // the RTT's own, where the runs' difference is tested.
  const double half = cell.rtt_ns > 0 && cell.rtt_high_ns > 0
                          ? cell.rtt_ns * std::log(cell.rtt_high_ns / cell.rtt_ns)
                          : (cell.rtt_high_ns - cell.rtt_low_ns) / 2;
  ci.low = cell.rtt_ns - half;
  ci.high = cell.rtt_ns + half;
  ci.degrees_of_freedom = df;
  ci.standard_error = ci.half_width() / timing::StudentTQuantile(0.975, df);
  ci.valid = true;
  return ci;
}

std::optional<RankPair> FastestPair(const Matrix& matrix) {
  std::optional<RankPair> fastest;
  for (const RankPair& pair : MeasuredPairs(matrix)) {
    if (!fastest || CellOf(matrix, pair).rtt_ns < CellOf(matrix, *fastest).rtt_ns) fastest = pair;
  }
  return fastest;
}

SlowestVerdict TestSlowestPair(const Matrix& matrix) {
  SlowestVerdict verdict;
  const std::vector<RankPair> measured = MeasuredPairs(matrix);
  if (measured.size() < 2) {
    verdict.why_untested = "fewer than two pairs were measured";
    return verdict;
  }
  verdict.slowest = SlowestPairs(matrix, 1).front();
  for (const RankPair& pair : measured) {
    if (CellOf(matrix, pair).valid_runs < 2) {
      verdict.why_untested = absl::StrFormat(
          "pair %s has one valid run, so no interval to test with", PairName(matrix, pair));
      return verdict;
    }
  }
  const timing::ConfidenceInterval slowest = CellInterval(CellOf(matrix, verdict.slowest));
  verdict.tested = true;
  verdict.distinct = true;
  double largest_p = -1;
  for (const RankPair& pair : measured) {
    if (SamePair(pair, verdict.slowest)) continue;
    const timing::ConfidenceInterval difference =
        timing::DifferenceInterval(slowest, CellInterval(CellOf(matrix, pair)));
    const double p = timing::TwoSidedPValue(difference);
    verdict.distinct = verdict.distinct && difference.Excludes(0);
    if (p > largest_p) {
      largest_p = p;
      verdict.closest = pair;
      verdict.p_value = p;
    }
  }
  return verdict;
}

std::string PairName(const Matrix& matrix, const RankPair& pair) {
  return absl::StrFormat("%d->%d (%s -> %s)", pair.client, pair.server, matrix.hosts[pair.client],
                         matrix.hosts[pair.server]);
}

std::string SlowestSentence(const Matrix& matrix) {
  const SlowestVerdict verdict = TestSlowestPair(matrix);
  if (!verdict.tested) {
    return absl::StrCat(
        "Whether the slowest pair stands apart is not tested: ", verdict.why_untested, ".");
  }
  if (verdict.distinct) {
    return absl::StrCat("The slowest pair stands apart: DISTINCT from every other pair by a ",
                        "Welch t-test at 5% (the closest, ", PairName(matrix, verdict.closest),
                        ", at ", timing::PValueWords(verdict.p_value), ").");
  }
  return absl::StrCat("The slowest pair is not distinguishable from ",
                      PairName(matrix, verdict.closest), " by a Welch t-test at 5% (",
                      timing::PValueWords(verdict.p_value), ").");
}

}  // namespace tickbench::harness
