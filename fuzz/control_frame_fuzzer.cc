// libFuzzer's entry point for FuzzControlFrame() (fuzz/control_frame_fuzz.h).
#include <cstddef>
#include <cstdint>

#include "fuzz/control_frame_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tickbench::fuzz::FuzzControlFrame(data, size);
  return 0;
}
