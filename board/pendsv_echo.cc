#include "board/pendsv_echo.h"

#include <cstring>

#include "board/cortex_m.h"

namespace tickbench::board {
namespace {

// The peer's side: its mailbox (what the client sent) and its reply.
alignas(8) char g_mailbox[kMaxMessageBytes];
alignas(8) char g_reply[kMaxMessageBytes];
volatile size_t g_request_size = 0;
volatile size_t g_reply_size = 0;
volatile bool g_replied = false;
volatile uint32_t g_echoes = 0;
volatile uint32_t g_last_exception = 0;

}  // namespace

extern "C" void PendSV_Handler() {
  const size_t size = g_request_size;
  std::memcpy(g_reply, g_mailbox, size);
  g_reply_size = size;
  g_replied = true;
  g_echoes = g_echoes + 1;
  g_last_exception = reg::Ipsr() & 0x1ff;
}

bool PendSvEcho::Send(const char* data, size_t size) {
  if (size > kMaxMessageBytes) return false;
  std::memcpy(g_mailbox, data, size);
  g_request_size = size;
  g_replied = false;
  reg::ScbIcsr() = reg::kIcsrPendSvSet;
  reg::Barrier();  // PendSV is taken here
  return true;
}

bool PendSvEcho::Receive(char* data, size_t size) {
  while (!g_replied) {
  }
  if (g_reply_size != size) return false;
  std::memcpy(data, g_reply, size);
  g_replied = false;
  return true;
}

uint32_t PendSvEcho::echoes() { return g_echoes; }
uint32_t PendSvEcho::last_exception() { return g_last_exception; }

}  // namespace tickbench::board
