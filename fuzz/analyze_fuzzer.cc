// libFuzzer's entry point for FuzzAnalyze() (fuzz/analyze_fuzz.h).
#include <cstddef>
#include <cstdint>

#include "fuzz/analyze_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tickbench::fuzz::FuzzAnalyze(data, size);
  return 0;
}
