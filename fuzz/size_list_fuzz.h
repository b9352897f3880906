// Fuzz entry for harness::ParseSizeList, the --sizes parser.
//
// Input: 8 bytes, little-endian, the largest size allowed (the transport's limit), then
// the --sizes text. Shorter inputs are ignored.
#ifndef FUZZ_SIZE_LIST_FUZZ_H_
#define FUZZ_SIZE_LIST_FUZZ_H_

#include <cstddef>
#include <cstdint>

namespace tickbench::fuzz {

void FuzzSizeList(const uint8_t* data, size_t size);

}  // namespace tickbench::fuzz

#endif  // FUZZ_SIZE_LIST_FUZZ_H_
