// RISC-V semihosting from the board's side: QEMU (-semihosting-config enable=on) services
// the sequence `slli zero, zero, 0x1f; ebreak; srai zero, zero, 0x7` (uncompressed, in one
// 16-byte-aligned block) with the operation in a0 and its argument block in a1, as Arm's
// `bkpt 0xab`. The Cortex-M3 board's board/semihosting.h promises the same three calls.
//
// What is promised:
//   * GetCommandLine() copies the command line the host gave (the runner passes the
//     program's name and arguments, separated by spaces) into `buffer`, NUL-terminated, and
//     returns false if there is none or it did not fit.
//   * WriteError() writes a NUL-terminated string to the host's console, unbuffered.
//   * Exit() ends the program with `code` as the host process's exit status
//     (SYS_EXIT_EXTENDED); it does not return.
// What is NOT promised:
//   * Without a semihosting host (a real board with no debugger attached) `ebreak` traps:
//     these calls are for programs run under a debugger or QEMU.
#ifndef BOARD_RISCV32_SEMIHOSTING_H_
#define BOARD_RISCV32_SEMIHOSTING_H_

#include <cstddef>

namespace tickbench::board::riscv32 {

bool GetCommandLine(char* buffer, size_t size);
void WriteError(const char* text);
[[noreturn]] void Exit(int code);

}  // namespace tickbench::board::riscv32

#endif  // BOARD_RISCV32_SEMIHOSTING_H_
