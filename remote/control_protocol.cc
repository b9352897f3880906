#include "remote/control_protocol.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tickbench::remote {
namespace {

using transport::TransportInfo;

constexpr size_t kRequestPayloadBytes = 20;
constexpr size_t kAcceptPayloadBytes = 4;
constexpr size_t kBusyPayloadBytes = 8;

void PutU16(std::string& to, uint16_t value) {
  for (int i = 0; i < 2; ++i) to.push_back(static_cast<char>(value >> (8 * i)));
}

void PutU32(std::string& to, uint32_t value) {
  for (int i = 0; i < 4; ++i) to.push_back(static_cast<char>(value >> (8 * i)));
}

// Callers check the span's length first: these read exactly 2 or 4 bytes.
uint16_t GetU16(absl::Span<const char> from, size_t at) {
  return static_cast<uint16_t>(static_cast<unsigned char>(from[at]) |
                               static_cast<unsigned char>(from[at + 1]) << 8);
}

uint32_t GetU32(absl::Span<const char> from, size_t at) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) {
    value |= static_cast<uint32_t>(static_cast<unsigned char>(from[at + i])) << (8 * i);
  }
  return value;
}

bool Printable(char c) { return c >= 0x20 && c <= 0x7e; }

absl::Status Malformed(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("malformed control message: ", what));
}

bool AllZero(absl::Span<const char> bytes) {
  for (char c : bytes) {
    if (c != 0) return false;
  }
  return true;
}

absl::StatusOr<SessionRequest> DecodeRequest(absl::Span<const char> payload) {
  if (payload.size() != kRequestPayloadBytes) {
    return Malformed(absl::StrFormat("a request payload is %u bytes, not %u", kRequestPayloadBytes,
                                     payload.size()));
  }
  if (!AllZero(payload.subspan(1, 3)) || !AllZero(payload.subspan(6, 2))) {
    return Malformed("reserved request bytes are not zero");
  }
  SessionRequest request;
  const uint8_t code = static_cast<uint8_t>(payload[0]);
  request.transport = transport::FindTransportByRemoteCode(code);
  if (request.transport == nullptr) {
    return Malformed(absl::StrFormat("unknown transport code %u", code));
  }
  request.client_data_port = GetU16(payload, 4);
  request.size_count = GetU32(payload, 8);
  request.min_message_bytes = GetU32(payload, 12);
  request.max_message_bytes = GetU32(payload, 16);

  const bool datagram = request.transport->keeps_boundaries;
  if (datagram && request.client_data_port == 0) {
    return Malformed("a UDP request must name the client's data port");
  }
  if (!datagram && request.client_data_port != 0) {
    return Malformed("a TCP request must not name a client data port");
  }
  if (request.size_count == 0 || request.size_count > kMaxRequestSizeCount) {
    return Malformed(absl::StrFormat("%u message sizes; allowed 1..%u", request.size_count,
                                     kMaxRequestSizeCount));
  }
  const size_t limit = RemoteMaxMessageBytes(*request.transport);
  if (request.min_message_bytes == 0 || request.min_message_bytes > request.max_message_bytes ||
      request.max_message_bytes > limit) {
    return Malformed(absl::StrFormat("message sizes %u..%u bytes; %s allows 1..%u",
                                     request.min_message_bytes, request.max_message_bytes,
                                     request.transport->name, limit));
  }
  return request;
}

absl::StatusOr<SessionAccept> DecodeAccept(absl::Span<const char> payload) {
  if (payload.size() != kAcceptPayloadBytes) {
    return Malformed(absl::StrFormat("an accept payload is %u bytes, not %u", kAcceptPayloadBytes,
                                     payload.size()));
  }
  if (!AllZero(payload.subspan(2, 2))) return Malformed("reserved accept bytes are not zero");
  SessionAccept accept;
  accept.data_port = GetU16(payload, 0);
  if (accept.data_port == 0) return Malformed("the accept names data port 0");
  return accept;
}

absl::StatusOr<SessionError> DecodeError(absl::Span<const char> payload) {
  if (payload.empty()) return Malformed("an empty error message");
  for (size_t i = 0; i < payload.size(); ++i) {
    if (!Printable(payload[i])) {
      return Malformed(absl::StrFormat("byte %u of the error message is 0x%02x, not printable", i,
                                       static_cast<unsigned char>(payload[i])));
    }
  }
  return SessionError{std::string(payload.data(), payload.size())};
}

absl::StatusOr<SessionBusy> DecodeBusy(absl::Span<const char> payload) {
  if (payload.size() != kBusyPayloadBytes) {
    return Malformed(
        absl::StrFormat("a busy payload is %u bytes, not %u", kBusyPayloadBytes, payload.size()));
  }
  SessionBusy busy;
  busy.active_sessions = GetU32(payload, 0);
  busy.session_limit = GetU32(payload, 4);
  if (busy.active_sessions == 0 || busy.session_limit == 0) {
    return Malformed(absl::StrFormat("a busy message of %u active sessions, limit %u",
                                     busy.active_sessions, busy.session_limit));
  }
  return busy;
}

// The last type that `version` knows.
ControlType LastType(uint16_t version) {
  return version >= 2 ? ControlType::kBusy : ControlType::kError;
}

}  // namespace

std::string BusyText(const SessionBusy& busy) {
  return absl::StrFormat("server busy: %u sessions active, try again later", busy.active_sessions);
}

bool IsRemoteTransport(const TransportInfo& row) { return row.remote_code != 0; }

