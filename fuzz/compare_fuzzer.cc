// libFuzzer's entry point for FuzzCompare() (fuzz/compare_fuzz.h).
#include <cstddef>
#include <cstdint>

#include "fuzz/compare_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tickbench::fuzz::FuzzCompare(data, size);
  return 0;
}
