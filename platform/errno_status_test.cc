#include "platform/errno_status.h"

#include <cerrno>

#include "gtest/gtest.h"

namespace tickbench::platform {
namespace {

TEST(ErrnoToStatusTest, MapsCodeAndKeepsContext) {
  absl::Status status = ErrnoToStatus(ENOENT, "open /nowhere");
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(status.message().find("open /nowhere"), absl::string_view::npos);
  EXPECT_NE(status.message().find("No such file"), absl::string_view::npos);
}

TEST(ErrnoToStatusTest, TimeoutIsDeadlineExceeded) {
  EXPECT_EQ(ErrnoToStatus(ETIMEDOUT, "recv").code(), absl::StatusCode::kDeadlineExceeded);
}

}  // namespace
}  // namespace tickbench::platform
