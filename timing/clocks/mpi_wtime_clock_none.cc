// A build without MPI: mpi_wtime is named, refused, and offered nowhere.
#include "timing/clocks/mpi_wtime_clock.h"

namespace tickbench::timing {

// Never made in this build (MakeMpiWtime refuses it): no time to read.
int64_t MpiWtimeClock::NowTicks() { return 0; }

absl::Status ParseMpiWtime(absl::string_view, absl::Span<const absl::string_view>,
                           absl::string_view, ClockSpec&) {
  return absl::FailedPreconditionError(
      "clock 'mpi_wtime' needs a build with Open MPI: bazel build --config=mpi //harness "
      "(after tools/setup.sh --mpi)");
}

std::vector<ClockSpec> MpiWtimeOffered() { return {}; }

absl::StatusOr<std::unique_ptr<Clock>> MakeMpiWtime(const ClockSpec& spec,
                                                    const ClockEnvironment& environment) {
  ClockSpec unused = spec;
  return ParseMpiWtime(kMpiWtimeName, {}, kMpiWtimeName, unused);
}

}  // namespace tickbench::timing
