// Cells of synthetic matrices for the tests of the matrix's verdict and page: made by
// CellFromRuns from runs of given averaged RTTs, as a measuring rank makes them.
#ifndef HARNESS_MPI_MATRIX_TEST_CELLS_H_
#define HARNESS_MPI_MATRIX_TEST_CELLS_H_

#include <vector>

#include "absl/status/status.h"
#include "harness/mpi/matrix_report.h"

namespace tickbench::harness {

// A cell of runs of these averaged RTTs (ns); each run's per-iteration p50 0.98 and p99
// 2.5 times its averaged RTT.
inline MatrixCell CellOfRuns(const std::vector<double>& rtts_ns) {
  std::vector<RunRecord> runs(rtts_ns.size());
  for (size_t i = 0; i < rtts_ns.size(); ++i) {
    runs[i].timed_trips = 100;
    runs[i].averaged_rtt_ns = rtts_ns[i];
    runs[i].per_iteration_ns.p50 = rtts_ns[i] * 0.98;
    runs[i].per_iteration_ns.p99 = rtts_ns[i] * 2.5;
  }
  return CellFromRuns(runs, absl::OkStatus());
}

// Four runs evenly spread over rtt_ns +- spread_ns.
inline MatrixCell FourRuns(double rtt_ns, double spread_ns) {
  return CellOfRuns(
      {rtt_ns - spread_ns, rtt_ns - spread_ns / 3, rtt_ns + spread_ns / 3, rtt_ns + spread_ns});
}

}  // namespace tickbench::harness

#endif  // HARNESS_MPI_MATRIX_TEST_CELLS_H_
