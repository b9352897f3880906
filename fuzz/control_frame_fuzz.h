// Fuzz entry for transport::ParseControlFrame, the echo peer's control-frame parser.
//
// Input: the bytes the peer received, as they are. Checked besides memory safety:
//   * a frame that parses encodes back to exactly its input (EncodeControlFrame), so no
//     byte the parser accepts is lost, and every frame has one encoding;
//   * a parsed frame obeys the per-command limits of echo_peer.h;
//   * echo_peer.h's promise that no stamped 16-byte message parses as a frame, for the
//     sequence number in the input's first 8 bytes.
#ifndef FUZZ_CONTROL_FRAME_FUZZ_H_
#define FUZZ_CONTROL_FRAME_FUZZ_H_

#include <cstddef>
#include <cstdint>

namespace tickbench::fuzz {

void FuzzControlFrame(const uint8_t* data, size_t size);

}  // namespace tickbench::fuzz

#endif  // FUZZ_CONTROL_FRAME_FUZZ_H_
