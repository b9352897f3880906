#include "platform/no_spawn.h"

#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__linux__)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

namespace tickbench::platform {

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))

namespace {

#if defined(__x86_64__)
constexpr unsigned kArch = AUDIT_ARCH_X86_64;
#else
constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
#endif

constexpr unsigned kRetErrno = SECCOMP_RET_ERRNO;

#define TB_LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define TB_RET(value) BPF_STMT(BPF_RET | BPF_K, (value))

// Another architecture's calls pass (see the header); clone passes with CLONE_THREAD
// (low word of its first argument, on these little-endian machines); clone3, fork, vfork
// are refused; everything else passes.
const struct sock_filter kFilter[] = {
    TB_LOAD(arch),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0),
    TB_RET(SECCOMP_RET_ALLOW),
    TB_LOAD(nr),
#if defined(__NR_fork)
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fork, 0, 1),
    TB_RET(kRetErrno | EPERM),
#endif
#if defined(__NR_vfork)
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_vfork, 0, 1),
    TB_RET(kRetErrno | EPERM),
#endif
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1),
    TB_RET(kRetErrno | ENOSYS),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 1, 0),
    TB_RET(SECCOMP_RET_ALLOW),
    TB_LOAD(args[0]),
    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1),
    TB_RET(SECCOMP_RET_ALLOW),
    TB_RET(kRetErrno | EPERM),
};

#undef TB_LOAD
#undef TB_RET

}  // namespace

int ForbidNewProcesses() {
  // Without privileges, a filter needs no_new_privs (also: no setuid gain after exec).
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
  struct sock_fprog program;
  program.len = static_cast<unsigned short>(sizeof(kFilter) / sizeof(kFilter[0]));
  program.filter = const_cast<struct sock_filter*>(kFilter);
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0);
}

#else

int ForbidNewProcesses() {
  errno = ENOSYS;
  return -1;
}

#endif

bool NewProcessBlockAvailable() {
  static const bool available = [] {
    const pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
      if (ForbidNewProcesses() != 0) _exit(1);
      // The filter must refuse what system() would do.
      _exit(fork() < 0 && errno == EPERM ? 0 : 2);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
      if (errno != EINTR) return false;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }();
  return available;
}

}  // namespace tickbench::platform
