// The experiments tickbench runs by name: the two classic measurements, and a plain
// sweep with the flags' own values.
#ifndef HARNESS_CLI_PRESETS_H_
#define HARNESS_CLI_PRESETS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/report/sweep_report.h"

namespace tickbench::harness {

struct Preset {
  std::string name;
  std::string description;
  std::string transport;
  std::string sizes;
  int64_t iterations;
  int runs;
  TableStyle style;
};

// unix_throughput: round trips of n bytes each way over a UNIX-domain stream socket,
//   1000 iterations x 4 runs per size, throughput counted as 2n bytes per round trip.
// udp_rtt: UDP datagrams over IPv4, 50 to 2000 bytes in steps of 50, 5000 round trips,
//   RTT in ms averaged over the whole loop.
// study: the timer-resolution study over --clocks (unix_stream, 32, 1024, 4096 bytes).
// matrix: every pair of ranks of an MPI job, 64 bytes, 1000 iterations x 4 runs per pair
//   (harness/mpi/matrix_command.h).
// sweep: whatever the flags say (unix_stream, 32..4096 by default).
const std::vector<Preset>& Presets();

// The matrix's name: the experiment that is not a sweep but runs under mpirun.
inline constexpr char kMatrixExperiment[] = "matrix";

// InvalidArgument naming --experiment and the allowed values.
absl::StatusOr<Preset> FindPreset(absl::string_view name);

}  // namespace tickbench::harness

#endif  // HARNESS_CLI_PRESETS_H_
