// --report=FILE.html for --experiment=matrix: the round-trip matrix of an MPI job as a
// report page (harness/page/report_page.h renders it; the same promises hold: nothing
// fetched, every string from the run escaped, written whole or not at all). Pure: no MPI,
// built and tested in every build.
//
// Promised, in the page's order:
//   - the headlines: first, where the run ended early, "PARTIAL" and how many pairs were
//     measured, or where the matrix is complete but pairs have no figure, how many and
//     why; then the fastest and the slowest pair with their averaged RTT and 95% interval
//     in µs; then whether the slowest stands apart, by TestSlowestPair's test (named with
//     its p-value), or why it was not tested (matrix_verdict.h);
//   - the heat map (MatrixHeatMapSvg) as the page's one picture, its caption saying
//     "PARTIAL" for a partial matrix;
//   - the table: one row per ordered pair of distinct ranks (hosts, status, runs, averaged
//     RTT and its 95% interval in µs at the decimals of the column's finest interval
//     (timing::ColumnDecimals), per-iteration p50 and p99 to three significant digits, and
//     why a pair has no figure), with a legend that states the scale and the test's error
//     rate;
//   - folded: every pair in words (PairInWords), and the context given.
// Not promised: a verdict on any pair but the slowest.
#ifndef HARNESS_MPI_MATRIX_PAGE_H_
#define HARNESS_MPI_MATRIX_PAGE_H_

#include <string>
#include <vector>

#include "harness/context/run_context.h"
#include "harness/mpi/matrix_report.h"
#include "harness/page/report_page.h"
#include "harness/report/reporter.h"

namespace tickbench::harness {

// The page's first sentences (see above).
std::vector<std::string> MatrixHeadlines(const Matrix& matrix);

// The table of every ordered pair.
PageTable MatrixPageTable(const Matrix& matrix);

// The whole page; `header` says what each pair ran (runs, round trips).
ReportPage MatrixReportPage(const Matrix& matrix, const RunContext& context,
                            const ExperimentHeader& header);

}  // namespace tickbench::harness

#endif  // HARNESS_MPI_MATRIX_PAGE_H_
