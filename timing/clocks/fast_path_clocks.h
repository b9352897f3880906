// The clock classes the measurement loop is specialised for (harness/engine/loop_selection.h):
// a read through one of them is an inlined instruction sequence, not a virtual call. A new
// `final` clock class that reads real time goes on these lists as it goes into the
// registry (clock_registry.cc); the clock conformance suite fails for a registered clock
// that is neither on them nor simulated.
#ifndef TIMING_CLOCKS_FAST_PATH_CLOCKS_H_
#define TIMING_CLOCKS_FAST_PATH_CLOCKS_H_

#include <type_traits>

#include "core/type_list.h"
#include "timing/clock.h"
#include "timing/clocks/cycle_clock.h"
#include "timing/clocks/mpi_wtime_clock.h"
#include "timing/clocks/os_clocks.h"
#include "timing/clocks/virtual_clock.h"

namespace tickbench::timing {

// As the measured clock, over any endpoint type.
using FastPathClocks =
    core::TypeList<CycleClock, ClockGettimeClock, GettimeofdayClock, MpiWtimeClock>;
// As the reference (read beside the measured one): the fine clocks only.
using FastPathReferences = core::TypeList<CycleClock, ClockGettimeClock>;
// Simulated time, as the measured clock over the base endpoint class only (it runs only in
// simulation, whose endpoint is not on the endpoint list). Tick clocks are read through
// timing::Clock, a virtual call per read, which only simulated clocks take.
using SimulationClocks =
    core::TypeList<CycleClock, ClockGettimeClock, GettimeofdayClock, VirtualClock>;

// Whether a loop over `clock` reads it without a virtual call (as the measured clock).
inline bool OnFastPath(Clock& clock) {
  return core::VisitAmong<Clock>(FastPathClocks{}, clock, [](auto tag) {
    return !std::is_same_v<typename decltype(tag)::type, Clock>;
  });
}

}  // namespace tickbench::timing

#endif  // TIMING_CLOCKS_FAST_PATH_CLOCKS_H_
