#include "transport/registry/transport_factory.h"

#include "absl/strings/str_cat.h"

namespace tickbench::transport {

absl::StatusOr<std::unique_ptr<Transport>> MakeTransport(const TransportInfo& row,
                                                         const TransportOptions& options) {
  if (!options.bind_address.empty() && !row.is_ip()) {
    return absl::InvalidArgumentError(
        absl::StrCat("a bind address applies to ",
                     TransportNamesWhere([](const TransportInfo& r) { return r.is_ip(); }, " and "),
                     ", not ", row.name));
  }
  if (options.pipe_size_bytes != 0 && absl::string_view(row.name) != "pipe") {
    return absl::InvalidArgumentError(absl::StrCat("a pipe size applies to pipe, not ", row.name));
  }
  if ((options.so_sndbuf_bytes != 0 || options.so_rcvbuf_bytes != 0) &&
      absl::string_view(row.name) != "unix_stream") {
    return absl::InvalidArgumentError(
        absl::StrCat("socket buffer sizes apply to unix_stream, not ", row.name));
  }
  return row.factory(options);
}

absl::StatusOr<std::unique_ptr<Transport>> MakeTransport(absl::string_view name,
                                                         const TransportOptions& options) {
  absl::StatusOr<const TransportInfo*> row = FindTransport(name);
  if (!row.ok()) return row.status();
  return MakeTransport(**row, options);
}

std::vector<std::string> TransportNames() {
  std::vector<std::string> names;
  for (const TransportInfo& row : RegisteredTransports()) names.emplace_back(row.name);
  return names;
}

}  // namespace tickbench::transport
