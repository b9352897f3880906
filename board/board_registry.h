// What the board offers, one row each, as the host's registries list theirs: the clocks
// (`--clock=`) and the transports (`--transport=`) of the board program.
//
// What is promised:
//   * kBoardClocks and kBoardTransports name every clock and transport the board program
//     accepts, with a one-line description; `--list_clocks` prints them.
// What is NOT promised:
//   * That a listed clock works on this board: dwt is detected when asked for, and
//     refused where it does not count.
#ifndef BOARD_BOARD_REGISTRY_H_
#define BOARD_BOARD_REGISTRY_H_

namespace tickbench::board {

struct BoardRow {
  const char* name;
  const char* description;
};

inline constexpr BoardRow kBoardClocks[] = {
    {"systick",
     "SysTick interrupts counted: a real coarse tick of period --tick_period (10ms: 100 Hz, "
     "20ms: 50 Hz)"},
    {"systick_fine",
     "SysTick's count and counter combined: count x (reload + 1) + (reload - counter), one "
     "core-clock count (40 ns at 25 MHz); the default reference"},
    {"dwt",
     "the DWT cycle counter (CYCCNT) at the core clock; detected, refused where it does not "
     "count (QEMU)"},
};

inline constexpr BoardRow kBoardTransports[] = {
    {"pendsv_echo",
     "an in-memory round trip to an echo peer in the PendSV interrupt handler (three copies "
     "of the message)"},
};

}  // namespace tickbench::board

#endif  // BOARD_BOARD_REGISTRY_H_
