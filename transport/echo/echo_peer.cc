#include "transport/echo/echo_peer.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "transport/io/message_buffer.h"

namespace tickbench::transport {
namespace {

void StoreU32(char* to, uint32_t value) {
  for (int i = 0; i < 4; ++i) to[i] = static_cast<char>(value >> (8 * i));
}

uint32_t LoadU32(const char* from) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) {
    value |= static_cast<uint32_t>(static_cast<unsigned char>(from[i])) << (8 * i);
  }
  return value;
}

absl::Status Annotate(const absl::Status& status, absl::string_view where) {
  return absl::Status(status.code(), absl::StrCat(where, ": ", status.message()));
}

// Counts echoes and applies the fault hooks shared by both loops.
class Echoer {
 public:
  Echoer(Endpoint& endpoint, const EchoPeerOptions& options)
      : endpoint_(endpoint), options_(options) {}

  // Echoes `message` unless the drop hook says otherwise.
  absl::Status Echo(absl::Span<const char> message) {
    ++messages_;
    if (options_.drop_every_kth > 0 && messages_ % options_.drop_every_kth == 0) {
      return absl::OkStatus();
    }
    if (options_.reply_delay > absl::ZeroDuration()) absl::SleepFor(options_.reply_delay);
    if (absl::Status sent = endpoint_.Send(message); !sent.ok()) {
      return Annotate(sent, absl::StrFormat("echo of message %d", messages_));
    }
    ++echoes_;
    return absl::OkStatus();
  }

  // No fault hook is set: the endpoint's own loop may echo (Endpoint::EchoMessages(),
  // EchoDatagrams()).
  bool plain() const {
    return options_.drop_every_kth == 0 && options_.stop_after == 0 &&
           options_.reply_delay == absl::ZeroDuration();
  }

  // Counts what the endpoint's own loop did, which ended with `status`: the failure of an
  // echo, annotated as Echo() would, or OK (also when the loop's receive failed: the
  // caller says where).
  absl::Status Account(const Endpoint::EchoCount& done, const absl::Status& status) {
    messages_ += done.echoed;
    echoes_ += done.echoed;
    if (status.ok() || done.received == done.echoed) return absl::OkStatus();
    ++messages_;
    return Annotate(status, absl::StrFormat("echo of message %d", messages_));
  }

  // True once stop_after echoes have gone out.
  bool stopped() const { return options_.stop_after > 0 && echoes_ >= options_.stop_after; }

  // Receives a stream block of `count` messages of buffer.size() bytes and echoes them.
  // With no fault hook set, the endpoint's own loop does it (EchoMessages(): its
  // Receive() and Send() inline, nothing between them); otherwise each message goes
  // through Echo(). Either way a failure names the message it happened to.
  absl::Status EchoBlock(absl::Span<char> buffer, uint32_t count) {
    if (plain()) {
      Endpoint::EchoCount done;
      const absl::Status status = endpoint_.EchoMessages(buffer, count, done);
      if (absl::Status echoed = Account(done, status); !echoed.ok() || status.ok()) return echoed;
      return Annotate(status,
                      absl::StrFormat("message %u of a block of %u", done.received + 1, count));
    }
    for (uint32_t i = 0; i < count; ++i) {
      if (absl::Status got = endpoint_.Receive(buffer); !got.ok()) {
        return Annotate(got, absl::StrFormat("message %u of a block of %u", i + 1, count));
      }
      if (absl::Status echoed = Echo(buffer); !echoed.ok()) return echoed;
      if (stopped()) return absl::OkStatus();
    }
    return absl::OkStatus();
  }

 private:
  Endpoint& endpoint_;
  const EchoPeerOptions& options_;
  int64_t messages_ = 0;
  int64_t echoes_ = 0;
};

absl::Status RunStreamPeer(Endpoint& endpoint, const EchoPeerOptions& options) {
  Echoer echoer(endpoint, options);
  MessageBuffer buffer;  // page-aligned, as the client's (message_buffer.h)
  std::array<char, kControlFrameBytes> frame_bytes;
  while (true) {
    if (absl::Status got = endpoint.Receive(absl::MakeSpan(frame_bytes)); !got.ok()) {
      if (absl::IsUnavailable(got)) return absl::OkStatus();  // the client went away
      return Annotate(got, "control frame");
    }
    const std::optional<ControlFrame> frame = ParseControlFrame(frame_bytes);
    if (!frame.has_value()) {
      return absl::DataLossError(
          absl::StrFormat("malformed control frame: magic 0x%08x, command %u, size %u, count %u",
                          LoadU32(&frame_bytes[0]), LoadU32(&frame_bytes[4]),
                          LoadU32(&frame_bytes[8]), LoadU32(&frame_bytes[12])));
    }
    if (frame->command == PeerCommand::kQuit) return absl::OkStatus();
    if (frame->message_size > endpoint.max_message_size()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("block of %u-byte messages; this endpoint carries at most %u",
                          frame->message_size, endpoint.max_message_size()));
    }
    buffer.Resize(frame->message_size);
    if (absl::Status echoed = echoer.EchoBlock(buffer.span(), frame->count); !echoed.ok()) {
      return echoed;
    }
    if (echoer.stopped()) return absl::OkStatus();
  }
}

