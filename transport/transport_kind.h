// The transports this build knows, by kind and by the name used on the command line.
//
// One table in transport_kind.cc maps kinds to names; adding a transport is one enum
// value, one table row and one case in MakeTransport().
#ifndef TRANSPORT_TRANSPORT_KIND_H_
#define TRANSPORT_TRANSPORT_KIND_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace tickbench::transport {

enum class TransportKind {
  kUnixStream,  // "unix_stream"
  kUnixDgram,   // "unix_dgram"
  kUdp,         // "udp"
  kUdp6,        // "udp6"
  kTcp,         // "tcp"
  kTcp6,        // "tcp6"
  kPipe,        // "pipe"
};

// Every kind, in the order names are listed.
absl::Span<const TransportKind> AllTransportKinds();

absl::string_view TransportKindName(TransportKind kind);

// The kind named `name`, or InvalidArgument listing the names allowed.
absl::StatusOr<TransportKind> ParseTransportKind(absl::string_view name);

// "unix_stream, unix_dgram, udp, udp6, tcp, tcp6, pipe".
std::string AllowedTransportNames();

// For ABSL_FLAG(TransportKind, ...).
bool AbslParseFlag(absl::string_view text, TransportKind* kind, std::string* error);
std::string AbslUnparseFlag(TransportKind kind);

}  // namespace tickbench::transport

#endif  // TRANSPORT_TRANSPORT_KIND_H_
