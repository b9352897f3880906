// A board transport: an in-memory round trip to an echo peer that runs in the machine
// software interrupt handler, as the Cortex-M3 board's runs in PendSV. Send() copies the
// message into the peer's mailbox and raises the hart's software interrupt through the
// CLINT (msip at 0x02000000); the handler clears it, copies the mailbox into its reply and
// returns (mret); Receive() copies the reply out. Three copies of n bytes and one trap
// entry and return per round trip.
//
// What is promised:
//   * Send() and Receive() are direct calls on the concrete type (core/round_trip_loop.h's
//     endpoint) and allocate nothing. The interrupt is taken as soon as msip is set (QEMU
//     takes it before the next instruction; Receive() waits for the reply in any case).
//   * The handler runs with interrupts enabled once msip is cleared, so the timer tick
//     preempts it, as SysTick preempts PendSV: a tick that falls during an echo is counted
//     when it happens. It saves mepc and mstatus around that.
//   * A message of up to kMaxMessageBytes; Send() refuses a larger one, Receive() one
//     whose size differs from the echo's.
//   * The peer counts its echoes, the mcause it ran under (0x80000003, machine software
//     interrupt) and the echoes a tick interrupted, for tests.
// What is NOT promised:
//   * Not for use from a trap handler (machine interrupts do not nest unless a handler
//     enables them).
#ifndef BOARD_RISCV32_MSIP_ECHO_H_
#define BOARD_RISCV32_MSIP_ECHO_H_

#include <cstddef>
#include <cstdint>

namespace tickbench::board::riscv32 {

inline constexpr size_t kMaxMessageBytes = 65536;

class MsipEcho final {
 public:
  MsipEcho();  // enables the software interrupt (mie.MSIE, mstatus.MIE)
  static const char* name() { return "msip_echo"; }
  bool Send(const char* data, size_t size);
  bool Receive(char* data, size_t size);

  static uint32_t echoes();             // echoes the handler made
  static uint32_t last_cause();         // mcause in the handler when it last ran
  static uint32_t ticks_during_echo();  // echoes during which the tick count moved
};

}  // namespace tickbench::board::riscv32

#endif  // BOARD_RISCV32_MSIP_ECHO_H_
