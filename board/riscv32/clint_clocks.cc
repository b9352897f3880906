#include "board/riscv32/clint_clocks.h"

#include <cstdio>

namespace tickbench::board::riscv32 {

volatile uint32_t g_tick_count = 0;
uint64_t g_tick_start = 0;
uint32_t g_tick_mtime_counts = 0;
int64_t g_tick_period_ns = 0;

namespace {

uint64_t g_deadline = 0;  // mtimecmp's value: the next tick
char g_tick_name[64] = "mtimecmp interrupt count";
char g_mcycle_name[80] = "mcycle (cycle counter)";

}  // namespace

extern "C" __attribute__((interrupt("machine"))) void MachineTimerInterrupt() {
  g_tick_count = g_tick_count + 1;
  g_deadline += g_tick_mtime_counts;
  SetMtimecmp(g_deadline);
}

bool StartMtimeTick(int64_t period_ns, const char** error) {
  constexpr int64_t kCountNs = 100;  // one count of mtime at 10 MHz
  if (period_ns <= 0 || period_ns % kCountNs != 0) {
    *error = "--tick_period must be a whole number of mtime's 100 ns counts";
    return false;
  }
  if (period_ns < 10'000 || period_ns > 10'000'000'000) {
    *error = "--tick_period must be between 10us and 10s";
    return false;
  }
  DisableInterrupts();  // until the tick is programmed; it needs them on after
  g_tick_mtime_counts = static_cast<uint32_t>(period_ns / kCountNs);
  g_tick_period_ns = period_ns;
  std::snprintf(g_tick_name, sizeof(g_tick_name), "mtimecmp interrupt count (%g Hz)",
                1e9 / static_cast<double>(period_ns));
  g_tick_start = Mtime();
  g_deadline = g_tick_start + g_tick_mtime_counts;
  SetMtimecmp(g_deadline);
  g_tick_count = 0;
  EnableInterruptSources(kMachineTimer);
  EnableInterrupts();
  return true;
}

namespace {

core::ClockInfo Info(const char* spec, const char* name, double hz, double resolution_ns) {
  core::ClockInfo info;
  info.spec = spec;
  info.name = name;
  info.ticks_per_second = hz;
  info.claimed_resolution_ns = resolution_ns;
  return info;
}

}  // namespace

MtimeTickClock::MtimeTickClock()
    : core::Clock(Info("mtime_tick", g_tick_name, 1e9 / static_cast<double>(g_tick_period_ns),
                       static_cast<double>(g_tick_period_ns))) {}

MtimeClock::MtimeClock() : core::Clock(Info("mtime", "CLINT mtime (10 MHz)", kMtimeHz, 100)) {}

bool DetectMcycle(double* hz, const char** reason) {
  const uint64_t before = Mcycle();
  for (volatile int i = 0; i < 1000; i = i + 1) {
  }
  if (Mcycle() == before) {
    *reason =
        "mcycle: the cycle counter (mcycle) does not count on this hart: it stayed at its "
        "value over 1000 loop iterations; use --clock=mtime";
    return false;
  }
  // Its rate over 10 ms of mtime, from one mtime edge to another.
  const uint64_t edge = Mtime();
  uint64_t start;
  while ((start = Mtime()) == edge) {
  }
  const uint64_t cycles_start = Mcycle();
  uint64_t end;
  while ((end = Mtime()) < start + 100'000) {
  }
  const uint64_t cycles = Mcycle() - cycles_start;
  *hz = static_cast<double>(cycles) * kMtimeHz / static_cast<double>(end - start);
  std::snprintf(g_mcycle_name, sizeof(g_mcycle_name),
                "mcycle (cycle counter, %.6g MHz against mtime)", *hz / 1e6);
  return true;
}

McycleClock::McycleClock(double hz) : core::Clock(Info("mcycle", g_mcycle_name, hz, 1e9 / hz)) {}

}  // namespace tickbench::board::riscv32
