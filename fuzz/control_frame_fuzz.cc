#include "fuzz/control_frame_fuzz.h"

#include <algorithm>
#include <array>
#include <optional>

#include "absl/types/span.h"
#include "fuzz/fuzz_check.h"
#include "transport/echo/echo_peer.h"
#include "transport/io/message_pattern.h"

namespace tickbench::fuzz {
namespace {

using transport::ControlFrame;
using transport::kControlFrameBytes;
using transport::PeerCommand;

void CheckStampedMessageIsNoFrame(const uint8_t* data) {
  uint64_t sequence = 0;
  for (int i = 0; i < 8; ++i) sequence |= uint64_t{data[i]} << (8 * i);
  std::array<char, kControlFrameBytes> message;
  transport::FillPattern(absl::MakeSpan(message));
  transport::StampSequence(absl::MakeSpan(message), sequence);
  FuzzCheck(!transport::ParseControlFrame(message).has_value(),
            "no stamped 16-byte message parses as a control frame");
}

}  // namespace

void FuzzControlFrame(const uint8_t* data, size_t size) {
  if (size >= 8) CheckStampedMessageIsNoFrame(data);

  const absl::Span<const char> bytes(reinterpret_cast<const char*>(data), size);
  const std::optional<ControlFrame> frame = transport::ParseControlFrame(bytes);
  if (!frame.has_value()) return;
  FuzzCheck(size == kControlFrameBytes, "only a 16-byte input parses");
  switch (frame->command) {
    case PeerCommand::kEchoBlock:
      FuzzCheck(frame->message_size <= transport::kMaxControlMessageBytes,
                "an echo block's message size is at most 2^30");
      break;
    case PeerCommand::kQuit:
      FuzzCheck(frame->message_size == 0 && frame->count == 0,
                "a quit frame's size and count are 0");
      break;
    default:
      FuzzCheck(false, "a parsed frame has a known command");
  }
  const std::array<char, kControlFrameBytes> encoded = transport::EncodeControlFrame(*frame);
  FuzzCheck(std::equal(encoded.begin(), encoded.end(), bytes.begin(), bytes.end()),
            "EncodeControlFrame(ParseControlFrame(x)) == x");
}

}  // namespace tickbench::fuzz
