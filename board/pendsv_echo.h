// A board transport: an in-memory round trip to an echo peer that runs in the PendSV
// interrupt handler, the way two tasks of a firmware exchange messages. Send() copies the
// message into the peer's mailbox and pends PendSV; the handler (lowest priority, so
// SysTick still preempts it) copies the mailbox into its reply; Receive() copies the reply
// out. Three copies of n bytes and one exception entry and return per round trip.
//
// What is promised:
//   * Send() and Receive() are direct calls on the concrete type (core/round_trip_loop.h's
//     endpoint), allocate nothing, and never block: the handler has run when Send()
//     returns (PendSV is taken at the barrier after it is pended, from thread mode).
//   * A message of up to kMaxMessageBytes; Send() refuses a larger one, Receive() one
//     whose size differs from the echo's.
//   * The peer counts the echoes it made and the exception number it ran under (14,
//     PendSV), for tests.
// What is NOT promised:
//   * Not for use from handler mode (PendSV cannot preempt a handler of equal or higher
//     priority, so Send() from a handler would not see its echo).
#ifndef BOARD_PENDSV_ECHO_H_
#define BOARD_PENDSV_ECHO_H_

#include <cstddef>
#include <cstdint>

namespace tickbench::board {

inline constexpr size_t kMaxMessageBytes = 65536;

class PendSvEcho final {
 public:
  static const char* name() { return "pendsv_echo"; }
  bool Send(const char* data, size_t size);
  bool Receive(char* data, size_t size);

  static uint32_t echoes();          // echoes the handler made
  static uint32_t last_exception();  // IPSR in the handler when it last ran
};

}  // namespace tickbench::board

#endif  // BOARD_PENDSV_ECHO_H_
