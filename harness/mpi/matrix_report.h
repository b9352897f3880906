// The round-trip matrix of an MPI job (--experiment=matrix): what each ordered pair of
// ranks measured, and the matrix as a table, CSV and JSON. Pure: no MPI here, so that it
// is built and tested in every build.
//
// Cell (c, s) is rank c measuring round trips to rank s as its echo peer: the averaged
// RTT (the mean over runs of each run's whole-loop average) with its 95% interval across
// runs (Student t), and the per-iteration p50 and p99 (the mean over runs of each run's).
// A pair that failed, timed out or was never reached keeps its status and no figure.
#ifndef HARNESS_MPI_MATRIX_REPORT_H_
#define HARNESS_MPI_MATRIX_REPORT_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "harness/engine/run_record.h"

namespace tickbench::harness {

enum class PairStatus { kNotReached, kMeasured, kFailed, kTimedOut };

// "not reached", "measured", "failed", "timed out".
const char* PairStatusName(PairStatus status);

struct MatrixCell {
  PairStatus status = PairStatus::kNotReached;
  int valid_runs = 0;
  double rtt_ns = 0;  // averaged RTT, mean over runs
  double rtt_low_ns = 0;
  double rtt_high_ns = 0;
  double p50_ns = 0;  // per-iteration, mean over runs
  double p99_ns = 0;
  std::string error;  // why it failed or timed out; "" when measured
};

struct Matrix {
  std::string transport;
  std::string clock;
  size_t size_bytes = 0;
  std::vector<std::string> hosts;  // one per rank
  std::vector<MatrixCell> cells;   // ranks x ranks, row = client, column = echo peer
  bool complete = false;           // false while pairs are still to come (a partial matrix)

  int ranks() const { return static_cast<int>(hosts.size()); }
  MatrixCell& at(int client, int server) { return cells[client * ranks() + server]; }
  const MatrixCell& at(int client, int server) const { return cells[client * ranks() + server]; }
};

// A matrix of `hosts.size()` ranks, every cell not reached yet.
Matrix EmptyMatrix(std::string transport, std::string clock, size_t size_bytes,
                   std::vector<std::string> hosts);

// The cell of a pair from its runs (RunSweep's records of one size) and the sweep's status:
// measured when some run is valid (the figures over the valid runs), failed otherwise,
// with the status's message (or the last run's error) as its error.
MatrixCell CellFromRuns(const std::vector<RunRecord>& records, const absl::Status& status);

struct RankPair {
  int client = 0;
  int server = 0;
};

// The measured pairs with the highest averaged RTT, slowest first, at most `count`.
std::vector<RankPair> SlowestPairs(const Matrix& matrix, int count = 3);

// Whether the slowest pair stands apart from the others: TestSlowestPair
// (matrix_verdict.h) makes it; the table and the JSON carry it.
struct SlowestVerdict {
  bool tested = false;
  std::string why_untested;  // "" when tested
  RankPair slowest;          // the measured pair of the highest averaged RTT
  bool distinct = false;
  RankPair closest;    // the other pair the test separates least from the slowest
  double p_value = 1;  // of the slowest against `closest`
};

// True when every pair of distinct ranks was measured.
bool EveryPairMeasured(const Matrix& matrix);

// The table: the averaged RTT with its interval, then the per-iteration p50/p99, each as
// an N x N grid in microseconds (rows: the measuring rank; columns: its echo peer), the
// hosts, the slowest pairs named, `verdict_sentence` (SlowestSentence, matrix_verdict.h)
// on a line of its own when not empty, and every pair that was not measured with its
// status. Host names (a peer rank's to give) and errors are made safe for a terminal
// (TerminalText), as is the sentence, which names hosts.
std::string MatrixTable(const Matrix& matrix, const std::string& verdict_sentence = "");

// One row per ordered pair of distinct ranks, with a header; host names made safe for a
// terminal and quoted as CSV fields where they need it (CsvField). The JSON keeps them as
// they came, escaped as JSON.
std::string MatrixCsv(const Matrix& matrix);

// One object: transport, clock, size, hosts, pairs (one per ordered pair of distinct
// ranks), the slowest pairs and `verdict` as "slowest_test": the test named, whether it
// ran ("tested"; "why_untested" when not), and when it did "distinct", the "closest" pair
// and its "p_value".
std::string MatrixJson(const Matrix& matrix, const SlowestVerdict& verdict);

}  // namespace tickbench::harness

#endif  // HARNESS_MPI_MATRIX_REPORT_H_
