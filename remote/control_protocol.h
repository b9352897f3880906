// The control protocol between a tickbench client and a server on another host: one
// request, one answer, on a TCP connection that then stays open, idle, for the session.
// Its closing ends the session.
//
// Every message is a 12-byte header and a payload; integers are little-endian.
//   bytes 0..3    magic            kControlMagic ("TBRC" in memory order)
//   bytes 4..5    version          kMinControlVersion..kControlVersion (1 or 2)
//   bytes 6..7    type             1 request, 2 accept, 3 error, 4 busy (version 2 only)
//   bytes 8..11   payload_length   at most kMaxControlPayloadBytes
// Payloads:
//   request, 20 bytes (client -> server)
//     0       transport           the row's remote_code (transport/registry/transport_registry.cc):
//                                 1 udp, 2 udp6, 3 tcp, 4 tcp6
//     1..3    zero
//     4..5    client_data_port    UDP: the port of the client's data socket (not 0);
//                                 TCP: 0 (the client connects to the server)
//     6..7    zero
//     8..11   size_count          message sizes in the sweep, 1..kMaxRequestSizeCount
//     12..15  min_message_bytes   1 <= min <= max
//     16..19  max_message_bytes   at most the transport's largest message
//   accept, 4 bytes (server -> client): data_port u16 (not 0), then 2 zero bytes.
//   error, 1..kMaxControlPayloadBytes bytes (server -> client): a message of printable
//     ASCII (0x20..0x7e), so that a hostile server cannot put escape sequences on the
//     client's terminal.
//   busy, 8 bytes (server -> client, version 2): active_sessions u32 (not 0), then
//     session_limit u32 (not 0): the server already serves as many sessions as it will.
// Zero fields must be zero: a later version can give them a meaning, and this one then
// refuses it instead of misreading it.
//
// Versions. Version 2 adds the busy message and nothing else; every version-1 message is
// also a version-2 message with only the version field changed. A client sends its
// request in the highest version it speaks; the server answers in the version of the
// request, so a version-1 client is told "busy" as an error message it can read. A
// version-1 server answers a version-2 request with an error naming the version.
//
// Decoding trusts nothing it reads: every length is checked against the bytes at hand
// before use, the work is linear in the input and bounded by 12 + 4096 bytes, and every
// rejection is InvalidArgument with a message that says what was wrong. It never aborts.
#ifndef REMOTE_CONTROL_PROTOCOL_H_
#define REMOTE_CONTROL_PROTOCOL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "transport/registry/transport_registry.h"

namespace tickbench::remote {

inline constexpr uint32_t kControlMagic = 0x43524254;  // "TBRC" in memory order
// The version this build writes, and the oldest one it still reads and answers.
inline constexpr uint16_t kControlVersion = 2;
inline constexpr uint16_t kMinControlVersion = 1;
inline constexpr size_t kControlHeaderBytes = 12;
// Room for any error message the server sends (they are one line, well under 200
// bytes), and small enough that a hostile length costs at most 4 KiB of memory.
inline constexpr uint32_t kMaxControlPayloadBytes = 4096;
// The harness allows 10,000 sizes in a sweep (harness/cli/size_list.h).
inline constexpr uint32_t kMaxRequestSizeCount = 10'000;

enum class ControlType : uint16_t {
  kRequest = 1,
  kAccept = 2,
  kError = 3,
  kBusy = 4,  // version 2 on
};

struct ControlHeader {
  uint16_t version = kControlVersion;
  ControlType type = ControlType::kRequest;
  uint32_t payload_length = 0;
};

struct SessionRequest {
  // A registry row with a remote code (IsRemoteTransport); null encodes as code 0,
  // which no decoder accepts.
  const transport::TransportInfo* transport = nullptr;
  uint16_t client_data_port = 0;
  uint32_t size_count = 1;
  uint32_t min_message_bytes = 1;
  uint32_t max_message_bytes = 1;
};

struct SessionAccept {
  uint16_t data_port = 0;
};

struct SessionError {
  std::string message;
};

struct SessionBusy {
  uint32_t active_sessions = 1;
  uint32_t session_limit = 1;
};

using ControlMessage = std::variant<SessionRequest, SessionAccept, SessionError, SessionBusy>;

// What a busy server says, as the client reports it and as a version-1 client reads it:
// "server busy: N sessions active, try again later".
std::string BusyText(const SessionBusy& busy);

// The transports a session can use: the registry's rows with a remote code (udp, udp6,
// tcp, tcp6).
bool IsRemoteTransport(const transport::TransportInfo& row);

// "udp, udp6, tcp or tcp6": the names of the transports a session can use.
std::string RemoteTransportNames();

// Largest message of a remote transport, its row's: 65,507 bytes for udp, 65,527 for
// udp6, 16 MiB for tcp and tcp6; 0 for a transport that is not remote.
size_t RemoteMaxMessageBytes(const transport::TransportInfo& row);

// The bytes of `message` in `version` (kMinControlVersion..kControlVersion; any other
// value is taken as kControlVersion). An error message is cut to kMaxControlPayloadBytes,
// each byte outside 0x20..0x7e becomes '?' and an empty one becomes "error", so that an
// encoded error always decodes. In version 1 a busy message is written as the error
// BusyText(busy), which that version can carry. A request, accept or busy message decodes
// when its fields are valid.
std::string EncodeControlMessage(const ControlMessage& message, uint16_t version = kControlVersion);

// The header in exactly kControlHeaderBytes bytes: magic, a version this build reads, a
// type known in that version, and a payload length within kMaxControlPayloadBytes. A
// reader calls this before it reads the payload, so an oversize length costs it 12
// bytes, not 4 GiB.
absl::StatusOr<ControlHeader> DecodeControlHeader(absl::Span<const char> bytes);

// One whole message: a valid header, then exactly payload_length bytes of a valid
// payload for its type (the layouts above), nothing more. The version is the header's:
// EncodeControlMessage(message, header.version) gives back exactly `bytes`.
absl::StatusOr<ControlMessage> DecodeControlMessage(absl::Span<const char> bytes);

}  // namespace tickbench::remote

#endif  // REMOTE_CONTROL_PROTOCOL_H_
