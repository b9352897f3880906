// "unix_dgram": AF_UNIX SOCK_DGRAM sockets, each bound to a path and connected to the
// other, so that a reply needs no address.
//
// Largest message: the kernel refuses a datagram with EMSGSIZE when it is longer than the
// sender's send buffer less 32 bytes (net/unix/af_unix.c, unix_dgram_sendmsg:
// `len > sk->sk_sndbuf - 32`). Both sockets ask for kUnixDgramBufferRequestBytes of send
// and receive buffer; Linux doubles the request and caps it at 2 x net.core.wmem_max, so
// with 256 KiB asked the buffer is 512 KiB and the limit 524,256 bytes (425,952 on a host
// left at the default wmem_max of 212,992). The limit is the buffer size read back with
// getsockopt() minus 32: MakeUnixDgramTransport() measures it on a probe socket pair, and
// Connect() checks that its sockets got as much.
//
// Why not more: a datagram is one socket buffer whose linear part is one kmalloc(), and
// above about 4 MiB (4,263,616 bytes measured on Linux 6.18 with an 8 MiB send buffer)
// that allocation fails with ENOBUFS; large high-order allocations may also fail on a
// host with fragmented memory. 512 KiB keeps well clear of both.
//
// UNIX datagrams are never dropped: a sender blocks while the receiver's queue holds
// net.unix.max_dgram_qlen datagrams.
#ifndef TRANSPORT_UNIX_DGRAM_TRANSPORT_H_
#define TRANSPORT_UNIX_DGRAM_TRANSPORT_H_

#include <memory>

#include "absl/status/statusor.h"
#include "transport/transport.h"

namespace tickbench::transport {

inline constexpr int kUnixDgramBufferRequestBytes = 256 << 10;

// The kernel's rule: what a send buffer of `send_buffer_bytes` lets through.
inline constexpr size_t UnixDgramLimitForSendBuffer(int send_buffer_bytes) {
  return send_buffer_bytes > 32 ? static_cast<size_t>(send_buffer_bytes - 32) : 0;
}

absl::StatusOr<std::unique_ptr<Transport>> MakeUnixDgramTransport();

}  // namespace tickbench::transport

#endif  // TRANSPORT_UNIX_DGRAM_TRANSPORT_H_
