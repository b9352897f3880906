#include "transport/registry/transport_factory.h"

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
  EXPECT_EQ(TransportNames(), (std::vector<std::string>{"unix_stream", "unix_dgram", "udp", "udp6",
                                                        "tcp", "tcp6", "pipe", "mpi", "sim"}));
}

TEST(TransportFactoryTest, DatagramKindsSayso) {
  for (const char* name : {"unix_dgram", "udp", "udp6", "sim"}) {
    EXPECT_TRUE((*MakeTransport(name))->keeps_boundaries()) << name;
  }
  for (const char* name : {"unix_stream", "tcp", "tcp6", "pipe"}) {
    EXPECT_FALSE((*MakeTransport(name))->keeps_boundaries()) << name;
  }
}

TEST(TransportFactoryTest, UnknownNameListsTheAllowedOnes) {
  absl::Status status = MakeTransport("vsock").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("'vsock'"), absl::string_view::npos) << status;
  EXPECT_NE(status.message().find("unix_stream, unix_dgram, udp, udp6, tcp, tcp6, pipe, mpi, sim"),
            absl::string_view::npos)
      << status;
}

TEST(TransportFactoryTest, BindAddressOnlyForInternetTransports) {
  TransportOptions options;
  options.bind_address = "127.0.0.1";
  EXPECT_TRUE(MakeTransport("udp", options).ok());
  EXPECT_TRUE(MakeTransport("tcp", options).ok());
  for (const char* name : {"pipe", "unix_dgram", "sim"}) {
    absl::Status status = MakeTransport(name, options).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << name;
    EXPECT_NE(status.message().find("applies to udp, udp6, tcp and tcp6, not"),
              absl::string_view::npos)
        << status;
  }
  EXPECT_EQ(MakeTransport("udp6", options).status().code(), absl::StatusCode::kInvalidArgument);
  options.bind_address = "not-an-address";
  EXPECT_EQ(MakeTransport("tcp", options).status().code(), absl::StatusCode::kInvalidArgument);
}

// The simulated transport echoes by itself and advances the time it is given.
TEST(TransportFactoryTest, SimulatedTransportAdvancesTheGivenTime) {
  int64_t now = 0;
  TransportOptions options;
  options.sim_model.fixed = absl::Microseconds(7);
  options.sim_model.per_byte_ns = 0;
  options.advance_time = [&now](int64_t ns) { now += ns; };
  absl::StatusOr<std::unique_ptr<Transport>> sim = MakeTransport("sim", options);
  ASSERT_TRUE(sim.ok()) << sim.status();
  absl::StatusOr<EndpointPair> pair = (*sim)->Connect();
  ASSERT_TRUE(pair.ok()) << pair.status();
  EXPECT_EQ(pair->server, nullptr);
  std::vector<char> message(8, 'x');
  ASSERT_TRUE(pair->client->Send(message).ok());
  ASSERT_TRUE(pair->client->Receive(absl::MakeSpan(message)).ok());
  EXPECT_EQ(now, 7000);
}

}  // namespace
}  // namespace tickbench::transport
