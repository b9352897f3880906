#include "transport/mpi/rank_sockets.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <mpi.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "platform/errno_status.h"
#include "platform/mpi/mpi_world.h"
#include "transport/io/endpoint_checks.h"
#include "transport/sockets/inet_address.h"
#include "transport/sockets/socket_endpoint.h"
#include "transport/sockets/udp_transport.h"

namespace tickbench::transport {
namespace {

constexpr int kAddressTag = 0x7403;

// Where a rank's socket is: its host (MPI's processor name), an IPv4 address of it and
// the port.
struct AddressMessage {
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  char ip[INET_ADDRSTRLEN] = {};
  uint16_t port = 0;
};

// This host's first IPv4 address that is up and not loopback; 127.0.0.1 when none is.
std::string FirstOutwardIpv4() {
  std::string found = "127.0.0.1";
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return found;
  for (ifaddrs* entry = list; entry != nullptr; entry = entry->ifa_next) {
    if (entry->ifa_addr == nullptr || entry->ifa_addr->sa_family != AF_INET) continue;
    if ((entry->ifa_flags & IFF_UP) == 0 || (entry->ifa_flags & IFF_LOOPBACK) != 0) continue;
    char text[INET_ADDRSTRLEN];
    const auto* in = reinterpret_cast<const sockaddr_in*>(entry->ifa_addr);
    if (inet_ntop(AF_INET, &in->sin_addr, text, sizeof text) != nullptr) {
      found = text;
      break;
    }
  }
  freeifaddrs(list);
  return found;
}

absl::Status SendAddress(int rank, uint16_t port, const platform::MpiWorld& world) {
  AddressMessage message;
  std::strncpy(message.host, world.host.c_str(), sizeof message.host - 1);
  std::strncpy(message.ip, FirstOutwardIpv4().c_str(), sizeof message.ip - 1);
  message.port = port;
  return platform::MpiStatus(
      MPI_Send(&message, sizeof message, MPI_BYTE, rank, kAddressTag, MPI_COMM_WORLD),
      "sending an address");
}

// The address to reach the socket `rank` announces: loopback on this host.
absl::StatusOr<InetAddress> ReceiveAddress(int rank, const platform::MpiWorld& world,
                                           absl::Duration timeout) {
  AddressMessage message;
  if (absl::Status got =
          platform::MpiPollReceive(&message, sizeof message, rank, kAddressTag, timeout);
      !got.ok()) {
    return got;
  }
  const std::string host(message.host, strnlen(message.host, sizeof message.host));
  const std::string ip = host == world.host
                             ? "127.0.0.1"
                             : std::string(message.ip, strnlen(message.ip, sizeof message.ip));
  absl::StatusOr<InetAddress> address = ParseBindAddress(IpFamily::kIpv4, ip);
  if (!address.ok()) return address.status();
  reinterpret_cast<sockaddr_in*>(address->get())->sin_port = htons(message.port);
  return address;
}

absl::Status SetNoDelay(int fd) {
  const int on = 1;
  if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on) != 0) {
    return platform::ErrnoToStatus(errno, "setsockopt(TCP_NODELAY)");
  }
  return absl::OkStatus();
}

absl::StatusOr<UniqueFd> BoundToAnyAddress(int type, InetAddress* bound) {
  absl::StatusOr<InetAddress> any = ParseBindAddress(IpFamily::kIpv4, "0.0.0.0");
  if (!any.ok()) return any.status();
  return BoundSocket(type, *any, bound);
}

std::unique_ptr<Endpoint> MakeEndpoint(RankSocketKind kind, UniqueFd fd) {
  if (kind == RankSocketKind::kUdp) {
    return std::make_unique<DatagramSocketEndpoint>(std::move(fd), "udp", kUdpIpv4MaxPayloadBytes);
  }
  return std::make_unique<StreamSocketEndpoint>(std::move(fd), "tcp", kMaxStreamMessageBytes);
}

// A transport whose one connection is made already: Connect() hands it over once.
class ConnectedTransport final : public Transport {
 public:
  explicit ConnectedTransport(std::unique_ptr<Endpoint> endpoint)
      : endpoint_(std::move(endpoint)),
        datagram_(endpoint_->keeps_boundaries()),
        max_(endpoint_->max_message_size()) {}
  absl::string_view name() const override { return datagram_ ? "udp" : "tcp"; }
  size_t max_message_size() const override { return max_; }
  bool keeps_boundaries() const override { return datagram_; }
  bool may_lose() const override { return datagram_; }  // udp; tcp loses nothing
  bool needs_local_peer() const override { return false; }
  absl::StatusOr<EndpointPair> Connect() override {
    if (!endpoint_) return absl::FailedPreconditionError("the rank's connection was used already");
    EndpointPair pair;
    pair.client = std::move(endpoint_);
    return pair;
  }

