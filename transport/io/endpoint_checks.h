// The argument checks every endpoint makes before any system call, and the message limit
// of the stream transports.
#ifndef TRANSPORT_ENDPOINT_CHECKS_H_
#define TRANSPORT_ENDPOINT_CHECKS_H_

#include <cstddef>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace tickbench::transport {

// Largest message of the stream transports (UNIX stream, TCP, pipe), which have no limit
// of their own. 16 MiB is far past where the cost per byte stops changing (a few MiB,
// well beyond any cache), and keeps a sweep's send and receive buffers at 32 MiB.
inline constexpr size_t kMaxStreamMessageBytes = size_t{16} << 20;

// InvalidArgument naming the size and the limit when `size` > `limit`; OK otherwise.
// The error CheckMessageSize() returns; out of line, off the round trip's path.
absl::Status MessageTooLargeError(size_t size, size_t limit, absl::string_view transport_name);

// OK if a `size`-byte message fits `limit`. Inline: every Send() and Receive() asks.
inline absl::Status CheckMessageSize(size_t size, size_t limit, absl::string_view transport_name) {
  if (ABSL_PREDICT_TRUE(size <= limit)) return absl::OkStatus();
  return MessageTooLargeError(size, limit, transport_name);
}

// InvalidArgument unless `timeout` is positive or absl::InfiniteDuration().
absl::Status CheckReceiveTimeout(absl::Duration timeout);

}  // namespace tickbench::transport

#endif  // TRANSPORT_ENDPOINT_CHECKS_H_