absl::Status RunDatagramPeer(Endpoint& endpoint, const EchoPeerOptions& options) {
  Echoer echoer(endpoint, options);
  MessageBuffer buffer(endpoint.max_message_size());
  while (true) {
    absl::StatusOr<size_t> length;
    if (echoer.plain()) {
      // The endpoint's loop sends back every datagram that cannot be a control frame and
      // stops at the first that can.
      Endpoint::EchoCount done;
      length = endpoint.EchoDatagrams(buffer.span(), kControlFrameBytes, done);
      if (absl::Status echoed = echoer.Account(done, length.status()); !echoed.ok()) {
        return echoed;
      }
    } else {
      length = endpoint.ReceiveDatagram(buffer.span());
    }
    if (!length.ok()) {
      if (absl::IsUnavailable(length.status())) return absl::OkStatus();
      return Annotate(length.status(), "datagram");
    }
    const absl::Span<const char> datagram(buffer.data(), *length);
    if (*length == kControlFrameBytes) {
      const std::optional<ControlFrame> frame = ParseControlFrame(datagram);
      if (frame.has_value()) {
        if (frame->command == PeerCommand::kQuit) return absl::OkStatus();
        continue;
      }
    }
    if (absl::Status echoed = echoer.Echo(datagram); !echoed.ok()) return echoed;
    if (echoer.stopped()) return absl::OkStatus();
  }
}

absl::Status SendFrame(Endpoint& endpoint, const ControlFrame& frame) {
  const std::array<char, kControlFrameBytes> bytes = EncodeControlFrame(frame);
  return endpoint.Send(bytes);
}

}  // namespace

std::array<char, kControlFrameBytes> EncodeControlFrame(const ControlFrame& frame) {
  std::array<char, kControlFrameBytes> bytes;
  StoreU32(&bytes[0], kControlMagic);
  StoreU32(&bytes[4], static_cast<uint32_t>(frame.command));
  StoreU32(&bytes[8], frame.message_size);
  StoreU32(&bytes[12], frame.count);
  return bytes;
}

std::optional<ControlFrame> ParseControlFrame(absl::Span<const char> bytes) {
  if (bytes.size() != kControlFrameBytes || LoadU32(&bytes[0]) != kControlMagic) {
    return std::nullopt;
  }
  ControlFrame frame;
  frame.message_size = LoadU32(&bytes[8]);
  frame.count = LoadU32(&bytes[12]);
  switch (LoadU32(&bytes[4])) {
    case static_cast<uint32_t>(PeerCommand::kEchoBlock):
      frame.command = PeerCommand::kEchoBlock;
      if (frame.message_size > kMaxControlMessageBytes) return std::nullopt;
      return frame;
    case static_cast<uint32_t>(PeerCommand::kQuit):
      frame.command = PeerCommand::kQuit;
      if (frame.message_size != 0 || frame.count != 0) return std::nullopt;
      return frame;
    default:
      return std::nullopt;
  }
}

absl::Status RunEchoPeer(Endpoint& endpoint, const EchoPeerOptions& options) {
  if (options.drop_every_kth < 0 || options.stop_after < 0 ||
      options.reply_delay < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("echo peer fault hooks must not be negative");
  }
  if (absl::Status busy = endpoint.SetBusyPoll(options.busy_poll); !busy.ok()) return busy;
  if (!endpoint.may_lose()) {
    if (options.drop_every_kth != 0) {
      return absl::InvalidArgumentError(
          "drop_every_kth applies only to transports that may lose a message: this one "
          "does not");
    }
    return RunStreamPeer(endpoint, options);
  }
  return RunDatagramPeer(endpoint, options);
}

absl::Status SendBlockHeader(Endpoint& endpoint, uint32_t message_size, uint32_t count) {
  if (message_size > endpoint.max_message_size()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("a block of %u-byte messages; the endpoint carries at most %u",
                        message_size, endpoint.max_message_size()));
  }
  ControlFrame frame;
  frame.command = PeerCommand::kEchoBlock;
  frame.message_size = message_size;
  frame.count = count;
  return SendFrame(endpoint, frame);
}

absl::Status SendQuit(Endpoint& endpoint) {
  ControlFrame frame;
  frame.command = PeerCommand::kQuit;
  return SendFrame(endpoint, frame);
}

}  // namespace tickbench::transport
