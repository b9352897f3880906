#include "transport/registry/transport_registry.h"

#include <cctype>
#include <set>
#include <string>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "transport/registry/transport_factory.h"

namespace tickbench::transport {
namespace {

// Every row says of itself what the transport it makes says.
TEST(TransportRegistryTest, EveryRowDescribesWhatItsFactoryMakes) {
  ASSERT_FALSE(RegisteredTransports().empty());
  for (const TransportInfo& row : RegisteredTransports()) {
    SCOPED_TRACE(row.name);
    absl::StatusOr<std::unique_ptr<Transport>> made = MakeTransport(row);
    ASSERT_TRUE(made.ok()) << made.status();
    EXPECT_EQ((*made)->name(), row.name);
    EXPECT_EQ((*made)->keeps_boundaries(), row.keeps_boundaries);
    EXPECT_EQ((*made)->may_lose(), row.may_lose);
    EXPECT_EQ((*made)->needs_local_peer(), row.needs_local_peer);
    if (row.max_message_bytes == kMeasuredWhenMade) {
      EXPECT_GT((*made)->max_message_size(), 0u);
    } else {
      EXPECT_EQ((*made)->max_message_size(), row.max_message_bytes);
    }
    EXPECT_GT(std::string(row.description).size(), 10u);
  }
}

TEST(TransportRegistryTest, NamesAreUniqueLowerCaseAndFound) {
  std::set<std::string> seen;
  for (const TransportInfo& row : RegisteredTransports()) {
    const std::string name = row.name;
    EXPECT_TRUE(seen.insert(name).second) << "duplicate " << name;
    ASSERT_FALSE(name.empty());
    for (char c : name) EXPECT_TRUE(std::islower(c) || std::isdigit(c) || c == '_') << name;
    absl::StatusOr<const TransportInfo*> found = FindTransport(name);
    ASSERT_TRUE(found.ok()) << found.status();
    EXPECT_EQ(*found, &row);
  }
  // The help list is exactly the rows, in order.
  const std::vector<std::string> listed = absl::StrSplit(TransportNamesForHelp(), ", ");
  EXPECT_EQ(listed, TransportNames());
  EXPECT_EQ(std::set<std::string>(listed.begin(), listed.end()), seen);
}

TEST(TransportRegistryTest, UnknownNameListsEveryRowAndIsEscaped) {
  for (const char* name : {"", "UDP", "udp4", "vsock"}) {
    absl::Status status = FindTransport(name).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(status.message().find(absl::StrCat("choose one of: ", TransportNamesForHelp())),
              absl::string_view::npos)
        << status;
  }
  absl::Status status = FindTransport("bad\x1b[31m").status();
  EXPECT_NE(status.message().find("'bad\\x1b[31m'"), absl::string_view::npos) << status;
}

// The properties that code asks instead of comparing names.
TEST(TransportRegistryTest, AddressPropertiesOfTheKnownRows) {
  struct Expected {
    const char* name;
    bool ip, ipv6, udp;
  };
  for (const Expected& e :
       {Expected{"unix_stream", false, false, false}, Expected{"unix_dgram", false, false, false},
        Expected{"udp", true, false, true}, Expected{"udp6", true, true, true},
        Expected{"tcp", true, false, false}, Expected{"tcp6", true, true, false},
        Expected{"pipe", false, false, false}, Expected{"sim", false, false, false}}) {
    absl::StatusOr<const TransportInfo*> row = FindTransport(e.name);
    ASSERT_TRUE(row.ok()) << row.status();
    EXPECT_EQ((*row)->is_ip(), e.ip) << e.name;
    EXPECT_EQ((*row)->is_ipv6(), e.ipv6) << e.name;
    EXPECT_EQ((*row)->is_udp(), e.udp) << e.name;
  }
  EXPECT_TRUE((*FindTransport("sim"))->simulated);
  EXPECT_FALSE((*FindTransport("udp"))->simulated);
  EXPECT_EQ(AddressFamilyName((*FindTransport("tcp6"))->family), "inet6");
}

// Remote codes are the wire protocol's: unique, and only on transports that reach
// another host (IP).
TEST(TransportRegistryTest, RemoteCodesAreUniqueAndOnlyOnIpRows) {
  std::set<int> codes;
  for (const TransportInfo& row : RegisteredTransports()) {
    if (row.remote_code == 0) continue;
    EXPECT_TRUE(row.is_ip()) << row.name;
    EXPECT_TRUE(codes.insert(row.remote_code).second) << row.name;
    EXPECT_EQ(FindTransportByRemoteCode(row.remote_code), &row);
  }
  EXPECT_EQ(FindTransportByRemoteCode(0), nullptr);
  EXPECT_EQ(FindTransportByRemoteCode(200), nullptr);
  // The codes in use since version 1 of the control protocol.
  EXPECT_EQ(std::string(FindTransportByRemoteCode(1)->name), "udp");
  EXPECT_EQ(std::string(FindTransportByRemoteCode(2)->name), "udp6");
  EXPECT_EQ(std::string(FindTransportByRemoteCode(3)->name), "tcp");
  EXPECT_EQ(std::string(FindTransportByRemoteCode(4)->name), "tcp6");
}

TEST(TransportRegistryTest, TablesHaveOneLinePerRow) {
  const std::vector<std::string> help =
      absl::StrSplit(TransportTableForHelp(), '\n', absl::SkipEmpty());
  const std::vector<std::string> markdown =
      absl::StrSplit(TransportTableMarkdown(), '\n', absl::SkipEmpty());
  ASSERT_EQ(help.size(), RegisteredTransports().size());
  ASSERT_EQ(markdown.size(), RegisteredTransports().size() + 2);
  for (size_t i = 0; i < RegisteredTransports().size(); ++i) {
    const TransportInfo& row = RegisteredTransports()[i];
    EXPECT_NE(help[i].find(row.name), std::string::npos);
    EXPECT_NE(help[i].find(row.description), std::string::npos);
    EXPECT_EQ(markdown[i + 2], absl::StrCat("| `", row.name, "` | ", row.description, " |"));
  }
}

}  // namespace
}  // namespace tickbench::transport
