#include "board/dwt.h"

#include "board/systick.h"

namespace tickbench::board {
namespace {

core::ClockInfo DwtInfo() {
  core::ClockInfo info;
  info.spec = "dwt";
  info.name = "DWT cycle counter (CYCCNT, 25 MHz core clock)";
  info.ticks_per_second = kCoreClockHz;
  info.claimed_resolution_ns = 1e9 / kCoreClockHz;
  return info;
}

}  // namespace

bool DetectDwt(const char** reason) {
  reg::Demcr() = reg::Demcr() | reg::kDemcrTrcEna;
  reg::Barrier();
  if (reg::DwtCtrl() & reg::kDwtCtrlNoCycCnt) {
    *reason =
        "dwt: this core has no DWT cycle counter (DWT_CTRL.NOCYCCNT is set); "
        "use --clock=systick_fine";
    return false;
  }
  reg::DwtCyccnt() = 0;
  reg::DwtCtrl() = reg::DwtCtrl() | reg::kDwtCtrlCycCntEna;
  reg::Barrier();
  const uint32_t before = reg::DwtCyccnt();
  for (volatile int i = 0; i < 1000; i = i + 1) {
  }
  const uint32_t after = reg::DwtCyccnt();
  if (after == before) {
    *reason =
        "dwt: the DWT cycle counter (CYCCNT at 0xE0001004) does not count on this "
        "board: it stayed at its value over 1000 loop iterations (QEMU does not "
        "emulate it); use --clock=systick_fine";
    return false;
  }
  return true;
}

DwtClock::DwtClock() : core::Clock(DwtInfo()) {}

}  // namespace tickbench::board