 private:
  std::unique_ptr<Endpoint> endpoint_;
  bool datagram_;
  size_t max_;
};

// The TCP echo peer's one connection, within `timeout`.
absl::StatusOr<UniqueFd> AcceptOne(int listener, absl::Duration timeout) {
  pollfd ready{listener, POLLIN, 0};
  const int waited = poll(&ready, 1, static_cast<int>(absl::ToInt64Milliseconds(timeout)));
  if (waited < 0) return platform::ErrnoToStatus(errno, "poll");
  if (waited == 0) return absl::DeadlineExceededError("no TCP connection from the measuring rank");
  UniqueFd connection(accept4(listener, nullptr, nullptr, SOCK_CLOEXEC));
  if (!connection.valid()) return platform::ErrnoToStatus(errno, "accept4");
  if (absl::Status s = SetNoDelay(connection.get()); !s.ok()) return s;
  return connection;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Transport>> ConnectToRank(RankSocketKind kind, int server_rank,
                                                         absl::Duration timeout) {
  absl::StatusOr<platform::MpiWorld> world = platform::JoinMpiWorld();
  if (!world.ok()) return world.status();
  absl::StatusOr<InetAddress> server = ReceiveAddress(server_rank, *world, timeout);
  if (!server.ok()) return server.status();
  InetAddress bound;
  absl::StatusOr<UniqueFd> fd =
      BoundToAnyAddress(kind == RankSocketKind::kUdp ? SOCK_DGRAM : SOCK_STREAM, &bound);
  if (!fd.ok()) return fd.status();
  if (kind == RankSocketKind::kUdp) {
    if (absl::Status sent = SendAddress(server_rank, bound.port(), *world); !sent.ok()) return sent;
  } else {
    const timeval bound_wait = absl::ToTimeval(timeout);
    setsockopt(fd->get(), SOL_SOCKET, SO_SNDTIMEO, &bound_wait, sizeof bound_wait);
    if (absl::Status s = SetNoDelay(fd->get()); !s.ok()) return s;
  }
  if (connect(fd->get(), server->get(), server->length) != 0) {
    return platform::ErrnoToStatus(
        errno, absl::StrFormat("connect to rank %d at %s", server_rank, server->ToString()));
  }
  return std::unique_ptr<Transport>(
      std::make_unique<ConnectedTransport>(MakeEndpoint(kind, *std::move(fd))));
}

absl::Status ServeRank(RankSocketKind kind, int client_rank, const EchoPeerOptions& options,
                       absl::Duration timeout, absl::Duration idle_timeout) {
  absl::StatusOr<platform::MpiWorld> world = platform::JoinMpiWorld();
  if (!world.ok()) return world.status();
  InetAddress bound;
  absl::StatusOr<UniqueFd> fd =
      BoundToAnyAddress(kind == RankSocketKind::kUdp ? SOCK_DGRAM : SOCK_STREAM, &bound);
  if (!fd.ok()) return fd.status();
  if (kind == RankSocketKind::kTcp && listen(fd->get(), 1) != 0) {
    return platform::ErrnoToStatus(errno, "listen");
  }
  if (absl::Status sent = SendAddress(client_rank, bound.port(), *world); !sent.ok()) return sent;
  UniqueFd data;
  if (kind == RankSocketKind::kUdp) {
    absl::StatusOr<InetAddress> client = ReceiveAddress(client_rank, *world, timeout);
    if (!client.ok()) return client.status();
    if (connect(fd->get(), client->get(), client->length) != 0) {
      return platform::ErrnoToStatus(errno, "connect");
    }
    data = *std::move(fd);
  } else {
    absl::StatusOr<UniqueFd> accepted = AcceptOne(fd->get(), timeout);
    if (!accepted.ok()) return accepted.status();
    data = *std::move(accepted);
  }
  std::unique_ptr<Endpoint> endpoint = MakeEndpoint(kind, std::move(data));
  if (absl::Status s = endpoint->SetReceiveTimeout(idle_timeout); !s.ok()) return s;
  return RunEchoPeer(*endpoint, options);
}

}  // namespace tickbench::transport
