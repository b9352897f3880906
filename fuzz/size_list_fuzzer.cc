// libFuzzer's entry point for FuzzSizeList() (fuzz/size_list_fuzz.h).
#include <cstddef>
#include <cstdint>

#include "fuzz/size_list_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tickbench::fuzz::FuzzSizeList(data, size);
  return 0;
}
