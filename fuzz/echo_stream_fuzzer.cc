// libFuzzer's entry point for FuzzEchoStream() (fuzz/echo_stream_fuzz.h).
#include <cstddef>
#include <cstdint>

#include "fuzz/echo_stream_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tickbench::fuzz::FuzzEchoStream(data, size);
  return 0;
}
