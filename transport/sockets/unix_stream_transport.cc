#include "transport/sockets/unix_stream_transport.h"

#include <sys/socket.h>

#include <cerrno>
#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/errno_status.h"
#include "transport/io/endpoint_checks.h"
#include "transport/io/unique_fd.h"
#include "transport/sockets/socket_endpoint.h"
#include "transport/sockets/unix_socket_dir.h"

namespace tickbench::transport {
namespace {

constexpr char kName[] = "unix_stream";

class UnixStreamTransport final : public Transport {
 public:
  UnixStreamTransport(int so_sndbuf_bytes, int so_rcvbuf_bytes)
      : so_sndbuf_bytes_(so_sndbuf_bytes), so_rcvbuf_bytes_(so_rcvbuf_bytes) {}
  absl::string_view name() const override { return kName; }
  size_t max_message_size() const override { return kMaxStreamMessageBytes; }
  bool keeps_boundaries() const override { return false; }
  bool may_lose() const override { return false; }
  absl::StatusOr<EndpointPair> Connect() override;

 private:
  int so_sndbuf_bytes_;
  int so_rcvbuf_bytes_;
};

absl::StatusOr<UniqueFd> NewSocket() {
  UniqueFd fd(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return platform::ErrnoToStatus(errno, "socket(AF_UNIX, SOCK_STREAM)");
  return fd;
}

absl::StatusOr<EndpointPair> UnixStreamTransport::Connect() {
  absl::StatusOr<UnixSocketDir> dir = UnixSocketDir::Create();
  if (!dir.ok()) return dir.status();
  absl::StatusOr<UnixAddress> address = dir->AddressFor("stream");
  if (!address.ok()) return address.status();
  absl::StatusOr<UniqueFd> listener = NewSocket();
  if (!listener.ok()) return listener.status();
  if (bind(listener->get(), address->get(), address->length) != 0) {
    return platform::ErrnoToStatus(errno, absl::StrCat("bind ", dir->path(), "/stream"));
  }
  // A backlog of 1: only our own client connects, before anyone else could find the
  // path in a directory that only this user can enter.
  if (listen(listener->get(), 1) != 0) return platform::ErrnoToStatus(errno, "listen");
  absl::StatusOr<UniqueFd> client = NewSocket();
  if (!client.ok()) return client.status();
  // A UNIX connect() completes as soon as the connection is queued on the listener.
  if (connect(client->get(), address->get(), address->length) != 0) {
    return platform::ErrnoToStatus(errno, absl::StrCat("connect ", dir->path(), "/stream"));
  }
  UniqueFd server(accept4(listener->get(), nullptr, nullptr, SOCK_CLOEXEC));
  if (!server.valid()) return platform::ErrnoToStatus(errno, "accept4");
  listener->reset();
  if (absl::Status removed = dir->Remove(); !removed.ok()) return removed;
  for (int fd : {client->get(), server.get()}) {
    if (absl::Status s = RequestSocketBuffers(fd, so_sndbuf_bytes_, so_rcvbuf_bytes_); !s.ok())
      return s;
  }

  EndpointPair pair;
  pair.client =
      std::make_unique<StreamSocketEndpoint>(std::move(*client), kName, kMaxStreamMessageBytes);
  pair.server =
      std::make_unique<StreamSocketEndpoint>(std::move(server), kName, kMaxStreamMessageBytes);
  return pair;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Transport>> MakeUnixStreamTransport(int so_sndbuf_bytes,
                                                                   int so_rcvbuf_bytes) {
  if (so_sndbuf_bytes < 0 || so_rcvbuf_bytes < 0) {
    return absl::InvalidArgumentError("a socket buffer size must be positive");
  }
  return std::make_unique<UnixStreamTransport>(so_sndbuf_bytes, so_rcvbuf_bytes);
}

}  // namespace tickbench::transport
