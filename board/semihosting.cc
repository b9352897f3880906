#include "board/semihosting.h"

#include <cstdint>
#include <cstdio>

namespace tickbench::board {
namespace {

constexpr uint32_t kSysWrite0 = 0x04;
constexpr uint32_t kSysGetCmdline = 0x15;
constexpr uint32_t kSysExitExtended = 0x20;
constexpr uint32_t kApplicationExit = 0x20026;  // ADP_Stopped_ApplicationExit

uint32_t Call(uint32_t operation, void* argument) {
  register uint32_t r0 asm("r0") = operation;
  register void* r1 asm("r1") = argument;
  asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

}  // namespace

bool GetCommandLine(char* buffer, size_t size) {
  uint32_t block[2] = {reinterpret_cast<uint32_t>(buffer), static_cast<uint32_t>(size)};
  if (size == 0 || Call(kSysGetCmdline, block) != 0) return false;
  buffer[block[1] < size ? block[1] : size - 1] = '\0';
  return true;
}

void WriteError(const char* text) { Call(kSysWrite0, const_cast<char*>(text)); }

void Exit(int code) {
  std::fflush(stdout);
  std::fflush(stderr);
  uint32_t block[2] = {kApplicationExit, static_cast<uint32_t>(code)};
  Call(kSysExitExtended, block);
  while (true) {
  }
}

}  // namespace tickbench::board
