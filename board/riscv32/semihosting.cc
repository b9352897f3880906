#include "board/riscv32/semihosting.h"

#include <cstdint>
#include <cstdio>

namespace tickbench::board::riscv32 {
namespace {

enum Operation : uint32_t {
  kOpen = 0x01,
  kWrite = 0x05,
  kWrite0 = 0x04,
  kGetCmdline = 0x15,
  kExitExtended = 0x20,
};
// SYS_OPEN's modes "w" and "a": on ":tt", the host's standard output and error.
constexpr uint32_t kOpenWrite = 4;
constexpr uint32_t kOpenAppend = 8;
constexpr uint32_t kApplicationExit = 0x20026;  // ADP_Stopped_ApplicationExit

// The call itself: a function of its own so that the three instructions stay together,
// aligned and uncompressed, as the debugger recognizes them.
__attribute__((noinline, aligned(16))) uint32_t Call(uint32_t operation, void* block) {
  register uint32_t a0 asm("a0") = operation;
  register void* a1 asm("a1") = block;
  asm volatile(
      ".option push\n"
      ".option norvc\n"
      ".balign 16\n"
      "slli zero, zero, 0x1f\n"
      "ebreak\n"
      "srai zero, zero, 0x7\n"
      ".option pop"
      : "+r"(a0)
      : "r"(a1)
      : "memory");
  return a0;
}

// The C library's standard streams, in place of picolibc's semihosting ones, which send
// stdout and stderr alike, a character at a time, to QEMU's console (its standard error):
// each here is a file on the host opened by SYS_OPEN(":tt"), as Arm's newlib does: for
// writing it is the host's standard output, for appending its standard error. Output is
// kept in a line buffer and written by SYS_WRITE at each newline, when the buffer is full
// and at fflush.
struct Console {
  FILE file;
  uint32_t mode;
  int handle;
  size_t used;
  char line[256];
};

int Flush(FILE* file) {
  Console* console = reinterpret_cast<Console*>(file);
  if (console->handle < 0) {
    static char kTerminal[] = ":tt";
    uint32_t open[3] = {reinterpret_cast<uint32_t>(kTerminal), console->mode, 3};
    console->handle = static_cast<int>(Call(kOpen, open));
  }
  if (console->used > 0 && console->handle >= 0) {
    uint32_t write[3] = {static_cast<uint32_t>(console->handle),
                         reinterpret_cast<uint32_t>(console->line), console->used};
    Call(kWrite, write);
  }
  console->used = 0;
  return 0;
}

int Put(char c, FILE* file) {
  Console* console = reinterpret_cast<Console*>(file);
  console->line[console->used++] = c;
  if (c == '\n' || console->used == sizeof(console->line)) Flush(file);
  return static_cast<unsigned char>(c);
}

// {unget, flags, put, get, flush}, as picolibc's FDEV_SETUP_STREAM fills them.
Console g_stdout = {{0, _FDEV_SETUP_WRITE, Put, nullptr, Flush}, kOpenWrite, -1, 0, {}};
Console g_stderr = {{0, _FDEV_SETUP_WRITE, Put, nullptr, Flush}, kOpenAppend, -1, 0, {}};

}  // namespace

bool GetCommandLine(char* buffer, size_t size) {
  uint32_t block[2] = {reinterpret_cast<uint32_t>(buffer), static_cast<uint32_t>(size)};
  if (size == 0 || Call(kGetCmdline, block) != 0) return false;
  buffer[block[1] < size ? block[1] : size - 1] = '\0';
  return true;
}

void WriteError(const char* text) { Call(kWrite0, const_cast<char*>(text)); }

void Exit(int code) {
  std::fflush(stdout);
  std::fflush(stderr);
  uint32_t block[2] = {kApplicationExit, static_cast<uint32_t>(code)};
  Call(kExitExtended, block);
  while (true) {
  }
}

}  // namespace tickbench::board::riscv32

// picolibc's standard streams (its iob.c in libsemihost is then not linked); declared in
// its <stdio.h>, global variables, which C++ does not mangle.
FILE* const stdin = nullptr;
FILE* const stdout = &tickbench::board::riscv32::g_stdout.file;
FILE* const stderr = &tickbench::board::riscv32::g_stderr.file;
