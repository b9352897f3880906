// Endpoints over one connected socket, shared by the socket transports (UNIX stream and
// datagram, TCP, UDP), plus the socket options they all set.
//
// Each endpoint checks a message against its limit before any system call, so an
// oversize message is InvalidArgument, never a partial send. Receive timeouts are
// SO_RCVTIMEO, so the receive path is one recv() and nothing else.
#ifndef TRANSPORT_SOCKET_ENDPOINT_H_
#define TRANSPORT_SOCKET_ENDPOINT_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "transport/endpoint_checks.h"
#include "transport/full_io.h"
#include "transport/transport.h"
#include "transport/unique_fd.h"

namespace tickbench::transport {

// Sets SO_RCVTIMEO; absl::InfiniteDuration() clears it. A finite timeout is rounded up to
// whole microseconds (timeval's unit), so it is never shortened to 0 ("for ever").
absl::Status SetSocketReceiveTimeout(int fd, absl::Duration timeout);

// The buffer sizes the kernel granted, as getsockopt reads them back. Linux doubles what
// was asked (for its bookkeeping) and caps the request at net.core.wmem_max/rmem_max.
struct SocketBufferSizes {
  int send_bytes = 0;
  int receive_bytes = 0;
};

// Asks for `requested_bytes` of send and of receive buffer and reads back what was given.
absl::StatusOr<SocketBufferSizes> SetSocketBufferSizes(int fd, int requested_bytes);

// SO_SNDBUF and SO_RCVBUF of `fd` as the kernel reports them.
absl::StatusOr<Endpoint::BufferSizes> ReadSocketBufferSizes(int fd);

// A connected SOCK_STREAM socket (UNIX or TCP): messages are byte runs of a known size.
class StreamSocketEndpoint final : public Endpoint {
 public:
  StreamSocketEndpoint(UniqueFd fd, std::string transport_name, size_t max_message_size);

  absl::Status Send(absl::Span<const char> message) override;
  absl::Status Receive(absl::Span<char> buffer) override;
  absl::Status SetReceiveTimeout(absl::Duration timeout) override;
  // recv(MSG_DONTWAIT) in a loop; sends still block (a full socket buffer waits).
  absl::Status SetBusyPoll(bool on) override {
    busy_poll_ = on;
    return absl::OkStatus();
  }
  bool is_datagram() const override { return false; }
  size_t max_message_size() const override { return max_message_size_; }
  absl::StatusOr<BufferSizes> SocketBufferSizes() const override;

  int fd() const { return fd_.get(); }

 private:
  UniqueFd fd_;
  std::string transport_name_;
  size_t max_message_size_;
  bool busy_poll_ = false;
  // Kept for busy polling, which cannot use SO_RCVTIMEO: it never waits in the kernel.
  absl::Duration receive_timeout_ = absl::InfiniteDuration();
};

// Send() and Receive() are inline, so that the loop specialised on StreamSocketEndpoint
// runs them, up to their system call, in its own body.
inline absl::Status StreamSocketEndpoint::Send(absl::Span<const char> message) {
  if (absl::Status size = CheckMessageSize(message.size(), max_message_size_, transport_name_);
      !size.ok()) {
    return size;
  }
  return WriteFull(fd_.get(), message, WriteMode::kSocket);
}

inline absl::Status StreamSocketEndpoint::Receive(absl::Span<char> buffer) {
  if (absl::Status size = CheckMessageSize(buffer.size(), max_message_size_, transport_name_);
      !size.ok()) {
    return size;
  }
  if (busy_poll_) return SpinReadFull(fd_.get(), buffer, receive_timeout_, SpinRead::kRecvDontWait);
  return ReadFull(fd_.get(), buffer);
}

// A connected SOCK_DGRAM socket (UNIX or UDP): one message is one datagram.
class DatagramSocketEndpoint final : public Endpoint {
 public:
  DatagramSocketEndpoint(UniqueFd fd, std::string transport_name, size_t max_message_size);

  absl::Status Send(absl::Span<const char> message) override;
  // One datagram of exactly buffer.size() bytes; MSG_TRUNC reports the real length of a
  // longer one, which is then DataLoss like a shorter one.
  absl::Status Receive(absl::Span<char> buffer) override;
  absl::StatusOr<size_t> ReceiveDatagram(absl::Span<char> buffer) override;
  absl::Status SetReceiveTimeout(absl::Duration timeout) override;
  // recv(MSG_DONTWAIT) in a loop; sends still block (a full socket buffer waits).
  absl::Status SetBusyPoll(bool on) override {
    busy_poll_ = on;
    return absl::OkStatus();
  }
  bool is_datagram() const override { return true; }
  size_t max_message_size() const override { return max_message_size_; }
  absl::StatusOr<BufferSizes> SocketBufferSizes() const override;

  int fd() const { return fd_.get(); }

 private:
  UniqueFd fd_;
  std::string transport_name_;
  size_t max_message_size_;
  bool busy_poll_ = false;
  // Kept for busy polling, which cannot use SO_RCVTIMEO: it never waits in the kernel.
  absl::Duration receive_timeout_ = absl::InfiniteDuration();
};

}  // namespace tickbench::transport

#endif  // TRANSPORT_SOCKET_ENDPOINT_H_
