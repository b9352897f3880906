// Compiler helpers shared by the hot paths: forced inlining and optimisation barriers.
#ifndef PLATFORM_COMPILER_H_
#define PLATFORM_COMPILER_H_

#if defined(__GNUC__) || defined(__clang__)
#define TICKBENCH_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define TICKBENCH_ALWAYS_INLINE inline
#endif

namespace tickbench::platform {

// Keeps the compiler from moving memory accesses across this point. It emits no
// instruction: it orders the compiler, not the CPU.
TICKBENCH_ALWAYS_INLINE void CompilerBarrier() { asm volatile("" ::: "memory"); }

// Makes `value` look used, so that a computation whose result is otherwise dropped is not
// optimised away (as Google Benchmark's DoNotOptimize).
template <typename T>
TICKBENCH_ALWAYS_INLINE void DoNotOptimize(T& value) {
  asm volatile("" : "+m"(value) : : "memory");
}

}  // namespace tickbench::platform

#endif  // PLATFORM_COMPILER_H_
