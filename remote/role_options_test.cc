#include "remote/role_options.h"

#include <string>

#include "gtest/gtest.h"

namespace tickbench::remote {
namespace {

TEST(ParseHostPortTest, TakesNumericAddressesWithPorts) {
  absl::StatusOr<transport::InetAddress> v4 = ParseHostPort("10.199.0.2:7478");
  ASSERT_TRUE(v4.ok()) << v4.status();
  EXPECT_EQ(v4->ToString(), "10.199.0.2:7478");
  absl::StatusOr<transport::InetAddress> v6 = ParseHostPort("[fd00::2]:65535");
  ASSERT_TRUE(v6.ok()) << v6.status();
  EXPECT_EQ(v6->ToString(), "[fd00::2]:65535");
  EXPECT_EQ(ParseHostPort("0.0.0.0:0")->port(), 0);
}

TEST(ParseHostPortTest, RefusesMalformedText) {
  for (const char* text :
       {"", "10.0.0.1", "10.0.0.1:", ":7478", "host.example:7478", "10.0.0.1:65536", "10.0.0.1:+80",
        "10.0.0.1: 80", "10.0.0.1:0x50", "::1:7478", "[::1]7478", "[::1:7478", "[]:7478",
        "[10.0.0.1]:7478", "10.0.0.256:1"}) {
    absl::StatusOr<transport::InetAddress> parsed = ParseHostPort(text);
    EXPECT_TRUE(absl::IsInvalidArgument(parsed.status()))
        << "'" << text << "': " << parsed.status();
  }
}

TEST(ParseRoleOptionsTest, LocalIsTheDefault) {
  absl::StatusOr<RoleOptions> options = ParseRoleOptions("local", "", "");
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->role, Role::kLocal);
}

TEST(ParseRoleOptionsTest, ServerListensOnLoopbackByDefault) {
  absl::StatusOr<RoleOptions> options = ParseRoleOptions("server", "", "");
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->role, Role::kServer);
  EXPECT_EQ(options->listen.ToString(), "127.0.0.1:7478");
  EXPECT_EQ(options->data_port, 7479);
}

TEST(ParseRoleOptionsTest, DataPortFollowsTheControlPort) {
  EXPECT_EQ(ParseRoleOptions("server", "0.0.0.0:9000", "")->data_port, 9001);
  EXPECT_EQ(ParseRoleOptions("server", "0.0.0.0:0", "")->data_port, 0);
  EXPECT_EQ(ParseRoleOptions("server", "0.0.0.0:65535", "")->data_port, 0);
}

TEST(ParseRoleOptionsTest, ClientNeedsAPeer) {
  absl::StatusOr<RoleOptions> options = ParseRoleOptions("client", "", "[::1]:7478");
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->peer.ToString(), "[::1]:7478");

  absl::StatusOr<RoleOptions> missing = ParseRoleOptions("client", "", "");
  EXPECT_TRUE(absl::IsInvalidArgument(missing.status()));
  EXPECT_EQ(missing.status().message(), "--peer: --role=client needs --peer=ADDR:PORT");
  EXPECT_EQ(ParseRoleOptions("client", "", "10.0.0.1:0").status().message(),
            "--peer: port 0 cannot be connected to");
}

TEST(ParseRoleOptionsTest, BadCombinationsNameTheFlag) {
  auto message = [](const char* role, const char* listen, const char* peer) {
    return std::string(ParseRoleOptions(role, listen, peer).status().message());
  };
  EXPECT_EQ(message("relay", "", ""),
            "--role: unknown role 'relay'; allowed: local, server, client");
  EXPECT_EQ(message("local", "", "10.0.0.1:1"), "--peer: applies only to --role=client");
  EXPECT_EQ(message("client", "0.0.0.0:1", "10.0.0.1:1"),
            "--listen: applies only to --role=server");
  EXPECT_EQ(message("server", "", "10.0.0.1:1"), "--peer: applies only to --role=client");
  EXPECT_EQ(message("server", "localhost:7478", "").rfind("--listen: ", 0), 0u);
  EXPECT_EQ(message("client", "", "10.0.0.1").rfind("--peer: ", 0), 0u);
}

TEST(WithPortTest, ReplacesThePortOnly) {
  EXPECT_EQ(WithPort(*ParseHostPort("10.0.0.1:1"), 80).ToString(), "10.0.0.1:80");
  EXPECT_EQ(WithPort(*ParseHostPort("[::1]:1"), 80).ToString(), "[::1]:80");
}

}  // namespace
}  // namespace tickbench::remote
