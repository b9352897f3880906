// The echo peer: the server side of a round-trip measurement, and the client's half of
// its protocol.
//
// Protocol. Before each block of messages the client sends a 16-byte control frame (one
// datagram on a datagram transport), four little-endian u32 fields:
//   bytes  0..3   magic         kControlMagic
//   bytes  4..7   command       kEchoBlock (1) or kQuit (2)
//   bytes  8..11  message_size  kEchoBlock: bytes per message (at most 2^30); kQuit: 0
//   bytes 12..15  count         kEchoBlock: messages in the block; kQuit: 0
// Stream transports: the peer reads a frame, then `count` times reads `message_size`
// bytes and writes them back, then reads the next frame. kQuit ends the loop with OK, and
// so does the client going away (end of file, reset) where a frame should start. A
// malformed frame, or an error inside a block, ends it with that error.
// Datagram transports: a lost datagram must not wedge the peer, so it does not count.
// It echoes every datagram it receives, except a 16-byte one that parses as a control
// frame: kEchoBlock frames are accepted (there is nothing to echo) and kQuit ends the
// loop with OK, as does a client that has gone (ECONNREFUSED).
//
// Why an echoed message is never taken for a control frame: a 16-byte message is all
// stamp, s then ~s (message_pattern.h). Read as a frame, its magic is low32(s), its
// command high32(s), and its message_size ~low32(s). For the magic to match, message_size
// must be ~kControlMagic = 0xAFBABDAB, over the 2^30 a valid kEchoBlock frame may carry,
// and not the 0 kQuit requires. So no intact stamped message, whatever its sequence
// number, parses as a frame.
//
// The peer echoes each message before it reads the next: a client must read the echoes
// as it goes. One that sends more than the socket or pipe buffers hold without reading
// deadlocks with the peer.
#ifndef TRANSPORT_ECHO_PEER_H_
#define TRANSPORT_ECHO_PEER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "transport/transport.h"

namespace tickbench::transport {

inline constexpr size_t kControlFrameBytes = 16;
inline constexpr uint32_t kControlMagic = 0x50454254;  // "TBEP" in memory order
inline constexpr uint32_t kMaxControlMessageBytes = uint32_t{1} << 30;
static_assert(static_cast<uint32_t>(~kControlMagic) > kMaxControlMessageBytes,
              "a stamped 16-byte message must not parse as a control frame");

enum class PeerCommand : uint32_t {
  kEchoBlock = 1,
  kQuit = 2,
};

struct ControlFrame {
  PeerCommand command = PeerCommand::kEchoBlock;
  uint32_t message_size = 0;
  uint32_t count = 0;
};

std::array<char, kControlFrameBytes> EncodeControlFrame(const ControlFrame& frame);

// The frame in `bytes`, or nullopt unless `bytes` is exactly 16 bytes with the magic, a
// known command, and fields valid for it (see the protocol above).
std::optional<ControlFrame> ParseControlFrame(absl::Span<const char> bytes);

// Fault hooks, for tests of what a client does when its peer misbehaves.
struct EchoPeerOptions {
  // Datagram transports only (InvalidArgument on a stream): do not echo the k-th, 2k-th,
  // ... message, counting messages (not control frames) from 1. 0 = off.
  int64_t drop_every_kth = 0;
  // After this many echoes, stop: the loop returns OK at once, as if the peer died.
  // 0 = off.
  int64_t stop_after = 0;
  // Wait this long before each echo.
  absl::Duration reply_delay = absl::ZeroDuration();
  // Not a fault: receive by busy polling (Endpoint::SetBusyPoll), as the client does
  // with --busy_poll, so that neither side of a round trip waits for a wake-up.
  bool busy_poll = false;
};

// Runs the server side of the protocol on `endpoint` until kQuit, the client going away,
// a fault hook, or an error.
absl::Status RunEchoPeer(Endpoint& endpoint, const EchoPeerOptions& options);

// Client side: announces a block of `count` messages of `message_size` bytes.
// InvalidArgument when message_size exceeds the endpoint's limit.
absl::Status SendBlockHeader(Endpoint& endpoint, uint32_t message_size, uint32_t count);

// Client side: tells the peer to end its loop.
absl::Status SendQuit(Endpoint& endpoint);

}  // namespace tickbench::transport

#endif  // TRANSPORT_ECHO_PEER_H_
