#include "harness/cli/presets.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/cli/hints/near_names.h"

namespace tickbench::harness {

const std::vector<Preset>& Presets() {
  static const auto* const kPresets = new std::vector<Preset>{
      {"unix_throughput",
       "classic 1: UNIX-domain stream socket, throughput (2n bytes per round trip) against size",
       "unix_stream", "32,512,1024,1300,1400,1460,1492,1536,2032,2984,4096", 1000, 4,
       TableStyle::kThroughput},
      {"udp_rtt", "classic 2: UDP over IPv4, round-trip time against size, 50 to 2000 bytes", "udp",
       "50:2000:50", 5000, 1, TableStyle::kRttMillis},
      {"study",
       "the timer-resolution study: each clock of --clocks against the reference, averaged and "
       "per-iteration, held against the coarse-tick theory",
       "unix_stream", "32,1024,4096", 1000, 4, TableStyle::kRttMicros},
      {kMatrixExperiment,
       "every pair of ranks of mpirun -np N in turn, over mpi: the N x N round-trip matrix "
       "(a build with --config=mpi)",
       "mpi", "64", 1000, 4, TableStyle::kRttMicros},
      {"sweep", "a size sweep as the flags say", "unix_stream", "32,64,128,256,512,1024,2048,4096",
       1000, 4, TableStyle::kRttMicros},
  };
  return *kPresets;
}

absl::StatusOr<Preset> FindPreset(absl::string_view name) {
  std::vector<std::string> names;
  for (const Preset& preset : Presets()) {
    if (preset.name == name) return preset;
    names.push_back(preset.name);
  }
  return WithDidYouMean(
      absl::InvalidArgumentError(absl::StrCat("--experiment: unknown experiment '", name,
                                              "'; allowed: ", absl::StrJoin(names, ", "))),
      name, names);
}

}  // namespace tickbench::harness
