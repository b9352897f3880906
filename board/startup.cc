// The board's start-up: the vector table at address 0 (the initial stack pointer, then
// the handlers), Reset_Handler (copy .data, zero .bss, open semihosting's standard
// streams, run the constructors, main, exit with its code), and the handlers the board
// code does not define.
#include <cstdint>
#include <cstring>

#include "board/semihosting.h"
#include "core/command_line.h"

extern "C" {
extern uint32_t __data_load, __data_start, __data_end, __bss_start__, __bss_end__, __stack_top;
void __libc_init_array();
void initialise_monitor_handles();
int main(int argc, char** argv);

// newlib's __libc_init_array calls these; the C runtime's start files that would define
// them are left out (-nostartfiles).
void _init() {}
void _fini() {}
// Static objects with destructors register them against this handle (__cxa_atexit).
void* __dso_handle = nullptr;

void Reset_Handler();
void SysTick_Handler();
void PendSV_Handler();

// A fault or an unexpected interrupt ends the program with code 3 and says which.
void Default_Handler() {
  uint32_t ipsr;
  asm volatile("mrs %0, ipsr" : "=r"(ipsr));
  tickbench::board::WriteError(
      "board: a fault or an unexpected interrupt; exit code 100 + the exception number\n");
  tickbench::board::Exit(static_cast<int>(100 + (ipsr & 0x1ff) % 100));
}

// Weak: board code that uses them defines its own.
void SysTick_Handler() __attribute__((weak, alias("Default_Handler")));
void PendSV_Handler() __attribute__((weak, alias("Default_Handler")));
}

namespace {

using Handler = void (*)();

// 16 system exceptions and the AN385's 32 interrupts.
__attribute__((section(".isr_vector"), used)) const Handler kVectors[48] = {
    reinterpret_cast<Handler>(&__stack_top),
    Reset_Handler,
    Default_Handler,  // NMI
    Default_Handler,  // HardFault
    Default_Handler,  // MemManage
    Default_Handler,  // BusFault
    Default_Handler,  // UsageFault
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    Default_Handler,  // SVCall
    Default_Handler,  // DebugMonitor
    nullptr,
    PendSV_Handler,
    SysTick_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
};

char g_command_line[1024];
char* g_argv[64];

}  // namespace

extern "C" void Reset_Handler() {
  std::memcpy(&__data_start, &__data_load,
              reinterpret_cast<char*>(&__data_end) - reinterpret_cast<char*>(&__data_start));
  std::memset(&__bss_start__, 0,
              reinterpret_cast<char*>(&__bss_end__) - reinterpret_cast<char*>(&__bss_start__));
  initialise_monitor_handles();
  __libc_init_array();
  int argc = 0;
  if (tickbench::board::GetCommandLine(g_command_line, sizeof(g_command_line))) {
    argc = tickbench::core::SplitCommandLine(g_command_line, g_argv, 63);
    if (argc > 63) argc = 63;
  }
  static char kProgram[] = "board";
  if (argc == 0) g_argv[argc++] = kProgram;
  g_argv[argc] = nullptr;
  tickbench::board::Exit(main(argc, g_argv));
}
