// The board's SysTick timer as two clocks behind the core clock contract (core/clock.h):
//
//   systick       the number of SysTick interrupts: a real coarse tick of period T, as a
//                 firmware's 100 Hz or 1 kHz tick, not a simulation. T from --tick_period
//                 (10ms: 100 Hz; 20ms: 50 Hz).
//   systick_fine  count x (reload + 1) + (reload - counter): the same timer read to its
//                 counter's resolution, one count of the core clock (40 ns at 25 MHz).
//
// What is promised:
//   * StartSysTick() programs the timer once for the program's life; it refuses a period
//     that is not a whole number of core-clock counts or needs more than 24 bits.
//   * systick_fine never goes backwards: the count and the counter are read with
//     interrupts masked, and a wrap that has not been counted yet (SysTick pending) is
//     added, so the two never disagree.
//   * systick's readings are those of systick_fine divided by reload + 1, rounded down,
//     for reads at the same instant.
// What is NOT promised:
//   * The core clock's rate is the board's nominal one (25 MHz on the AN385); on a real
//     board the crystal's error applies, and under QEMU time is emulated (docs/platforms.md).
#ifndef BOARD_SYSTICK_H_
#define BOARD_SYSTICK_H_

#include <cstdint>

#include "board/cortex_m.h"
#include "core/clock.h"

namespace tickbench::board {

inline constexpr double kCoreClockHz = 25e6;  // the MPS2 AN385's core clock

// Interrupts counted since StartSysTick(); written by SysTick_Handler only.
extern volatile uint32_t g_systick_count;
// reload + 1: core-clock counts per tick (0 until started).
extern uint32_t g_systick_counts_per_tick;
extern int64_t g_systick_period_ns;

// Programs SysTick for a tick of `period_ns`; false (nothing programmed) with *error set
// when the period cannot be made.
bool StartSysTick(int64_t period_ns, const char** error);

class SysTickClock final : public core::Clock {
 public:
  SysTickClock();
  int64_t NowTicks() override { return g_systick_count; }
};

class SysTickFineClock final : public core::Clock {
 public:
  SysTickFineClock();
  int64_t NowTicks() override {
    const uint32_t primask = reg::DisableInterrupts();
    uint32_t count = g_systick_count;
    uint32_t counter = reg::SystCvr();
    if (reg::ScbIcsr() & reg::kIcsrPendStSet) {  // wrapped, not yet counted
      ++count;
      counter = reg::SystCvr();
    }
    reg::RestoreInterrupts(primask);
    const uint32_t per_tick = g_systick_counts_per_tick;
    return static_cast<int64_t>(count) * per_tick + (per_tick - 1 - counter);
  }
};

}  // namespace tickbench::board

#endif  // BOARD_SYSTICK_H_
