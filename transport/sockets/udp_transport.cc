#include "transport/sockets/udp_transport.h"

#include <sys/socket.h>

#include <cerrno>
#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/errno_status.h"
#include "transport/io/unique_fd.h"
#include "transport/sockets/socket_endpoint.h"

namespace tickbench::transport {
namespace {

class UdpTransport final : public Transport {
 public:
  UdpTransport(IpFamily family, InetAddress bind_address)
      : family_(family), bind_address_(bind_address) {}

  absl::string_view name() const override { return family_ == IpFamily::kIpv4 ? "udp" : "udp6"; }
  size_t max_message_size() const override {
    return family_ == IpFamily::kIpv4 ? kUdpIpv4MaxPayloadBytes : kUdpIpv6MaxPayloadBytes;
  }
  bool keeps_boundaries() const override { return true; }
  bool may_lose() const override { return true; }
  absl::StatusOr<EndpointPair> Connect() override;

 private:
  absl::StatusOr<UniqueFd> NewSocket(InetAddress* bound) const;

  IpFamily family_;
  InetAddress bind_address_;
};

absl::StatusOr<UniqueFd> UdpTransport::NewSocket(InetAddress* bound) const {
  absl::StatusOr<UniqueFd> fd = BoundSocket(SOCK_DGRAM, bind_address_, bound);
  if (!fd.ok()) return fd.status();
  absl::StatusOr<SocketBufferSizes> sizes = SetSocketBufferSizes(fd->get(), kUdpBufferRequestBytes);
  if (!sizes.ok()) return sizes.status();
  return fd;
}

absl::StatusOr<EndpointPair> UdpTransport::Connect() {
  InetAddress server_bound, client_bound;
  absl::StatusOr<UniqueFd> server = NewSocket(&server_bound);
  if (!server.ok()) return server.status();
  absl::StatusOr<UniqueFd> client = NewSocket(&client_bound);
  if (!client.ok()) return client.status();
  const InetAddress server_target = ConnectTarget(server_bound);
  const InetAddress client_target = ConnectTarget(client_bound);
  if (connect(client->get(), server_target.get(), server_target.length) != 0) {
    return platform::ErrnoToStatus(errno, absl::StrCat("connect ", server_target.ToString()));
  }
  if (connect(server->get(), client_target.get(), client_target.length) != 0) {
    return platform::ErrnoToStatus(errno, absl::StrCat("connect ", client_target.ToString()));
  }
  EndpointPair pair;
  pair.client = std::make_unique<DatagramSocketEndpoint>(std::move(*client), std::string(name()),
                                                         max_message_size());
  pair.server = std::make_unique<DatagramSocketEndpoint>(std::move(*server), std::string(name()),
                                                         max_message_size());
  return pair;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Transport>> MakeUdpTransport(IpFamily family,
                                                            absl::string_view bind_address) {
  absl::StatusOr<InetAddress> address = ParseBindAddress(family, bind_address);
  if (!address.ok()) return address.status();
  return std::make_unique<UdpTransport>(family, *address);
}

}  // namespace tickbench::transport
