#include "transport/io/endpoint_checks.h"

#include "gtest/gtest.h"

namespace tickbench::transport {
namespace {

TEST(CheckMessageSizeTest, NamesSizeAndLimit) {
  EXPECT_TRUE(CheckMessageSize(100, 100, "udp").ok());
  absl::Status status = CheckMessageSize(101, 100, "udp");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("101-byte message"), absl::string_view::npos) << status;
  EXPECT_NE(status.message().find("100-byte limit of udp"), absl::string_view::npos);
}

TEST(CheckReceiveTimeoutTest, RejectsZeroAndNegative) {
  EXPECT_TRUE(CheckReceiveTimeout(absl::InfiniteDuration()).ok());
  EXPECT_TRUE(CheckReceiveTimeout(absl::Nanoseconds(1)).ok());
  EXPECT_EQ(CheckReceiveTimeout(absl::ZeroDuration()).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CheckReceiveTimeout(absl::Seconds(-1)).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CheckReceiveTimeout(-absl::InfiniteDuration()).code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tickbench::transport
