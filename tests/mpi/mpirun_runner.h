// Running the harness under mpirun from a test, as a user runs it on one machine: every
// rank on this host (--oversubscribe: more ranks than CPUs), as root if need be
// (--allow-run-as-root), bounded by timeout(1).
#ifndef TESTS_MPI_MPIRUN_RUNNER_H_
#define TESTS_MPI_MPIRUN_RUNNER_H_

#include <string>

#include "absl/strings/str_cat.h"
#include "tests/harness_runner.h"

namespace tickbench::testing {

// `mpirun -np RANKS harness ARGS` (ARGS shell-quoted), killed after `timeout_seconds`.
// The ranks talk through shared memory (--mca btl self,vader), so that a host with no
// network interface but loopback does not matter.
inline HarnessResult RunUnderMpirun(int ranks, const std::string& args, int timeout_seconds = 120) {
  return RunHarnessUnder(absl::StrCat("mpirun --allow-run-as-root --oversubscribe --mca btl "
                                      "self,vader -np ",
                                      ranks),
                         args, timeout_seconds);
}

}  // namespace tickbench::testing

#endif  // TESTS_MPI_MPIRUN_RUNNER_H_
