// The RISC-V board's start-up: _start (global pointer, stack), the machine-mode trap
// vector (mtvec, vectored: exceptions at its base, interrupt i at base + 4 i), the reset
// code in C++ (copy .data, zero .bss, picolibc's thread pointer, constructors, the command
// line by semihosting, main, exit with its code), a handler for faults and unexpected
// interrupts, and the few pieces of the C++ runtime that a program without libstdc++
// still references.
//
// The memory map is picolibc's linker script (picolibc.ld) with the board's addresses
// (board/riscv32/riscv32.bzl): code and constants from 0x80000000, where QEMU's `virt`
// machine has its RAM and starts a -kernel image with -bios none.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "board/riscv32/rv32.h"
#include "board/riscv32/semihosting.h"
#include "core/command_line.h"

extern "C" {
extern char __data_source[], __data_start[], __data_size[], __bss_start[], __bss_size[];
extern char __tls_base[];
extern char tickbench_riscv32_vectors[];
void _set_tls(void* tls);  // picolibc: the thread pointer, where errno lives
void __libc_init_array();
int main(int argc, char** argv);
[[noreturn]] void tickbench_riscv32_reset();
void tickbench_riscv32_fault();
void tickbench_riscv32_unexpected();
// Board code that takes these interrupts defines its own (weak: unexpected until then).
void MachineSoftwareInterrupt() __attribute__((weak, alias("tickbench_riscv32_unexpected")));
void MachineTimerInterrupt() __attribute__((weak, alias("tickbench_riscv32_unexpected")));
}

// _start, then the vector table: uncompressed jumps, one word each.
asm(R"(
  .section .text.init.enter, "ax"
  .global _start
_start:
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  la sp, __stack
  call tickbench_riscv32_reset

  .section .text.vectors, "ax"
  .balign 256
  .global tickbench_riscv32_vectors
tickbench_riscv32_vectors:
  .option push
  .option norvc
  j tickbench_riscv32_fault
  j tickbench_riscv32_unexpected
  j tickbench_riscv32_unexpected
  j MachineSoftwareInterrupt
  j tickbench_riscv32_unexpected
  j tickbench_riscv32_unexpected
  j tickbench_riscv32_unexpected
  j MachineTimerInterrupt
  j tickbench_riscv32_unexpected
  j tickbench_riscv32_unexpected
  j tickbench_riscv32_unexpected
  j tickbench_riscv32_unexpected
  .option pop
)");

namespace tickbench::board::riscv32 {
namespace {

char g_command_line[1024];
char* g_argv[64];

// Says what trapped and where, then ends the program with `code`.
[[noreturn]] void Stop(const char* what, int code) {
  char line[160];
  std::snprintf(line, sizeof(line), "board: %s (mcause 0x%08lx, mepc 0x%08lx); exit code %d\n",
                what, static_cast<unsigned long>(Mcause()), static_cast<unsigned long>(Mepc()),
                code);
  WriteError(line);
  Exit(code);
}

}  // namespace
}  // namespace tickbench::board::riscv32

using namespace tickbench::board::riscv32;

// A fault (an exception: illegal instruction, misaligned or faulting access, ecall) ends
// the program with 100 + the exception code.
extern "C" __attribute__((interrupt("machine"))) void tickbench_riscv32_fault() {
  Stop("a fault", 100 + static_cast<int>(Mcause() & 0xf));
}

// An interrupt no board code takes ends it with 120 + the interrupt number.
extern "C" __attribute__((interrupt("machine"))) void tickbench_riscv32_unexpected() {
  Stop("an unexpected interrupt", 120 + static_cast<int>(Mcause() & 0xf));
}

extern "C" void tickbench_riscv32_reset() {
  std::memcpy(__data_start, __data_source, reinterpret_cast<uintptr_t>(__data_size));
  std::memset(__bss_start, 0, reinterpret_cast<uintptr_t>(__bss_size));
  _set_tls(__tls_base);
  SetMtvec(reinterpret_cast<uintptr_t>(tickbench_riscv32_vectors) | 1);  // vectored
  __libc_init_array();
  int argc = 0;
  if (GetCommandLine(g_command_line, sizeof(g_command_line))) {
    argc = tickbench::core::SplitCommandLine(g_command_line, g_argv, 63);
    if (argc > 63) argc = 63;
  }
  static char kProgram[] = "board";
  if (argc == 0) g_argv[argc++] = kProgram;
  g_argv[argc] = nullptr;
  Exit(main(argc, g_argv));
}

// The C++ runtime without libstdc++: virtual destructors reference the deleting ones
// (nothing here is allocated with new), and an abstract class's vtable the pure-virtual
// trap.
void operator delete(void* pointer) noexcept { std::free(pointer); }
void operator delete(void* pointer, size_t) noexcept { std::free(pointer); }
extern "C" void __cxa_pure_virtual() {
  WriteError("board: a pure virtual function was called\n");
  Exit(99);
}
