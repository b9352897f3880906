// libFuzzer's entry point for FuzzCsvReader() (fuzz/csv_reader_fuzz.h).
#include <cstddef>
#include <cstdint>

#include "fuzz/csv_reader_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tickbench::fuzz::FuzzCsvReader(data, size);
  return 0;
}
