#include "remote/termination_signals.h"

#include <signal.h>
#include <sys/signalfd.h>

#include <cerrno>

#include "platform/errno_status.h"

namespace tickbench::remote {

absl::StatusOr<transport::UniqueFd> BlockTerminationSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  // Block first: a signal that arrives between the two calls then waits in the pending
  // set, where the signalfd finds it.
  if (const int error = pthread_sigmask(SIG_BLOCK, &signals, nullptr); error != 0) {
    return platform::ErrnoToStatus(error, "pthread_sigmask");
  }
  transport::UniqueFd fd(signalfd(-1, &signals, SFD_CLOEXEC));
  if (!fd.valid()) return platform::ErrnoToStatus(errno, "signalfd");
  return fd;
}

}  // namespace tickbench::remote
