#include "board/systick.h"

#include <cstdio>

namespace tickbench::board {

volatile uint32_t g_systick_count = 0;
uint32_t g_systick_counts_per_tick = 0;
int64_t g_systick_period_ns = 0;

namespace {
char g_tick_name[64] = "SysTick interrupt count";
}  // namespace

extern "C" void SysTick_Handler() { g_systick_count = g_systick_count + 1; }

bool StartSysTick(int64_t period_ns, const char** error) {
  constexpr int64_t kCountNs = static_cast<int64_t>(1e9 / kCoreClockHz);  // 40 ns
  if (period_ns <= 0 || period_ns % kCountNs != 0) {
    *error = "--tick_period must be a whole number of the core clock's 40 ns counts";
    return false;
  }
  const int64_t counts = period_ns / kCountNs;
  if (counts < 100 || counts > (int64_t{1} << 24)) {
    *error =
        "--tick_period must be between 4us and 671.08864ms (SysTick's 24-bit reload at 25 MHz)";
    return false;
  }
  g_systick_counts_per_tick = static_cast<uint32_t>(counts);
  g_systick_period_ns = period_ns;
  std::snprintf(g_tick_name, sizeof(g_tick_name), "SysTick interrupt count (%g Hz)",
                1e9 / static_cast<double>(period_ns));
  // SysTick at the highest priority, PendSV (the echo peer) at the lowest: a tick that
  // falls during an echo is counted when it happens.
  reg::ScbShpr3() = (reg::ScbShpr3() & 0x0000ffffu) | (0x00u << 24) | (0xffu << 16);
  reg::SystCsr() = 0;
  reg::SystRvr() = static_cast<uint32_t>(counts - 1);
  reg::SystCvr() = 0;  // any write clears the counter: it reloads on the next count
  g_systick_count = 0;
  reg::SystCsr() = 7;  // enable, interrupt, core clock
  return true;
}

namespace {

core::ClockInfo TickInfo() {
  core::ClockInfo info;
  info.spec = "systick";
  info.name = g_tick_name;
  info.ticks_per_second = 1e9 / static_cast<double>(g_systick_period_ns);
  info.claimed_resolution_ns = static_cast<double>(g_systick_period_ns);
  return info;
}

core::ClockInfo FineInfo() {
  core::ClockInfo info;
  info.spec = "systick_fine";
  info.name = "SysTick count and counter (25 MHz core clock)";
  info.ticks_per_second = kCoreClockHz;
  info.claimed_resolution_ns = 1e9 / kCoreClockHz;
  return info;
}

}  // namespace

SysTickClock::SysTickClock() : core::Clock(TickInfo()) {}

SysTickFineClock::SysTickFineClock() : core::Clock(FineInfo()) {}

}  // namespace tickbench::board
