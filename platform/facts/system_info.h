// Facts about the host a measurement ran on, for the report's context, and small readers
// of the kernel's /proc and /sys files.
#ifndef PLATFORM_SYSTEM_INFO_H_
#define PLATFORM_SYSTEM_INFO_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tickbench::platform {

struct SystemInfo {
  std::string hostname;
  std::string os;         // "Linux"
  std::string kernel;     // uname release and version
  std::string machine;    // "x86_64", "aarch64"
  std::string cpu_model;  // /proc/cpuinfo "model name" (or the arm64 equivalent)
  int cpu_count = 1;      // online CPUs
  int64_t page_size_bytes = 0;
  std::string clocksource;  // the kernel's current clocksource ("tsc", "hpet", ...)
  std::string available_clocksources;
  std::string cpu_governor;  // cpufreq governor of CPU 0, or "" where there is none
  // The CPU says it runs under a hypervisor (x86's "hypervisor" flag in /proc/cpuinfo).
  // false where it cannot tell (arm64 has no such flag).
  bool virtual_machine = false;
  std::string build_mode;  // "opt", "dbg" or "fastbuild", plus sanitizers
};

// Reads the facts once. Missing files leave fields empty; nothing here fails.
SystemInfo GetSystemInfo();

// The build this binary came from: "opt" when optimised without assertions, "dbg" when
// assertions are on, with "+asan"/"+ubsan" appended for sanitizer builds.
std::string BuildMode();

// True when the build is optimised (what a measurement should use).
bool IsOptimizedBuild();

// True when /proc/cpuinfo text lists the "hypervisor" CPU flag (a "flags" line, as x86
// kernels write it), which the CPU sets when it runs as a virtual machine's vCPU.
bool CpuinfoSaysHypervisor(absl::string_view cpuinfo);

// The whole of a small text file of the kernel's (/proc, /sys), without its trailing newline.
// Those files report a size of 0 and are read to their end whatever it is: not for files a
// user names, which may be anything (see ReadUserFile).
absl::StatusOr<std::string> ReadSmallTextFile(absl::string_view path);

// The largest file ReadUserFile reads by default: 64 MiB, room for a million rows of a
// results CSV.
inline constexpr size_t kMaxUserFileBytes = size_t{64} << 20;

// The whole of a file a user named (a CSV to analyse), bytes unchanged.
// Promised:
//   * Only a regular file is read (a symbolic link to one is followed). Anything else is
//     refused with InvalidArgument naming what it is ("it is a FIFO", "a character device",
//     "a directory", ...), without blocking: the file is opened with O_NONBLOCK, so a FIFO
//     with no writer does not hang the open, and it is never read.
//   * A file over `max_bytes` is refused with InvalidArgument stating the limit, by its size
//     before any byte is read, and also when it grows past the limit while being read.
//   * A SIGINT or SIGTERM (platform/stop_signal.h) during the read ends it with Cancelled.
//   * Messages do not repeat the path (the caller names it); a failed open is the errno's
//     status, e.g. NotFound "open: No such file or directory".
// Not promised: that the file stays the same while it is read (a file being written may be
// read half-written).
absl::StatusOr<std::string> ReadUserFile(absl::string_view path,
                                         size_t max_bytes = kMaxUserFileBytes);

// The run-queue load averages over 1, 5 and 15 minutes, as /proc/loadavg gives them.
struct LoadAverage {
  double one_minute = 0;
  double five_minutes = 0;
  double fifteen_minutes = 0;
};

// The three figures at the start of /proc/loadavg's text ("0.52 0.58 0.59 1/467 12345");
// InvalidArgument when they are not three non-negative numbers.
absl::StatusOr<LoadAverage> ParseLoadAverage(absl::string_view proc_loadavg);

// This machine's load averages now; Unimplemented where there is no /proc/loadavg.
absl::StatusOr<LoadAverage> ReadLoadAverage();

// A sysctl such as "net.core.wmem_default", read from /proc/sys, as an integer.
absl::StatusOr<int64_t> ReadSysctlInt(absl::string_view name);

}  // namespace tickbench::platform

#endif  // PLATFORM_SYSTEM_INFO_H_
