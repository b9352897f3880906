// The endpoint classes the measurement loop is specialised for
// (harness/engine/loop_selection.h): each Send() and Receive() through one of them is a
// direct call to a known function, not an indirect call through the vtable. A new `final`
// endpoint class goes on this list, with its name, as its transport goes into the registry
// (transport_registry.cc); the transport conformance suite fails for a registered
// transport (other than the simulation) whose endpoint is not on it.
#ifndef TRANSPORT_REGISTRY_FAST_PATH_ENDPOINTS_H_
#define TRANSPORT_REGISTRY_FAST_PATH_ENDPOINTS_H_

#include <type_traits>

#include "core/type_list.h"
#include "transport/mpi/mpi_transport.h"
#include "transport/pipes/pipe_transport.h"
#include "transport/sockets/socket_endpoint.h"
#include "transport/transport.h"

namespace tickbench::transport {

using FastPathEndpoints =
    core::TypeList<DatagramSocketEndpoint, StreamSocketEndpoint, PipeEndpoint, MpiEndpoint>;

// How a run's context names the loop an endpoint type gets ("endpoint": virtual calls).
template <typename E>
inline constexpr const char* kFastPathName = "endpoint";
template <>
inline constexpr const char* kFastPathName<DatagramSocketEndpoint> = "datagram_socket";
template <>
inline constexpr const char* kFastPathName<StreamSocketEndpoint> = "stream_socket";
template <>
inline constexpr const char* kFastPathName<PipeEndpoint> = "pipe";
template <>
inline constexpr const char* kFastPathName<MpiEndpoint> = "mpi";

// Whether a loop over `endpoint` calls its Send() and Receive() directly.
inline bool OnFastPath(Endpoint& endpoint) {
  return core::VisitAmong<Endpoint>(FastPathEndpoints{}, endpoint, [](auto tag) {
    return !std::is_same_v<typename decltype(tag)::type, Endpoint>;
  });
}

}  // namespace tickbench::transport

#endif  // TRANSPORT_REGISTRY_FAST_PATH_ENDPOINTS_H_
