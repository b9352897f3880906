// The Cortex-M3 system registers the board code uses (Armv7-M Architecture Reference
// Manual, B3.2 and C1.8), as volatile references, and the few instructions it needs.
#ifndef BOARD_CORTEX_M_H_
#define BOARD_CORTEX_M_H_

#include <cstdint>

namespace tickbench::board::reg {

inline volatile uint32_t& At(uintptr_t address) {
  return *reinterpret_cast<volatile uint32_t*>(address);
}

// SysTick.
inline volatile uint32_t& SystCsr() { return At(0xE000E010); }  // control and status
inline volatile uint32_t& SystRvr() { return At(0xE000E014); }  // reload value (24 bits)
inline volatile uint32_t& SystCvr() { return At(0xE000E018); }  // current value, counts down
// System control block.
inline volatile uint32_t& ScbIcsr() { return At(0xE000ED04); }   // interrupt control and state
inline volatile uint32_t& ScbShpr3() { return At(0xE000ED20); }  // PendSV, SysTick priorities
inline volatile uint32_t& Demcr() { return At(0xE000EDFC); }     // debug exception and monitor
// Data watchpoint and trace unit.
inline volatile uint32_t& DwtCtrl() { return At(0xE0001000); }
inline volatile uint32_t& DwtCyccnt() { return At(0xE0001004); }

inline constexpr uint32_t kIcsrPendSvSet = 1u << 28;
inline constexpr uint32_t kIcsrPendStSet = 1u << 26;
inline constexpr uint32_t kDemcrTrcEna = 1u << 24;
inline constexpr uint32_t kDwtCtrlNoCycCnt = 1u << 25;
inline constexpr uint32_t kDwtCtrlCycCntEna = 1u << 0;

inline uint32_t DisableInterrupts() {
  uint32_t primask;
  asm volatile("mrs %0, primask\n cpsid i" : "=r"(primask) : : "memory");
  return primask;
}
inline void RestoreInterrupts(uint32_t primask) {
  asm volatile("msr primask, %0" : : "r"(primask) : "memory");
}
inline void Barrier() { asm volatile("dsb\n isb" : : : "memory"); }
inline uint32_t Ipsr() {
  uint32_t ipsr;
  asm volatile("mrs %0, ipsr" : "=r"(ipsr));
  return ipsr;
}

}  // namespace tickbench::board::reg

#endif  // BOARD_CORTEX_M_H_
