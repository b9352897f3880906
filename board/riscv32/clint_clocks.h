// The RISC-V board's clocks behind the core clock contract (core/clock.h): the CLINT's
// timer, as a coarse tick and as the fine reference, and the hart's cycle counter.
//
//   mtime_tick  the number of machine timer interrupts: mtimecmp is set one period ahead
//               and moved on by one period in each interrupt, so it counts a real coarse
//               tick of period T, as a firmware's 100 Hz or 1 kHz tick. T from
//               --tick_period (10ms: 100 Hz; any whole number of 100 ns from 10us to 10s).
//   mtime       the CLINT's 64-bit mtime counter itself, 10 MHz on `virt` (0.1 us): the
//               reference clock of every study.
//   mcycle      the hart's cycle counter (mcycle/mcycleh), where it counts; its rate is
//               calibrated against mtime.
//
// What is promised:
//   * StartMtimeTick() programs the tick once for the program's life (it may be called
//     again to restart it); it refuses a period that is not a whole number of mtime's
//     100 ns counts or is outside 10us..10s.
//   * mtime never goes backwards: its two halves are read high, low, high until the high
//     half holds.
//   * mtime_tick's reading is floor((mtime - start) / counts per tick) for reads at the same
//     instant (interrupts masked), plus one while a timer interrupt is pending and not yet
//     taken; the tick interrupt is taken in any code that runs with interrupts enabled,
//     the echo peer's handler included (board/riscv32/msip_echo.h).
//   * DetectMcycle() says whether mcycle counts (it moves over a short busy loop) and, if
//     it does, its rate against mtime over 10 ms of mtime; a counter that does not move is
//     refused with the reason, as the host refuses a cycle counter it cannot trust.
// What is NOT promised:
//   * mtime's rate is `virt`'s stated timebase (10 MHz); under QEMU time is emulated
//     (docs/platforms.md), and a real board states its own timebase.
//   * mcycle's rate is what the calibration measured: under QEMU with -icount it counts
//     instructions (2^-shift per ns), on silicon the core clock's cycles, which a
//     frequency change would alter.
#ifndef BOARD_RISCV32_CLINT_CLOCKS_H_
#define BOARD_RISCV32_CLINT_CLOCKS_H_

#include <cstdint>

#include "board/riscv32/rv32.h"
#include "core/clock.h"

namespace tickbench::board::riscv32 {

// Timer interrupts counted since StartMtimeTick(); written by the interrupt only.
extern volatile uint32_t g_tick_count;
// mtime when the tick started, and mtime counts per tick (0 until started).
extern uint64_t g_tick_start;
extern uint32_t g_tick_mtime_counts;
extern int64_t g_tick_period_ns;

// Programs the tick for `period_ns` and enables its interrupt; false (nothing programmed)
// with *error set when the period cannot be made.
bool StartMtimeTick(int64_t period_ns, const char** error);

class MtimeTickClock final : public core::Clock {
 public:
  MtimeTickClock();
  int64_t NowTicks() override { return g_tick_count; }
};

class MtimeClock final : public core::Clock {
 public:
  MtimeClock();
  int64_t NowTicks() override { return static_cast<int64_t>(Mtime()); }
};

// True when mcycle counts, with *hz its rate against mtime; else false and *reason.
bool DetectMcycle(double* hz, const char** reason);

class McycleClock final : public core::Clock {
 public:
  explicit McycleClock(double hz);  // only after DetectMcycle() said yes, with its rate
  int64_t NowTicks() override { return static_cast<int64_t>(Mcycle()); }
};

}  // namespace tickbench::board::riscv32

#endif  // BOARD_RISCV32_CLINT_CLOCKS_H_
