// libFuzzer's entry point for FuzzRemoteControl() (fuzz/remote_control_fuzz.h).
#include <cstddef>
#include <cstdint>

#include "fuzz/remote_control_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tickbench::fuzz::FuzzRemoteControl(data, size);
  return 0;
}
