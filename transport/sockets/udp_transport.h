// "udp" and "udp6": UDP over loopback (127.0.0.1 or ::1 unless told otherwise), one
// message per datagram, both sockets connected to each other so that each hears only
// its peer and learns of a closed peer port (ICMP port unreachable -> ECONNREFUSED ->
// Unavailable on the next call).
//
// Largest message: the IPv4 total-length field is 16 bits, so the payload is at most
// 65535 - 20 (IP header) - 8 (UDP header) = 65,507 bytes; the IPv6 payload-length field
// does not count the 40-byte fixed header, so it is 65535 - 8 = 65,527 bytes (more needs
// jumbograms, which nothing here uses). Both limits were checked on loopback (Linux 6.18,
// MTU 65536: the 65,575-byte IPv6 packet is fragmented and reassembled): one byte more
// is EMSGSIZE. Loopback does not drop a lone datagram, but nothing promises delivery:
// a lost datagram is a receive timeout.
#ifndef TRANSPORT_UDP_TRANSPORT_H_
#define TRANSPORT_UDP_TRANSPORT_H_

#include <cstddef>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "transport/sockets/inet_address.h"
#include "transport/transport.h"

namespace tickbench::transport {

inline constexpr size_t kUdpIpv4MaxPayloadBytes = 65535 - 20 - 8;
inline constexpr size_t kUdpIpv6MaxPayloadBytes = 65535 - 8;

// Each socket asks for 256 KiB of send and receive buffer (Linux doubles it, capped at
// 2 x net.core.{w,r}mem_max; at least 425,984 bytes with the default caps): room for
// several maximum-size datagrams, whose kernel footprint is larger than their payload.
inline constexpr int kUdpBufferRequestBytes = 256 << 10;

// `bind_address`: a numeric address of `family` for both sockets; empty = loopback.
absl::StatusOr<std::unique_ptr<Transport>> MakeUdpTransport(IpFamily family,
                                                            absl::string_view bind_address);

}  // namespace tickbench::transport

#endif  // TRANSPORT_UDP_TRANSPORT_H_
