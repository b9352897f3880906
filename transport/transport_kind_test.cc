#include "transport/transport_kind.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace tickbench::transport {
namespace {

TEST(TransportKindTest, NamesRoundTrip) {
  std::set<std::string> seen;
  for (TransportKind kind : AllTransportKinds()) {
    const std::string name(TransportKindName(kind));
    EXPECT_TRUE(seen.insert(name).second) << "duplicate name " << name;
    absl::StatusOr<TransportKind> parsed = ParseTransportKind(name);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, kind);
  }
  EXPECT_EQ(seen, (std::set<std::string>{"unix_stream", "unix_dgram", "udp", "udp6", "tcp",
                                         "tcp6", "pipe"}));
}

TEST(TransportKindTest, UnknownNameListsTheAllowedOnes) {
  for (const char* name : {"sim", "", "UDP", "udp4"}) {
    absl::Status status = ParseTransportKind(name).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(status.message().find(AllowedTransportNames()), absl::string_view::npos)
        << status;
  }
  EXPECT_EQ(AllowedTransportNames(), "unix_stream, unix_dgram, udp, udp6, tcp, tcp6, pipe");
}

TEST(TransportKindTest, FlagParsing) {
  TransportKind kind = TransportKind::kPipe;
  std::string error;
  EXPECT_TRUE(AbslParseFlag("tcp6", &kind, &error));
  EXPECT_EQ(kind, TransportKind::kTcp6);
  EXPECT_EQ(AbslUnparseFlag(kind), "tcp6");
  EXPECT_FALSE(AbslParseFlag("carrier_pigeon", &kind, &error));
  EXPECT_NE(error.find("carrier_pigeon"), std::string::npos);
  EXPECT_EQ(kind, TransportKind::kTcp6);
}

}  // namespace
}  // namespace tickbench::transport
