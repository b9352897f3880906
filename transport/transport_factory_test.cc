#include "transport/transport_factory.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace tickbench::transport {
namespace {

TEST(TransportFactoryTest, EveryNameMakesThatTransport) {
  for (const std::string& name : TransportNames()) {
    absl::StatusOr<std::unique_ptr<Transport>> transport = MakeTransport(name);
    ASSERT_TRUE(transport.ok()) << name << ": " << transport.status();
    EXPECT_EQ((*transport)->name(), name);
    EXPECT_GT((*transport)->max_message_size(), 0u);
  }
  EXPECT_EQ(TransportNames(), (std::vector<std::string>{"unix_stream", "unix_dgram", "udp",
                                                        "udp6", "tcp", "tcp6", "pipe"}));
}

TEST(TransportFactoryTest, DatagramKindsSayso) {
  for (const char* name : {"unix_dgram", "udp", "udp6"}) {
    EXPECT_TRUE((*MakeTransport(name))->is_datagram()) << name;
  }
  for (const char* name : {"unix_stream", "tcp", "tcp6", "pipe"}) {
    EXPECT_FALSE((*MakeTransport(name))->is_datagram()) << name;
  }
}

TEST(TransportFactoryTest, UnknownNameListsTheAllowedOnes) {
  absl::Status status = MakeTransport("sim").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("'sim'"), absl::string_view::npos) << status;
  EXPECT_NE(status.message().find("unix_stream, unix_dgram, udp, udp6, tcp, tcp6, pipe"),
            absl::string_view::npos)
      << status;
}

TEST(TransportFactoryTest, BindAddressOnlyForInternetTransports) {
  TransportOptions options;
  options.bind_address = "127.0.0.1";
  EXPECT_TRUE(MakeTransport("udp", options).ok());
  EXPECT_TRUE(MakeTransport("tcp", options).ok());
  EXPECT_EQ(MakeTransport("pipe", options).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeTransport("unix_dgram", options).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeTransport("udp6", options).status().code(), absl::StatusCode::kInvalidArgument);
  options.bind_address = "not-an-address";
  EXPECT_EQ(MakeTransport(TransportKind::kTcp, options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tickbench::transport