std::string RemoteTransportNames() {
  return transport::TransportNamesWhere(
      [](const TransportInfo& row) { return IsRemoteTransport(row); }, " or ");
}

size_t RemoteMaxMessageBytes(const TransportInfo& row) {
  return IsRemoteTransport(row) ? row.max_message_bytes : 0;
}

std::string EncodeControlMessage(const ControlMessage& message, uint16_t version) {
  if (version < kMinControlVersion || version > kControlVersion) version = kControlVersion;
  std::string payload;
  ControlType type = ControlType::kRequest;
  const auto* busy = std::get_if<SessionBusy>(&message);
  if (busy != nullptr && version >= 2) {
    type = ControlType::kBusy;
    PutU32(payload, busy->active_sessions);
    PutU32(payload, busy->session_limit);
  } else if (const auto* request = std::get_if<SessionRequest>(&message)) {
    const uint8_t code = request->transport != nullptr ? request->transport->remote_code : 0;
    payload.push_back(static_cast<char>(code));
    payload.append(3, '\0');
    PutU16(payload, request->client_data_port);
    payload.append(2, '\0');
    PutU32(payload, request->size_count);
    PutU32(payload, request->min_message_bytes);
    PutU32(payload, request->max_message_bytes);
  } else if (const auto* accept = std::get_if<SessionAccept>(&message)) {
    type = ControlType::kAccept;
    PutU16(payload, accept->data_port);
    payload.append(2, '\0');
  } else {
    type = ControlType::kError;
    payload = busy != nullptr ? BusyText(*busy) : std::get<SessionError>(message).message;
    payload.resize(std::min<size_t>(payload.size(), kMaxControlPayloadBytes));
    if (payload.empty()) payload = "error";
    for (char& c : payload) {
      if (!Printable(c)) c = '?';
    }
  }
  std::string bytes;
  bytes.reserve(kControlHeaderBytes + payload.size());
  PutU32(bytes, kControlMagic);
  PutU16(bytes, version);
  PutU16(bytes, static_cast<uint16_t>(type));
  PutU32(bytes, static_cast<uint32_t>(payload.size()));
  return bytes + payload;
}

absl::StatusOr<ControlHeader> DecodeControlHeader(absl::Span<const char> bytes) {
  if (bytes.size() != kControlHeaderBytes) {
    return Malformed(
        absl::StrFormat("a header is %u bytes, not %u", kControlHeaderBytes, bytes.size()));
  }
  if (GetU32(bytes, 0) != kControlMagic) {
    return Malformed(absl::StrFormat("bad magic 0x%08x (expected 0x%08x): not a tickbench peer",
                                     GetU32(bytes, 0), kControlMagic));
  }
  ControlHeader header;
  header.version = GetU16(bytes, 4);
  if (header.version < kMinControlVersion || header.version > kControlVersion) {
    return Malformed(absl::StrFormat("protocol version %u; this build speaks versions %u..%u",
                                     header.version, kMinControlVersion, kControlVersion));
  }
  const uint16_t type = GetU16(bytes, 6);
  if (type < static_cast<uint16_t>(ControlType::kRequest) ||
      type > static_cast<uint16_t>(ControlType::kBusy)) {
    return Malformed(absl::StrFormat("unknown message type %u", type));
  }
  if (type > static_cast<uint16_t>(LastType(header.version))) {
    return Malformed(absl::StrFormat("message type %u does not exist in protocol version %u", type,
                                     header.version));
  }
  header.type = static_cast<ControlType>(type);
  header.payload_length = GetU32(bytes, 8);
  if (header.payload_length > kMaxControlPayloadBytes) {
    return Malformed(absl::StrFormat("a payload of %u bytes; at most %u allowed",
                                     header.payload_length, kMaxControlPayloadBytes));
  }
  return header;
}

absl::StatusOr<ControlMessage> DecodeControlMessage(absl::Span<const char> bytes) {
  if (bytes.size() < kControlHeaderBytes) {
    return Malformed(absl::StrFormat("%u bytes, shorter than the %u-byte header", bytes.size(),
                                     kControlHeaderBytes));
  }
  absl::StatusOr<ControlHeader> header = DecodeControlHeader(bytes.first(kControlHeaderBytes));
  if (!header.ok()) return header.status();
  const absl::Span<const char> payload = bytes.subspan(kControlHeaderBytes);
  if (payload.size() != header->payload_length) {
    return Malformed(absl::StrFormat("the header announces %u payload bytes; %u follow",
                                     header->payload_length, payload.size()));
  }
  switch (header->type) {
    case ControlType::kRequest: {
      absl::StatusOr<SessionRequest> request = DecodeRequest(payload);
      if (!request.ok()) return request.status();
      return ControlMessage(*request);
    }
    case ControlType::kAccept: {
      absl::StatusOr<SessionAccept> accept = DecodeAccept(payload);
      if (!accept.ok()) return accept.status();
      return ControlMessage(*accept);
    }
    case ControlType::kError: {
      absl::StatusOr<SessionError> error = DecodeError(payload);
      if (!error.ok()) return error.status();
      return ControlMessage(*error);
    }
    case ControlType::kBusy: {
      absl::StatusOr<SessionBusy> busy = DecodeBusy(payload);
      if (!busy.ok()) return busy.status();
      return ControlMessage(*busy);
    }
  }
  return Malformed("unknown message type");  // unreachable: the header checked the type
}

}  // namespace tickbench::remote
