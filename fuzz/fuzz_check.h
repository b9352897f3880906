// The properties a fuzz entry checks beyond "does not crash".
//
// A broken property prints what broke and aborts: libFuzzer reports the abort as a crash
// and saves the input, and a corpus test run stops with the input's test named last.
#ifndef FUZZ_FUZZ_CHECK_H_
#define FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>

namespace tickbench::fuzz {

inline void FuzzCheck(bool holds, const char* property) {
  if (holds) return;
  std::fprintf(stderr, "fuzz property broken: %s\n", property);
  std::abort();
}

}  // namespace tickbench::fuzz

#endif  // FUZZ_FUZZ_CHECK_H_
