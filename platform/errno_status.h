// absl::Status from errno, with the operation that failed named in the message.
#ifndef PLATFORM_ERRNO_STATUS_H_
#define PLATFORM_ERRNO_STATUS_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace tickbench::platform {

// Maps `error_number` (an errno value) to the closest absl::StatusCode and builds the
// message "<what>: <strerror text>".
absl::Status ErrnoToStatus(int error_number, absl::string_view what);

}  // namespace tickbench::platform

#endif  // PLATFORM_ERRNO_STATUS_H_
