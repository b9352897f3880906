// What the board program offers (`--config=cortex_m3`, docs/platforms.md), one row each:
// its clocks (`--clock=`) and its transports (`--transport=`). The one list of them: the
// board program accepts and lists these rows, the host's `--list_clocks` lists them as
// board only, and tests/registry_docs_test holds docs/reference.md's board table to them.
//
// Freestanding (core/README.md): plain constants, no Abseil, no OS.
//
// What is promised:
//   * kBoardClocks and kBoardTransports name every clock and transport the board program
//     accepts, with a one-line description; kBoardDefault* are among them.
// What is NOT promised:
//   * That a listed clock works on a given board: dwt is detected when asked for, and
//     refused where it does not count (under QEMU).
//   * That the host can use them: they exist on the board only (kBoardOnly).
#ifndef CORE_BOARD_ROWS_H_
#define CORE_BOARD_ROWS_H_

namespace tickbench::core {

struct BoardRow {
  const char* name;
  const char* description;
};

// How the host marks the rows: where they exist.
inline constexpr char kBoardOnly[] = "board only (--config=cortex_m3)";

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

inline constexpr char kBoardDefaultClock[] = "systick";
inline constexpr char kBoardDefaultTransport[] = "pendsv_echo";

}  // namespace tickbench::core

#endif  // CORE_BOARD_ROWS_H_
