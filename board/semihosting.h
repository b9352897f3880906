// Arm semihosting from the board's side: the debugger (here QEMU, -semihosting) services
// `bkpt 0xab` with the operation in r0 and its argument block in r1.
//
// What is promised:
//   * GetCommandLine() copies the command line the host gave (QEMU: the image's path, then
//     -append's words, separated by spaces) into `buffer`, NUL-terminated, and returns
//     false if there is none or it did not fit.
//   * Exit() ends the program with `code` as the host process's exit status
//     (SYS_EXIT_EXTENDED); it does not return.
// What is NOT promised:
//   * Without a semihosting host (a real board with no debugger attached) a `bkpt`
//     stops the core: these calls are for programs run under a debugger or QEMU.
#ifndef BOARD_SEMIHOSTING_H_
#define BOARD_SEMIHOSTING_H_

#include <cstddef>

namespace tickbench::board {

bool GetCommandLine(char* buffer, size_t size);
// Writes a NUL-terminated string to the host's console (SYS_WRITE0), unbuffered: for
// fault handlers, where the C library's streams may be in any state.
void WriteError(const char* text);
[[noreturn]] void Exit(int code);

}  // namespace tickbench::board

#endif  // BOARD_SEMIHOSTING_H_
