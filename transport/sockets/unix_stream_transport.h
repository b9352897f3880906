// "unix_stream": AF_UNIX SOCK_STREAM sockets connected through a bound path.
//
// Each Connect() binds a listening socket in a fresh private directory (see
// unix_socket_dir.h), connects to it, accepts, and then removes the socket file and the
// directory at once: the connected pair needs neither. Messages are limited to
// kMaxStreamMessageBytes (16 MiB).
#ifndef TRANSPORT_UNIX_STREAM_TRANSPORT_H_
#define TRANSPORT_UNIX_STREAM_TRANSPORT_H_

#include <memory>

#include "absl/status/statusor.h"
#include "transport/transport.h"

namespace tickbench::transport {

// With `so_sndbuf_bytes` / `so_rcvbuf_bytes` > 0, both ends ask for those buffers when
// connected (RequestSocketBuffers); 0: the kernel's.
absl::StatusOr<std::unique_ptr<Transport>> MakeUnixStreamTransport(int so_sndbuf_bytes = 0,
                                                                   int so_rcvbuf_bytes = 0);

}  // namespace tickbench::transport

#endif  // TRANSPORT_UNIX_STREAM_TRANSPORT_H_
