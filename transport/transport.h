// A connected pair of endpoints that moves whole messages. Nothing here knows about
// clocks: the harness times what these calls do.
//
// What is promised:
//   * Send() moves the whole message or fails: all bytes on a stream (short writes and
//     EINTR handled), or exactly one datagram.
//   * Receive() fills the whole buffer or fails: exactly buffer.size() bytes on a stream;
//     on a datagram transport, one datagram that must be exactly buffer.size() bytes
//     long (another length is a DataLoss error, never a silent truncation).
//   * A message longer than max_message_size() is refused with InvalidArgument before
//     anything is sent.
//   * With a receive timeout set, Receive() returns DeadlineExceeded instead of waiting
//     longer; a peer that has gone (EOF, reset) gives Unavailable. A datagram transport
//     often cannot tell that its peer has gone: then the timeout is the only way out.
//   * The timeout bounds the whole message, not each read: a stream peer that drips its
//     message a byte at a time, each byte within the timeout, still ends the receive in
//     DeadlineExceeded, within twice the timeout (plus a read watchdog's tick period) of
//     its start. The rule, chosen so that a message whole at the first read costs no
//     clock read: a bound that needs no clock (a read watchdog's ticks, read_watchdog.h)
//     runs from the receive's start; a bound kept by the kernel per read (SO_RCVTIMEO) or
//     by ppoll() bounds the wait for the first bytes, and the clock, read once when a read
//     returns part of a message (or a wait begins), makes the rest due a timeout later.
// What is NOT promised:
//   * Endpoints are not thread-safe; each one has one user.
//   * Datagram transports do not retransmit: a lost datagram is a timeout.
#ifndef TRANSPORT_TRANSPORT_H_
#define TRANSPORT_TRANSPORT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"

namespace tickbench::transport {

class Endpoint {
 public:
  virtual ~Endpoint() = default;

  virtual absl::Status Send(absl::Span<const char> message) = 0;
  virtual absl::Status Receive(absl::Span<char> buffer) = 0;

  // absl::InfiniteDuration() (the default) waits for ever. Any other timeout must be
  // positive (InvalidArgument otherwise): SO_RCVTIMEO reads 0 as "for ever".
  virtual absl::Status SetReceiveTimeout(absl::Duration timeout) = 0;

  // Busy polling: with `on`, Receive() never sleeps in the kernel but spins on
  // non-blocking receives until its message is there (or the receive timeout passes),
  // trading a CPU kept busy for the wake-up a blocking receive pays when its message
  // arrives. Unimplemented for endpoints that have nothing to poll.
  virtual absl::Status SetBusyPoll(bool on) {
    if (!on) return absl::OkStatus();
    return absl::UnimplementedError("this transport has no receive to busy-poll");
  }

  // What Transport says about its messages, repeated here so that code handed only an
  // endpoint (the echo peer in a forked child) can size its buffers.
  virtual bool keeps_boundaries() const = 0;
  virtual bool may_lose() const = 0;
  virtual size_t max_message_size() const = 0;

  // Datagram endpoints only: waits for one datagram of any length up to buffer.size(),
  // copies it into `buffer` and returns its length. A longer one is consumed and reported
  // as DataLoss. Stream endpoints keep this default: a stream has no message boundaries.
  virtual absl::StatusOr<size_t> ReceiveDatagram(absl::Span<char> buffer) {
    return absl::UnimplementedError("ReceiveDatagram() needs a datagram endpoint");
  }

  // The kernel's send and receive buffer sizes of this endpoint's socket as set
  // (SO_SNDBUF, SO_RCVBUF), for the report's system facts; Unimplemented without a socket.
  struct BufferSizes {
    int send_bytes = 0;
    int receive_bytes = 0;
    bool pipe = false;  // a pipe's capacity (F_GETPIPE_SZ), not a socket's buffers
  };
  virtual absl::StatusOr<BufferSizes> SocketBufferSizes() const {
    return absl::UnimplementedError("no socket behind this endpoint");
  }

