// Pinning the calling thread to one CPU, and asking where it runs.
#ifndef PLATFORM_CPU_AFFINITY_H_
#define PLATFORM_CPU_AFFINITY_H_

#include "absl/status/status.h"

namespace tickbench::platform {

// Pins the calling thread (and the process's later children) to `cpu`. InvalidArgument
// when `cpu` is not an online CPU; Unimplemented where the OS cannot pin.
absl::Status PinCurrentThreadToCpu(int cpu);

// The CPU the caller runs on now, or -1 where the OS cannot tell.
int CurrentCpu();

// Number of CPUs the OS has online (at least 1).
int OnlineCpuCount();

}  // namespace tickbench::platform

#endif  // PLATFORM_CPU_AFFINITY_H_
