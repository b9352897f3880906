// The DWT cycle counter (CYCCNT) as a clock behind the core clock contract: one count per
// core-clock cycle, where the core has it and it counts.
//
// What is promised:
//   * DetectDwt() turns the counter on (DEMCR.TRCENA, DWT_CTRL.CYCCNTENA) and says whether
//     it counts: present (DWT_CTRL.NOCYCCNT clear) and moving over a short busy loop. Where
//     it does not (Cortex-M0/M0+, or QEMU, which does not emulate it: CYCCNT reads 0),
//     *reason says so and the clock is refused, as a CPU counter that is not invariant is
//     on the host.
//   * NowTicks() extends the 32-bit counter to 64 bits; read at least once per 2^32 cycles
//     (171 s at 25 MHz) it never goes backwards.
// What is NOT promised:
//   * The rate is the nominal core clock (25 MHz on the AN385); a board with another clock
//     tree states its own.
#ifndef BOARD_DWT_H_
#define BOARD_DWT_H_

#include <cstdint>

#include "board/cortex_m.h"
#include "core/clock.h"

namespace tickbench::board {

bool DetectDwt(const char** reason);

class DwtClock final : public core::Clock {
 public:
  DwtClock();  // only after DetectDwt() said yes
  int64_t NowTicks() override {
    const uint32_t now = reg::DwtCyccnt();
    high_ += now < last_ ? (uint64_t{1} << 32) : 0;
    last_ = now;
    return static_cast<int64_t>(high_ | now);
  }

 private:
  uint32_t last_ = 0;
  uint64_t high_ = 0;
};

}  // namespace tickbench::board

#endif  // BOARD_DWT_H_
