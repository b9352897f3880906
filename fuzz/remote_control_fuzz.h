// Fuzz entry for remote::DecodeControlMessage, the decoder of the control protocol between
// a tickbench client and a server on another host (remote/control_protocol.h).
//
// Input: the bytes of one message as received. Checked besides memory safety:
//   * a rejection is InvalidArgument (the decoder promises never to abort);
//   * a message that decodes encodes back to exactly its input (EncodeControlMessage, in
//     the version its header names), so every message has one encoding and reserved
//     bytes are never lost;
//   * its header alone decodes (DecodeControlHeader) and announces the payload that follows;
//   * the input as an error message text encodes to a message that decodes, as
//     EncodeControlMessage promises for any error text.
#ifndef FUZZ_REMOTE_CONTROL_FUZZ_H_
#define FUZZ_REMOTE_CONTROL_FUZZ_H_

#include <cstddef>
#include <cstdint>

namespace tickbench::fuzz {

void FuzzRemoteControl(const uint8_t* data, size_t size);

}  // namespace tickbench::fuzz

#endif  // FUZZ_REMOTE_CONTROL_FUZZ_H_
