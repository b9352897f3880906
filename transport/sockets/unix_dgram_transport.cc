#include "transport/sockets/unix_dgram_transport.h"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "platform/errno_status.h"
#include "transport/io/unique_fd.h"
#include "transport/sockets/socket_endpoint.h"
#include "transport/sockets/unix_socket_dir.h"

namespace tickbench::transport {
namespace {

constexpr char kName[] = "unix_dgram";

absl::StatusOr<UniqueFd> NewSocket() {
  UniqueFd fd(socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return platform::ErrnoToStatus(errno, "socket(AF_UNIX, SOCK_DGRAM)");
  return fd;
}

// Sets the buffers of `fd` and returns the largest datagram it may send.
absl::StatusOr<size_t> SizeBuffers(int fd) {
  absl::StatusOr<SocketBufferSizes> sizes = SetSocketBufferSizes(fd, kUnixDgramBufferRequestBytes);
  if (!sizes.ok()) return sizes.status();
  return UnixDgramLimitForSendBuffer(sizes->send_bytes);
}

class UnixDgramTransport final : public Transport {
 public:
  explicit UnixDgramTransport(size_t max_message_size) : max_message_size_(max_message_size) {}

  absl::string_view name() const override { return kName; }
  size_t max_message_size() const override { return max_message_size_; }
  bool keeps_boundaries() const override { return true; }
  bool may_lose() const override { return true; }
  absl::StatusOr<EndpointPair> Connect() override;

 private:
  // A socket of `dir` bound at `name`, with its buffers sized for max_message_size_.
  absl::StatusOr<UniqueFd> BoundSocket(UnixSocketDir& dir, const char* name, UnixAddress* address);

  size_t max_message_size_;
};

absl::StatusOr<UniqueFd> UnixDgramTransport::BoundSocket(UnixSocketDir& dir, const char* name,
                                                         UnixAddress* address) {
  absl::StatusOr<UnixAddress> bound_at = dir.AddressFor(name);
  if (!bound_at.ok()) return bound_at.status();
  *address = *bound_at;
  absl::StatusOr<UniqueFd> fd = NewSocket();
  if (!fd.ok()) return fd.status();
  absl::StatusOr<size_t> limit = SizeBuffers(fd->get());
  if (!limit.ok()) return limit.status();
  if (*limit < max_message_size_) {
    return absl::FailedPreconditionError(
        absl::StrFormat("unix_dgram socket got a send buffer for %u-byte datagrams, not %u: did "
                        "net.core.wmem_max shrink since the transport was made?",
                        *limit, max_message_size_));
  }
  if (bind(fd->get(), address->get(), address->length) != 0) {
    return platform::ErrnoToStatus(errno, absl::StrCat("bind ", dir.path(), "/", name));
  }
  return fd;
}

absl::StatusOr<EndpointPair> UnixDgramTransport::Connect() {
  absl::StatusOr<UnixSocketDir> dir = UnixSocketDir::Create();
  if (!dir.ok()) return dir.status();
  UnixAddress server_address, client_address;
  absl::StatusOr<UniqueFd> server = BoundSocket(*dir, "server", &server_address);
  if (!server.ok()) return server.status();
  absl::StatusOr<UniqueFd> client = BoundSocket(*dir, "client", &client_address);
  if (!client.ok()) return client.status();
  // connect() resolves the path once and ties the sockets together; the files are not
  // needed after that.
  if (connect(client->get(), server_address.get(), server_address.length) != 0) {
    return platform::ErrnoToStatus(errno, "connect unix_dgram client to server");
  }
  if (connect(server->get(), client_address.get(), client_address.length) != 0) {
    return platform::ErrnoToStatus(errno, "connect unix_dgram server to client");
  }
  if (absl::Status removed = dir->Remove(); !removed.ok()) return removed;

  EndpointPair pair;
  pair.client =
      std::make_unique<DatagramSocketEndpoint>(std::move(*client), kName, max_message_size_);
  pair.server =
      std::make_unique<DatagramSocketEndpoint>(std::move(*server), kName, max_message_size_);
  return pair;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Transport>> MakeUnixDgramTransport() {
  // Both ends of a probe pair get the buffers Connect() will ask for; the smaller limit
  // of the two is what both directions can carry.
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, fds) != 0) {
    return platform::ErrnoToStatus(errno, "socketpair(AF_UNIX, SOCK_DGRAM)");
  }
  UniqueFd a(fds[0]), b(fds[1]);
  absl::StatusOr<size_t> limit_a = SizeBuffers(a.get());
  if (!limit_a.ok()) return limit_a.status();
  absl::StatusOr<size_t> limit_b = SizeBuffers(b.get());
  if (!limit_b.ok()) return limit_b.status();
  const size_t limit = std::min(*limit_a, *limit_b);
  if (limit == 0) {
    return absl::FailedPreconditionError("unix_dgram sockets got no usable send buffer");
  }
  return std::make_unique<UnixDgramTransport>(limit);
}

}  // namespace tickbench::transport
