#include "platform/errno_status.h"

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace tickbench::platform {

absl::Status ErrnoToStatus(int error_number, absl::string_view what) {
  // ErrnoToStatusCode picks the canonical code (ENOENT -> NotFound, EAGAIN ->
  // Unavailable, ...); the message keeps the exact errno text for the user.
  return absl::Status(absl::ErrnoToStatusCode(error_number),
                      absl::StrCat(what, ": ", std::strerror(error_number)));
}

}  // namespace tickbench::platform
