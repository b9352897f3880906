#include "transport/sockets/tcp_transport.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cerrno>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/errno_status.h"
#include "transport/io/endpoint_checks.h"
#include "transport/io/unique_fd.h"
#include "transport/sockets/socket_endpoint.h"

namespace tickbench::transport {
namespace {

absl::Status SetNoDelay(int fd) {
  const int on = 1;
  if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on)) != 0) {
    return platform::ErrnoToStatus(errno, "setsockopt(TCP_NODELAY)");
  }
  return absl::OkStatus();
}

// Family, address and port; the padding and IPv6 flow label do not name an endpoint.
bool SameAddress(const InetAddress& a, const InetAddress& b) {
  return a.storage.ss_family == b.storage.ss_family && a.ToString() == b.ToString();
}

class TcpTransport final : public Transport {
 public:
  TcpTransport(IpFamily family, InetAddress bind_address)
      : family_(family), bind_address_(bind_address) {}

  absl::string_view name() const override { return family_ == IpFamily::kIpv4 ? "tcp" : "tcp6"; }
  size_t max_message_size() const override { return kMaxStreamMessageBytes; }
  bool keeps_boundaries() const override { return false; }
  bool may_lose() const override { return false; }
  absl::StatusOr<EndpointPair> Connect() override;

 private:
  IpFamily family_;
  InetAddress bind_address_;
};

absl::StatusOr<EndpointPair> TcpTransport::Connect() {
  InetAddress listen_bound;
  absl::StatusOr<UniqueFd> listener = BoundSocket(SOCK_STREAM, bind_address_, &listen_bound);
  if (!listener.ok()) return listener.status();
  if (listen(listener->get(), 1) != 0) return platform::ErrnoToStatus(errno, "listen");
  const InetAddress target = ConnectTarget(listen_bound);
  UniqueFd client(socket(target.storage.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!client.valid()) return platform::ErrnoToStatus(errno, "socket");
  // On loopback the handshake completes inside connect(): the listener is queued on.
  if (connect(client.get(), target.get(), target.length) != 0) {
    return platform::ErrnoToStatus(errno, absl::StrCat("connect ", target.ToString()));
  }
  InetAddress client_local, accepted_peer;
  client_local.length = sizeof(client_local.storage);
  if (getsockname(client.get(), client_local.get(), &client_local.length) != 0) {
    return platform::ErrnoToStatus(errno, "getsockname");
  }
  accepted_peer.length = sizeof(accepted_peer.storage);
  UniqueFd server(
      accept4(listener->get(), accepted_peer.get(), &accepted_peer.length, SOCK_CLOEXEC));
  if (!server.valid()) return platform::ErrnoToStatus(errno, "accept4");
  // Anyone on the host may connect to a listening port; make sure we accepted our own
  // client, not a stranger that raced it.
  if (!SameAddress(client_local, accepted_peer)) {
    return absl::UnavailableError(absl::StrCat("accepted ", accepted_peer.ToString(),
                                               " instead of our client at ",
                                               client_local.ToString()));
  }
  listener->reset();
  if (absl::Status status = SetNoDelay(client.get()); !status.ok()) return status;
  if (absl::Status status = SetNoDelay(server.get()); !status.ok()) return status;

  EndpointPair pair;
  pair.client = std::make_unique<StreamSocketEndpoint>(std::move(client), std::string(name()),
                                                       kMaxStreamMessageBytes);
  pair.server = std::make_unique<StreamSocketEndpoint>(std::move(server), std::string(name()),
                                                       kMaxStreamMessageBytes);
  return pair;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Transport>> MakeTcpTransport(IpFamily family,
                                                            absl::string_view bind_address) {
  absl::StatusOr<InetAddress> address = ParseBindAddress(family, bind_address);
  if (!address.ok()) return address.status();
  return std::make_unique<TcpTransport>(family, *address);
}

}  // namespace tickbench::transport
