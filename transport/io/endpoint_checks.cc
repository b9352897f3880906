#include "transport/io/endpoint_checks.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tickbench::transport {

absl::Status MessageTooLargeError(size_t size, size_t limit, absl::string_view transport_name) {
  return absl::InvalidArgumentError(absl::StrFormat(
      "a %u-byte message is larger than the %u-byte limit of %s", size, limit, transport_name));
}

absl::Status CheckReceiveTimeout(absl::Duration timeout) {
  if (timeout == absl::InfiniteDuration() || timeout > absl::ZeroDuration()) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "a receive timeout must be positive or infinite, not ", absl::FormatDuration(timeout)));
}

}  // namespace tickbench::transport
