// What a round-trip matrix says in words: its fastest and slowest pairs, and whether the
// slowest stands apart from the others, by a test whose error rate is stated. Pure: no
// MPI, built and tested in every build.
//
// The test: a two-sided Welch t-test at 5% of the slowest pair's averaged RTT against each
// other measured pair's (timing::DifferenceInterval, timing::TwoSidedPValue), each cell's
// 95% interval across runs read back as its standard error, half-width / t_{0.975, runs-1},
// on runs - 1 degrees of freedom (CellInterval).
//
// Promised:
//   - `distinct` only when every one of those tests rejects (each difference's 95% interval
//     excludes 0); `closest` is then the pair with the largest p-value, else a pair the
//     test cannot tell from the slowest (the largest p-value of those);
//   - when every pair has the same true RTT and a cell's runs are independent and normal,
//     a matrix is called distinct in at most 5% of cases although the slowest pair is
//     picked after the fact: with two pairs that is the test's own 5%, with more it is
//     fewer, since the slowest must then also beat the runner-up (matrix_verdict_test
//     checks it by simulation);
//   - no verdict (`tested` false, `why_untested` says why) with fewer than two measured
//     pairs, or a measured pair of one valid run (it has no interval).
// Not promised: that a real machine's runs are independent (drift, other load) — a
// verdict is as good as that assumption.
#ifndef HARNESS_MPI_MATRIX_VERDICT_H_
#define HARNESS_MPI_MATRIX_VERDICT_H_

#include <optional>
#include <string>

#include "harness/mpi/matrix_report.h"
#include "timing/stats/confidence.h"

namespace tickbench::harness {

// The averaged RTT of a measured cell as an interval with its standard error and degrees of
// freedom (as CellFromRuns made it, Student t across runs); invalid for a cell not measured
// or of one valid run.
timing::ConfidenceInterval CellInterval(const MatrixCell& cell);

// The measured pair of the lowest averaged RTT (the first of equals, row by row); nullopt
// when no pair was measured.
std::optional<RankPair> FastestPair(const Matrix& matrix);

// The slowest pair (SlowestPairs' first) tested against every other measured pair.
SlowestVerdict TestSlowestPair(const Matrix& matrix);

// "1->2 (alpha -> beta)": a pair with its hosts, as the table names it.
std::string PairName(const Matrix& matrix, const RankPair& pair);

// TestSlowestPair's verdict in one sentence, the test and its level named: "The slowest
// pair stands apart: DISTINCT from every other pair by a Welch t-test at 5% (...)", "...
// is not distinguishable from ...", or why it was not tested.
std::string SlowestSentence(const Matrix& matrix);

}  // namespace tickbench::harness

#endif  // HARNESS_MPI_MATRIX_VERDICT_H_
