#include "timing/clocks/mpi_wtime_clock.h"

#include <mpi.h>

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "platform/mpi/mpi_world.h"

namespace tickbench::timing {
namespace {

// MPI_WTIME_IS_GLOBAL of MPI_COMM_WORLD: 1 when every rank's MPI_Wtime agrees, 0 when
// not, -1 when the attribute is not set.
int WtimeIsGlobal() {
  int* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &value, &found);
  return found && value != nullptr ? *value : -1;
}

}  // namespace

int64_t MpiWtimeClock::NowTicks() { return std::llround(MPI_Wtime() * 1e9); }

absl::Status ParseMpiWtime(absl::string_view, absl::Span<const absl::string_view> args,
                           absl::string_view text, ClockSpec&) {
  if (args.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("clock '", text, "' takes no ':' parts"));
}

std::vector<ClockSpec> MpiWtimeOffered() { return {ClockSpec{ClockKind::kMpiWtime}}; }

absl::StatusOr<std::unique_ptr<Clock>> MakeMpiWtime(const ClockSpec&, const ClockEnvironment&) {
  absl::StatusOr<platform::MpiWorld> world = platform::JoinMpiWorld();
  if (!world.ok()) return world.status();
  ClockInfo info;
  info.spec = kMpiWtimeName;
  info.name = "MPI_Wtime()";
  info.ticks_per_second = 1e9;
  const double tick_seconds = MPI_Wtick();
  info.claimed_resolution = absl::Nanoseconds(std::llround(tick_seconds * 1e9));
  // MPI promises elapsed time only; Open MPI reads CLOCK_MONOTONIC from an origin taken
  // at MPI_Init, and the clock conformance suite holds it to never stepping back.
  info.monotonic = true;
  const int global = WtimeIsGlobal();
  info.notes = absl::StrFormat(
      "MPI_Wtick %g s; MPI_WTIME_IS_GLOBAL %d (%s); rank %d of %d on %s; %s", tick_seconds, global,
      global == 1 ? "every rank's MPI_Wtime agrees" : "each rank's own clock", world->rank,
      world->size, world->host, world->library);
  return std::unique_ptr<Clock>(std::make_unique<MpiWtimeClock>(std::move(info)));
}

}  // namespace tickbench::timing
