// "mpi_wtime": MPI_Wtime(), the clock the MPI ping-pongs (OSU, NetPIPE's NPmpi, Intel MPI
// Benchmarks) time with, in a build with Open MPI (`--config=mpi`). Making one joins the
// MPI world (platform/mpi/mpi_world.h): under mpirun this rank's, alone a world of one.
//
// What it is: MPI_Wtime() returns seconds as a double since an arbitrary origin; here a
// reading is that double times 1e9, rounded to whole nanoseconds (ticks at 1 GHz). Its
// claimed resolution is MPI_Wtick(), which varies by implementation (Open MPI 4.1 says
// 1e-9 s); what it resolves is measured by the probe, as for every clock: a double
// counting seconds since a large origin resolves less than MPI_Wtick claims.
//
// Monotonic: MPI promises only elapsed wall-clock time, but Open MPI (the MPI this build
// takes) reads CLOCK_MONOTONIC from an origin taken at MPI_Init, and the clock
// conformance suite holds it to never stepping back.
// What is NOT promised: agreement between ranks unless MPI_WTIME_IS_GLOBAL is 1 (the
// clock's notes say which); the matrix never subtracts one rank's readings from another's.
#ifndef TIMING_CLOCKS_MPI_WTIME_CLOCK_H_
#define TIMING_CLOCKS_MPI_WTIME_CLOCK_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "timing/clock.h"
#include "timing/clocks/clock_spec.h"

namespace tickbench::timing {

inline constexpr char kMpiWtimeName[] = "mpi_wtime";

// MPI_Wtime() in nanoseconds. A `final` class on the loop's fast path
// (timing/clocks/fast_path_clocks.h), so that the loop calls it directly; the body is MPI's
// library call, defined where MPI is built in (mpi_wtime_clock.cc).
class MpiWtimeClock final : public Clock {
 public:
  explicit MpiWtimeClock(ClockInfo info) : Clock(std::move(info)) {}
  int64_t NowTicks() override;
};

// The registry's row functions (clock_registry.h). In a build without MPI, parsing the
// spec is FailedPrecondition saying how to build with it, and nothing is offered.
absl::Status ParseMpiWtime(absl::string_view name, absl::Span<const absl::string_view> args,
                           absl::string_view text, ClockSpec& spec);
std::vector<ClockSpec> MpiWtimeOffered();
absl::StatusOr<std::unique_ptr<Clock>> MakeMpiWtime(const ClockSpec& spec,
                                                    const ClockEnvironment& environment);

}  // namespace tickbench::timing

#endif  // TIMING_CLOCKS_MPI_WTIME_CLOCK_H_
