#include "board/riscv32/msip_echo.h"

#include <cstring>

#include "board/riscv32/clint_clocks.h"
#include "board/riscv32/rv32.h"

namespace tickbench::board::riscv32 {
namespace {

// The peer's side: its mailbox (what the client sent) and its reply.
alignas(8) char g_mailbox[kMaxMessageBytes];
alignas(8) char g_reply[kMaxMessageBytes];
volatile size_t g_request_size = 0;
volatile size_t g_reply_size = 0;
volatile bool g_replied = false;
volatile uint32_t g_echoes = 0;
volatile uint32_t g_last_cause = 0;
volatile uint32_t g_ticked_echoes = 0;

}  // namespace

extern "C" __attribute__((interrupt("machine"))) void MachineSoftwareInterrupt() {
  const uint32_t cause = Mcause();
  const uint32_t epc = Mepc();
  const uint32_t status = Mstatus();
  Msip() = 0;
  EnableInterrupts();  // the tick may preempt the copy from here on
  const uint32_t ticks = g_tick_count;
  const size_t size = g_request_size;
  std::memcpy(g_reply, g_mailbox, size);
  g_reply_size = size;
  g_echoes = g_echoes + 1;
  g_last_cause = cause;
  if (g_tick_count != ticks) g_ticked_echoes = g_ticked_echoes + 1;
  DisableInterrupts();
  g_replied = true;
  SetMepc(epc);
  SetMstatus(status);
}

MsipEcho::MsipEcho() {
  EnableInterruptSources(kMachineSoftware);
  EnableInterrupts();
}

bool MsipEcho::Send(const char* data, size_t size) {
  if (size > kMaxMessageBytes) return false;
  std::memcpy(g_mailbox, data, size);
  g_request_size = size;
  g_replied = false;
  asm volatile("" : : : "memory");  // the mailbox is written before the interrupt
  Msip() = 1;                       // the interrupt is taken here
  return true;
}

bool MsipEcho::Receive(char* data, size_t size) {
  while (!g_replied) {
  }
  asm volatile("" : : : "memory");  // the reply is read after the flag
  if (g_reply_size != size) return false;
  std::memcpy(data, g_reply, size);
  g_replied = false;
  return true;
}

uint32_t MsipEcho::echoes() { return g_echoes; }
uint32_t MsipEcho::last_cause() { return g_last_cause; }
uint32_t MsipEcho::ticks_during_echo() { return g_ticked_echoes; }

}  // namespace tickbench::board::riscv32
