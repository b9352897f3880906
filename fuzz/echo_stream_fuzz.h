// Fuzz entry for what a malicious echo peer can send: a TCP byte stream or UDP datagrams
// that the client's receive path (transport/sockets/socket_endpoint.h, full_io.h) and the
// round-trip engine (harness/engine/round_trip_engine.h) read as echoes.
//
// Input: byte 0 chooses the transport (even: tcp, odd: udp), byte 1 the message size
// (1..64), byte 2 the warm-up (0..3) and the batch (1..3), byte 3 the timed round trips
// (1..16); the rest is the peer's script, one operation per byte:
//   'E' the right echo of the next message (its sequence stamped as the engine will);
//   'S' skip a sequence number (the next 'E' echoes a later message: reordered);
//   'B' step back one (the next 'E' repeats an earlier echo: late or duplicate);
//   'C' the next echo with its last byte flipped (corrupted);
//   'R' raw: the next byte N, then N bytes as they are (a stray run on a stream, one
//       datagram of N bytes on udp);
//   anything else: a single stray byte.
// The script is written before the run starts, and the peer then closes its end (a stream
// ends there); the receive timeout is 5 ms.
//
// Checked besides memory safety and that the run ends (libFuzzer's -timeout):
//   * no more round trips are timed than the peer sent messages' worth of bytes, and every
//     count adds up (timed + excluded <= completed <= iterations);
//   * on a stream, a fault ends the run: at most one faulty echo is counted, and then the
//     run has an error (an echo out of step never leaves a "valid" run of what is left);
//   * on datagrams, a run without an error (or a warm-up the peer left silent) completed
//     every round trip;
//   * a valid run has a finite, non-negative averaged round trip.
#ifndef FUZZ_ECHO_STREAM_FUZZ_H_
#define FUZZ_ECHO_STREAM_FUZZ_H_

#include <cstddef>
#include <cstdint>

namespace tickbench::fuzz {

void FuzzEchoStream(const uint8_t* data, size_t size);

}  // namespace tickbench::fuzz

#endif  // FUZZ_ECHO_STREAM_FUZZ_H_
