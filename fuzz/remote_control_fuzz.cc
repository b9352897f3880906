#include "fuzz/remote_control_fuzz.h"

#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "fuzz/fuzz_check.h"
#include "remote/control_protocol.h"

namespace tickbench::fuzz {

void FuzzRemoteControl(const uint8_t* data, size_t size) {
  const absl::Span<const char> bytes(reinterpret_cast<const char*>(data), size);

  const remote::SessionError error{std::string(bytes.data(), bytes.size())};
  const std::string encoded_error = remote::EncodeControlMessage(error);
  FuzzCheck(remote::DecodeControlMessage(encoded_error).ok(), "any encoded error decodes");

  const absl::StatusOr<remote::ControlMessage> message = remote::DecodeControlMessage(bytes);
  if (!message.ok()) {
    FuzzCheck(absl::IsInvalidArgument(message.status()), "a rejection is InvalidArgument");
    return;
  }
  const absl::StatusOr<remote::ControlHeader> header =
      remote::DecodeControlHeader(bytes.first(remote::kControlHeaderBytes));
  FuzzCheck(header.ok(), "a decoded message has a valid header");
  FuzzCheck(header->payload_length == size - remote::kControlHeaderBytes,
            "the header announces the payload that follows");
  FuzzCheck(
      remote::EncodeControlMessage(*message, header->version) == std::string(bytes.data(), size),
      "EncodeControlMessage(DecodeControlMessage(x), its version) == x");
}

}  // namespace tickbench::fuzz
