// A process that may not start other processes: for a child about to exec a program that
// reads data we do not trust (gnuplot runs `!cmd` and system("cmd") in a shell).
//
// Promised:
//   * ForbidNewProcesses() installs, in the calling process, a seccomp filter under
//     which fork, vfork and clone without CLONE_THREAD fail with EPERM (clone3 with
//     ENOSYS, so that the C library falls back to clone and is refused there). Threads
//     may still be made, and execve still works: call it between fork and exec, and the
//     program exec'd runs under the filter for its whole life, as do its threads. A
//     shell escape in the program then cannot start the shell: system() and popen()
//     fail, nothing runs.
//   * It is async-signal-safe (two prctl calls, no allocation): fit for the child of a
//     fork in a multithreaded program.
//   * NewProcessBlockAvailable() says whether the filter can be installed here (probed
//     once, in a child of a fork, so that the caller is never filtered).
// Not promised:
//   * Anything on a kernel or an emulator without seccomp filters (qemu-user refuses
//     them): ForbidNewProcesses() then returns -1 with errno set, and the caller decides
//     whether to run the program without it.
//   * Any other restriction: files, sockets and signals are untouched.
//   * Another architecture's system calls in the same process (the filter checks the
//     calls of the architecture it was built for and lets the others through).
#ifndef PLATFORM_NO_SPAWN_H_
#define PLATFORM_NO_SPAWN_H_

namespace tickbench::platform {

// 0 on success; -1 with errno set (EINVAL, ENOSYS where seccomp filters are absent).
int ForbidNewProcesses();

// Whether ForbidNewProcesses() succeeds on this machine (probed once, then cached).
bool NewProcessBlockAvailable();

}  // namespace tickbench::platform

#endif  // PLATFORM_NO_SPAWN_H_
