// How a measurement loop (harness/engine/round_trip_loop.h) is chosen: once, outside the loop,
// for the concrete type of the endpoint and of each clock, so that the loop itself calls
// both directly. Each choice is a dynamic_cast to a `final` class of the fast-path lists
// (timing/clocks/fast_path_clocks.h, transport/registry/fast_path_endpoints.h); what
// matches none runs through the base class, with virtual calls.
//
// SelectLoop (harness/engine/round_trip_engine.h) picks the endpoint type among the transports'
// own; SelectLoopForEndpointType picks the clock types for an endpoint type the caller
// names, for tests and benchmarks with an endpoint class of their own.
#ifndef HARNESS_ENGINE_LOOP_SELECTION_H_
#define HARNESS_ENGINE_LOOP_SELECTION_H_

#include <cstdint>
#include <type_traits>

#include "core/type_list.h"
#include "harness/engine/round_trip_loop.h"
#include "harness/engine/run_record.h"
#include "timing/clock.h"
#include "timing/clocks/fast_path_clocks.h"
#include "transport/transport.h"

namespace tickbench::harness {

// One loop instantiation behind a common signature. It must be called with the endpoint
// and clocks it was selected for (or others of the same concrete types): it casts them
// down to those types without checking.
using LoopFunction = LoopOutcome (*)(transport::Endpoint& endpoint, timing::Clock& clock,
                                     timing::Clock* reference, const LoopBuffers& buffers,
                                     int64_t iterations, int64_t batch, uint64_t first_sequence,
                                     bool continue_on_loss, IntegrityCounts& integrity);

namespace loop_selection_internal {

// E, C: concrete endpoint and clock types (or the base classes); R: the reference's, or
// void for none.
template <typename E, typename C, typename R>
LoopOutcome LoopFor(transport::Endpoint& endpoint, timing::Clock& clock, timing::Clock* reference,
                    const LoopBuffers& buffers, int64_t iterations, int64_t batch,
                    uint64_t first_sequence, bool continue_on_loss, IntegrityCounts& integrity) {
  E& concrete_endpoint = static_cast<E&>(endpoint);
  C& concrete_clock = static_cast<C&>(clock);
  if constexpr (std::is_void_v<R>) {
    return TimedLoop(concrete_endpoint, concrete_clock, NoReferenceClock{}, buffers, iterations,
                     batch, first_sequence, continue_on_loss, integrity);
  } else {
    return TimedLoop(concrete_endpoint, concrete_clock,
                     ReferenceClock<R>{static_cast<R*>(reference)}, buffers, iterations, batch,
                     first_sequence, continue_on_loss, integrity);
  }
}

template <typename E, typename C>
LoopFunction ForReference(timing::Clock* reference) {
  if (reference == nullptr) return &LoopFor<E, C, void>;
  return core::VisitAmong<timing::Clock>(timing::FastPathReferences{}, *reference, [](auto tag) {
    return &LoopFor<E, C, typename decltype(tag)::type>;
  });
}

}  // namespace loop_selection_internal

// The loop over endpoints of type E (transport::Endpoint, or a `final` class derived from
// it) for the concrete types of `clock` and `reference` (which may be null).
//
// Instantiations: 5 measured clock types x 4 references for transport::Endpoint. For a
// concrete endpoint type, virtual time is left out (4 x 4): it runs only in simulation,
// whose endpoint is not one of the types SelectLoop specialises for, and would be read
// through timing::Clock, correctly, if it ever met one.
template <typename E>
LoopFunction SelectLoopForEndpointType(timing::Clock& clock, timing::Clock* reference) {
  static_assert(std::is_base_of_v<transport::Endpoint, E>, "E must be an endpoint type");
  using Clocks = std::conditional_t<std::is_same_v<E, transport::Endpoint>,
                                    timing::SimulationClocks, timing::FastPathClocks>;
  return core::VisitAmong<timing::Clock>(Clocks{}, clock, [&](auto tag) {
    return loop_selection_internal::ForReference<E, typename decltype(tag)::type>(reference);
  });
}

}  // namespace tickbench::harness

#endif  // HARNESS_ENGINE_LOOP_SELECTION_H_