  // Stream endpoints: the echo peer's inner loop. Receives `count` messages of
  // buffer.size() bytes, sending each back as it came, and stops at the first failure;
  // `done` counts what was received and sent back, so a failure with
  // done.received > done.echoed was the send's. This default makes the calls through
  // this interface; a final endpoint overrides it with EchoMessagesOf(*this, ...), so
  // that its own Receive() and Send() run inline in the loop, as in the client's.
  struct EchoCount {
    uint32_t received = 0;
    uint32_t echoed = 0;
  };
  virtual absl::Status EchoMessages(absl::Span<char> buffer, uint32_t count, EchoCount& done);

  // Datagram endpoints: the same for datagrams of any length up to buffer.size(). Echoes
  // each as it came until one of exactly `stop_length` bytes arrives (the length of the
  // echo peer's control frames), which it leaves in `buffer`, unsent, and returns the
  // length of; stops at the first failure, counting in `done` as above.
  virtual absl::StatusOr<size_t> EchoDatagrams(absl::Span<char> buffer, size_t stop_length,
                                               EchoCount& done);
};

template <typename EndpointT>
inline absl::Status EchoMessagesOf(EndpointT& endpoint, absl::Span<char> buffer, uint32_t count,
                                   Endpoint::EchoCount& done) {
  // The counts in locals, written back on the way out: `done` lives in the caller's frame,
  // and a store to it before every system call is memory the bare loop does not touch.
  uint32_t received = done.received;
  uint32_t echoed = done.echoed;
  absl::Status status;
  while (echoed < count) {
    status = endpoint.Receive(buffer);
    if (ABSL_PREDICT_FALSE(!status.ok())) break;
    ++received;
    status = endpoint.Send(buffer);
    if (ABSL_PREDICT_FALSE(!status.ok())) break;
    ++echoed;
  }
  done.received = received;
  done.echoed = echoed;
  return status;
}

template <typename EndpointT>
inline absl::StatusOr<size_t> EchoDatagramsOf(EndpointT& endpoint, absl::Span<char> buffer,
                                              size_t stop_length, Endpoint::EchoCount& done) {
  while (true) {
    absl::StatusOr<size_t> length = endpoint.ReceiveDatagram(buffer);
    if (ABSL_PREDICT_FALSE(!length.ok())) return length;
    ++done.received;
    if (ABSL_PREDICT_FALSE(*length == stop_length)) return length;
    if (absl::Status sent = endpoint.Send(buffer.first(*length)); ABSL_PREDICT_FALSE(!sent.ok())) {
      return sent;
    }
    ++done.echoed;
  }
}

inline absl::StatusOr<size_t> Endpoint::EchoDatagrams(absl::Span<char> buffer, size_t stop_length,
                                                      EchoCount& done) {
  return EchoDatagramsOf(*this, buffer, stop_length, done);
}

inline absl::Status Endpoint::EchoMessages(absl::Span<char> buffer, uint32_t count,
                                           EchoCount& done) {
  return EchoMessagesOf(*this, buffer, count, done);
}

// Both ends of one connection. Either end may be handed to another process (fork): an
// endpoint owns only file descriptors and memory, which the child inherits.
struct EndpointPair {
  std::unique_ptr<Endpoint> client;
  std::unique_ptr<Endpoint> server;
};

class Transport {
 public:
  virtual ~Transport() = default;

  // "unix_stream", "unix_dgram", "udp", "udp6", "tcp", "tcp6", "pipe", "sim".
  virtual absl::string_view name() const = 0;

  // Largest message one Send() may carry (65507 bytes for UDP over IPv4).
  virtual size_t max_message_size() const = 0;

  // Each Receive() returns one whole message as it was sent (datagrams; a reliable message
  // socket such as SOCK_SEQPACKET too), not the next bytes of a stream.
  virtual bool keeps_boundaries() const = 0;
  // A message may be lost on the way, so that a Receive() times out while the peer lives
  // (datagram sockets): the loss rule (--continue_on_loss) applies to it.
  virtual bool may_lose() const = 0;

  // Makes a new connected pair on this host.
  virtual absl::StatusOr<EndpointPair> Connect() = 0;

  // False when no local echo peer is needed: the client endpoint echoes by itself (the
  // simulated transport) or talks to a peer elsewhere (a remote server). Connect() then
  // leaves the server end empty.
  virtual bool needs_local_peer() const { return true; }
};

}  // namespace tickbench::transport

#endif  // TRANSPORT_TRANSPORT_H_
