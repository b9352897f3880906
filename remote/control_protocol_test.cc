#include "remote/control_protocol.h"

#include <cstdint>
#include <random>
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace tickbench::remote {
namespace {

using TransportRow = const transport::TransportInfo*;

TransportRow Row(absl::string_view name) { return *transport::FindTransport(name); }

SessionRequest UdpRequest() {
  SessionRequest request;
  request.transport = Row("udp");
  request.client_data_port = 40000;
  request.size_count = 21;
  request.min_message_bytes = 1400;
  request.max_message_bytes = 1560;
  return request;
}

// Little-endian u32 at `at`, as the protocol writes it.
void SetU32(std::string& bytes, size_t at, uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<char>(value >> (8 * i));
}

// Decoding fails with InvalidArgument and a message containing `words`.
void ExpectRejected(const std::string& bytes, const std::string& words) {
  absl::StatusOr<ControlMessage> decoded = DecodeControlMessage(bytes);
  ASSERT_FALSE(decoded.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(decoded.status())) << decoded.status();
  EXPECT_TRUE(absl::StrContains(decoded.status().message(), words)) << decoded.status();
}

TEST(ControlProtocolTest, RequestRoundTrips) {
  for (TransportRow kind : {Row("udp"), Row("udp6"), Row("tcp"), Row("tcp6")}) {
    SessionRequest request = UdpRequest();
    request.transport = kind;
    const bool udp = kind == Row("udp") || kind == Row("udp6");
    if (!udp) request.client_data_port = 0;
    const std::string bytes = EncodeControlMessage(request);
    EXPECT_EQ(bytes.size(), kControlHeaderBytes + 20);
    absl::StatusOr<ControlMessage> decoded = DecodeControlMessage(bytes);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    const auto* got = std::get_if<SessionRequest>(&*decoded);
    ASSERT_NE(got, nullptr);
    EXPECT_EQ(got->transport, kind);
    EXPECT_EQ(got->client_data_port, request.client_data_port);
    EXPECT_EQ(got->size_count, 21u);
    EXPECT_EQ(got->min_message_bytes, 1400u);
    EXPECT_EQ(got->max_message_bytes, 1560u);
  }
}

TEST(ControlProtocolTest, AcceptAndErrorRoundTrip) {
  absl::StatusOr<ControlMessage> accept =
      DecodeControlMessage(EncodeControlMessage(SessionAccept{7479}));
  ASSERT_TRUE(accept.ok()) << accept.status();
  EXPECT_EQ(std::get<SessionAccept>(*accept).data_port, 7479);

  absl::StatusOr<ControlMessage> error =
      DecodeControlMessage(EncodeControlMessage(SessionError{"busy: try again later"}));
  ASSERT_TRUE(error.ok()) << error.status();
  EXPECT_EQ(std::get<SessionError>(*error).message, "busy: try again later");
}

TEST(ControlProtocolTest, EncodedErrorsAlwaysDecode) {
  const std::string long_text(2 * kMaxControlPayloadBytes, 'x');
  for (const std::string& text : {std::string(), std::string("bell\a and \x1b[2J"), long_text}) {
    absl::StatusOr<ControlMessage> decoded =
        DecodeControlMessage(EncodeControlMessage(SessionError{text}));
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    const std::string& message = std::get<SessionError>(*decoded).message;
    EXPECT_FALSE(message.empty());
    EXPECT_LE(message.size(), kMaxControlPayloadBytes);
    EXPECT_EQ(message.find('\x1b'), std::string::npos);
  }
}

TEST(ControlProtocolTest, RejectsBadHeaders) {
  const std::string good = EncodeControlMessage(UdpRequest());
  ExpectRejected("", "shorter than the 12-byte header");
  ExpectRejected(good.substr(0, 11), "shorter than the 12-byte header");
  std::string bad = good;
  bad[0] = 'X';
  ExpectRejected(bad, "bad magic");
  bad = good;
  bad[4] = 3;
  ExpectRejected(bad, "protocol version 3; this build speaks versions 1..2");
  bad = good;
  bad[4] = 0;
  ExpectRejected(bad, "protocol version 0");
  bad = good;
  bad[6] = 9;
  ExpectRejected(bad, "unknown message type 9");
  bad = good;
  bad[6] = 0;
  ExpectRejected(bad, "unknown message type 0");
}

TEST(ControlProtocolTest, BusyRoundTripsInVersion2) {
  const std::string bytes = EncodeControlMessage(SessionBusy{8, 8});
  EXPECT_EQ(bytes.size(), kControlHeaderBytes + 8);
  EXPECT_EQ(bytes[4], 2);  // the version
  EXPECT_EQ(bytes[6], static_cast<char>(ControlType::kBusy));
  absl::StatusOr<ControlMessage> decoded = DecodeControlMessage(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  const auto* busy = std::get_if<SessionBusy>(&*decoded);
  ASSERT_NE(busy, nullptr);
  EXPECT_EQ(busy->active_sessions, 8u);
  EXPECT_EQ(busy->session_limit, 8u);
  EXPECT_EQ(BusyText(*busy), "server busy: 8 sessions active, try again later");
}

// A version-1 peer cannot read type 4: it is told the same as an error message.
TEST(ControlProtocolTest, BusyInVersion1IsAnError) {
  const std::string bytes = EncodeControlMessage(SessionBusy{3, 4}, 1);
  EXPECT_EQ(bytes[4], 1);
  EXPECT_EQ(bytes[6], static_cast<char>(ControlType::kError));
  absl::StatusOr<ControlMessage> decoded = DecodeControlMessage(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(std::get<SessionError>(*decoded).message,
            "server busy: 3 sessions active, try again later");
}

// Version-1 messages still decode, and re-encode in version 1 byte for byte.
TEST(ControlProtocolTest, ReadsAndWritesVersion1) {
  for (const ControlMessage& message :
       {ControlMessage(UdpRequest()), ControlMessage(SessionAccept{7479}),
        ControlMessage(SessionError{"no"})}) {
    const std::string v1 = EncodeControlMessage(message, 1);
    const std::string v2 = EncodeControlMessage(message);
    EXPECT_EQ(v1[4], 1);
    EXPECT_EQ(v2[4], 2);
    EXPECT_EQ(v1.substr(6), v2.substr(6));  // only the version differs
    absl::StatusOr<ControlHeader> header = DecodeControlHeader(v1.substr(0, kControlHeaderBytes));
    ASSERT_TRUE(header.ok()) << header.status();
    EXPECT_EQ(header->version, 1);
    absl::StatusOr<ControlMessage> decoded = DecodeControlMessage(v1);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(EncodeControlMessage(*decoded, header->version), v1);
  }
  // An unknown version to encode in is taken as the current one.
  EXPECT_EQ(EncodeControlMessage(SessionAccept{1}, 7), EncodeControlMessage(SessionAccept{1}));
}

TEST(ControlProtocolTest, RejectsBadBusyMessages) {
  std::string bad = EncodeControlMessage(SessionBusy{8, 8});
  bad[4] = 1;
  ExpectRejected(bad, "message type 4 does not exist in protocol version 1");
  ExpectRejected(EncodeControlMessage(SessionBusy{0, 8}), "0 active sessions, limit 8");
  ExpectRejected(EncodeControlMessage(SessionBusy{8, 0}), "8 active sessions, limit 0");
  bad = EncodeControlMessage(SessionBusy{8, 8}) + "x";
  SetU32(bad, 8, 9);
  ExpectRejected(bad, "a busy payload is 8 bytes, not 9");
}

TEST(ControlProtocolTest, RejectsOversizeLengthFromTheHeaderAlone) {
  std::string header = EncodeControlMessage(SessionAccept{1}).substr(0, kControlHeaderBytes);
  SetU32(header, 8, kMaxControlPayloadBytes + 1);
  absl::StatusOr<ControlHeader> decoded = DecodeControlHeader(header);
  ASSERT_FALSE(decoded.ok());
  EXPECT_TRUE(absl::StrContains(decoded.status().message(), "at most 4096")) << decoded.status();
  SetU32(header, 8, UINT32_MAX);
  EXPECT_TRUE(absl::IsInvalidArgument(DecodeControlHeader(header).status()));
  SetU32(header, 8, kMaxControlPayloadBytes);
  EXPECT_TRUE(DecodeControlHeader(header).ok());
  EXPECT_FALSE(DecodeControlHeader(header + "x").ok());  // exactly 12 bytes
}

TEST(ControlProtocolTest, RejectsLengthsThatDisagreeWithTheBytes) {
  const std::string good = EncodeControlMessage(UdpRequest());
  ExpectRejected(good + "x", "announces 20 payload bytes; 21 follow");
  ExpectRejected(good.substr(0, good.size() - 1), "announces 20 payload bytes; 19 follow");
  // Every truncation is refused, none is read past its end.
  for (size_t n = 0; n < good.size(); ++n) {
    EXPECT_FALSE(DecodeControlMessage(absl::string_view(good).substr(0, n)).ok()) << n;
  }
}

TEST(ControlProtocolTest, RejectsBadRequests) {
  auto with = [](auto change) {
    SessionRequest request = UdpRequest();
    change(request);
    return EncodeControlMessage(request);
  };
  ExpectRejected(with([](SessionRequest& r) { r.client_data_port = 0; }),
                 "must name the client's data port");
  ExpectRejected(with([](SessionRequest& r) { r.transport = Row("tcp"); }),
                 "must not name a client data port");
  ExpectRejected(with([](SessionRequest& r) { r.size_count = 0; }), "0 message sizes");
  ExpectRejected(with([](SessionRequest& r) { r.size_count = kMaxRequestSizeCount + 1; }),
                 "10001 message sizes");
  ExpectRejected(with([](SessionRequest& r) { r.min_message_bytes = 0; }), "message sizes 0..1560");
  ExpectRejected(with([](SessionRequest& r) { r.min_message_bytes = 2000; }), "2000..1560");
  ExpectRejected(with([](SessionRequest& r) { r.max_message_bytes = 65508; }),
                 "udp allows 1..65507");
  // 65,527 bytes is the IPv6 UDP limit, 16 MiB the TCP one.
  SessionRequest udp6 = UdpRequest();
  udp6.transport = Row("udp6");
  udp6.max_message_bytes = 65527;
  EXPECT_TRUE(DecodeControlMessage(EncodeControlMessage(udp6)).ok());
  SessionRequest tcp = UdpRequest();
  tcp.transport = Row("tcp");
  tcp.client_data_port = 0;
  tcp.max_message_bytes = 16 << 20;
  EXPECT_TRUE(DecodeControlMessage(EncodeControlMessage(tcp)).ok());

  std::string bad = EncodeControlMessage(UdpRequest());
  bad[kControlHeaderBytes] = 5;
  ExpectRejected(bad, "unknown transport code 5");
  bad = EncodeControlMessage(UdpRequest());
  bad[kControlHeaderBytes + 2] = 1;
  ExpectRejected(bad, "reserved request bytes");
  bad = EncodeControlMessage(UdpRequest());
  bad[kControlHeaderBytes + 7] = 1;
  ExpectRejected(bad, "reserved request bytes");
}

TEST(ControlProtocolTest, RejectsBadAcceptsAndErrors) {
  ExpectRejected(EncodeControlMessage(SessionAccept{0}), "data port 0");
  std::string bad = EncodeControlMessage(SessionAccept{7479});
  bad[kControlHeaderBytes + 3] = 1;
  ExpectRejected(bad, "reserved accept bytes");
  bad = EncodeControlMessage(SessionError{"abc"});
  bad[kControlHeaderBytes + 1] = '\n';
  ExpectRejected(bad, "byte 1 of the error message is 0x0a");
  // A header that says "error" with no payload.
  bad = EncodeControlMessage(SessionError{"abc"}).substr(0, kControlHeaderBytes);
  SetU32(bad, 8, 0);
  ExpectRejected(bad, "empty error message");
}

// What a fuzzer does, in small: seeded random bytes, and every single-byte change of valid
// messages, must decode or be refused, never crash (run under --config=asan to see
// memory errors).
TEST(ControlProtocolTest, SurvivesGarbage) {
  std::mt19937 random(12345);
  for (int i = 0; i < 20000; ++i) {
    std::string bytes(random() % 64, '\0');
    for (char& c : bytes) c = static_cast<char>(random());
    if (i % 2 == 0 && bytes.size() >= kControlHeaderBytes) {
      bytes.replace(0, 6, EncodeControlMessage(SessionAccept{1}).substr(0, 6));
    }
    absl::StatusOr<ControlMessage> decoded = DecodeControlMessage(bytes);
    if (!decoded.ok()) {
      EXPECT_TRUE(absl::IsInvalidArgument(decoded.status()));
    }
  }
  for (const std::string& good :
       {EncodeControlMessage(UdpRequest()), EncodeControlMessage(SessionAccept{7479}),
        EncodeControlMessage(SessionError{"no"}), EncodeControlMessage(SessionBusy{8, 8})}) {
    for (size_t at = 0; at < good.size(); ++at) {
      for (int value = 0; value < 256; ++value) {
        std::string bytes = good;
        bytes[at] = static_cast<char>(value);
        absl::StatusOr<ControlMessage> decoded = DecodeControlMessage(bytes);
        if (!decoded.ok()) {
          EXPECT_TRUE(absl::IsInvalidArgument(decoded.status()));
        }
      }
    }
  }
}

TEST(ControlProtocolTest, KnowsTheRemoteTransportsAndTheirLimits) {
  EXPECT_TRUE(IsRemoteTransport(*Row("udp")));
  EXPECT_TRUE(IsRemoteTransport(*Row("tcp6")));
  EXPECT_FALSE(IsRemoteTransport(*Row("pipe")));
  EXPECT_FALSE(IsRemoteTransport(*Row("unix_stream")));
  EXPECT_EQ(RemoteMaxMessageBytes(*Row("udp")), 65507u);
  EXPECT_EQ(RemoteMaxMessageBytes(*Row("udp6")), 65527u);
  EXPECT_EQ(RemoteMaxMessageBytes(*Row("tcp")), size_t{16} << 20);
}

}  // namespace
}  // namespace tickbench::remote
