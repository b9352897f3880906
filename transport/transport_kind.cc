#include "transport/transport_kind.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace tickbench::transport {
namespace {

struct KindName {
  TransportKind kind;
  const char* name;
};

constexpr KindName kKindNames[] = {
    {TransportKind::kUnixStream, "unix_stream"}, {TransportKind::kUnixDgram, "unix_dgram"},
    {TransportKind::kUdp, "udp"},                {TransportKind::kUdp6, "udp6"},
    {TransportKind::kTcp, "tcp"},                {TransportKind::kTcp6, "tcp6"},
    {TransportKind::kPipe, "pipe"},
};

constexpr TransportKind kAllKinds[] = {
    TransportKind::kUnixStream, TransportKind::kUnixDgram, TransportKind::kUdp,
    TransportKind::kUdp6,       TransportKind::kTcp,       TransportKind::kTcp6,
    TransportKind::kPipe,
};
static_assert(sizeof(kAllKinds) / sizeof(kAllKinds[0]) ==
                  sizeof(kKindNames) / sizeof(kKindNames[0]),
              "every kind needs a name");

}  // namespace

absl::Span<const TransportKind> AllTransportKinds() { return kAllKinds; }

absl::string_view TransportKindName(TransportKind kind) {
  for (const KindName& entry : kKindNames) {
    if (entry.kind == kind) return entry.name;
  }
  return "unknown";
}

absl::StatusOr<TransportKind> ParseTransportKind(absl::string_view name) {
  for (const KindName& entry : kKindNames) {
    if (name == entry.name) return entry.kind;
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown transport '", name,
                                                 "'; choose one of: ", AllowedTransportNames()));
}

std::string AllowedTransportNames() {
  std::string names;
  for (const KindName& entry : kKindNames) {
    absl::StrAppend(&names, names.empty() ? "" : ", ", entry.name);
  }
  return names;
}

bool AbslParseFlag(absl::string_view text, TransportKind* kind, std::string* error) {
  absl::StatusOr<TransportKind> parsed = ParseTransportKind(text);
  if (!parsed.ok()) {
    *error = std::string(parsed.status().message());
    return false;
  }
  *kind = *parsed;
  return true;
}

std::string AbslUnparseFlag(TransportKind kind) { return std::string(TransportKindName(kind)); }

}  // namespace tickbench::transport
