#include "platform/facts/network_facts.h"

#include <cstdlib>

#include "gtest/gtest.h"

namespace tickbench::platform {
namespace {

TEST(NetworkFactsTest, LoopbackHasTheLoopbackMtu) {
  // Set by bazel/toolchains/aarch64/qemu_aarch64.sh.
  if (std::getenv("TICKBENCH_EMULATED") != nullptr) {
    GTEST_SKIP() << "QEMU user-mode emulation does not implement getsockopt(IP_MTU)";
  }
  absl::StatusOr<int> mtu = PathMtu("127.0.0.1");
  ASSERT_TRUE(mtu.ok()) << mtu.status();
  EXPECT_GE(*mtu, 1500);  // 65536 on Linux since 3.6 (16436 before)
  EXPECT_FALSE(PathMtu("not-an-address").ok());
}

}  // namespace
}  // namespace tickbench::platform
