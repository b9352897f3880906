#include <sched.h>
#include <unistd.h>

#include <cerrno>

#include "absl/strings/str_format.h"
#include "platform/cpu/cpu_affinity.h"
#include "platform/errno_status.h"

namespace tickbench::platform {

absl::Status PinCurrentThreadToCpu(int cpu) {
  if (cpu < 0 || cpu >= CPU_SETSIZE) {
    return absl::InvalidArgumentError(
        absl::StrFormat("CPU %d is out of range 0..%d", cpu, OnlineCpuCount() - 1));
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof(set), &set) != 0) {
    const int error_number = errno;
    if (error_number == EINVAL) {
      return absl::InvalidArgumentError(
          absl::StrFormat("CPU %d is not available to this process (online CPUs: 0..%d)", cpu,
                          OnlineCpuCount() - 1));
    }
    return ErrnoToStatus(error_number, absl::StrFormat("sched_setaffinity(CPU %d)", cpu));
  }
  return absl::OkStatus();
}

int CurrentCpu() { return sched_getcpu(); }

int OnlineCpuCount() {
  const long count = sysconf(_SC_NPROCESSORS_ONLN);
  return count > 0 ? static_cast<int>(count) : 1;
}

}  // namespace tickbench::platform
